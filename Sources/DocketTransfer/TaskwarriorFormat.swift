import Database
import DocketCore
import Foundation
import JSONText

/// Taskwarrior's JSON (`task export`, `task import`).
///
/// A task becomes an issue with the task's own uuid as its id, so a second import of the same
/// tasks updates them, and an issue exported back keeps its uuid. The description is the title;
/// the annotations are the detail, a line each, dated; the tags and the project are tags (the
/// project whole, `docket.core` one tag: Docket's tags are flat, and a project split at its dots
/// would make tags that mean nothing alone). Every other attribute (due, wait, recur, depends, a
/// user's own) is kept in a block at the end of the detail, `Taskwarrior:` and a line each, which
/// an export reads back, so that a task makes the round trip whole.
///
/// What Taskwarrior cannot hold goes out in one attribute of Docket's own, `docket` (a JSON text:
/// the times to the fraction of a second, whether the issue was ever modified, a detail the
/// annotations cannot give back, tag names with spaces), which Taskwarrior keeps as it keeps any
/// attribute it does not know. Read back, each part counts only where the task still says what
/// it said when written (a time edited in Taskwarrior, an annotation added, wins), so that an
/// issue makes the round trip whole too, and a second import of the same file changes nothing.
public enum TaskwarriorFormat {
  /// The attributes read into the issue itself; the rest go to the detail's block. `id` and
  /// `urgency` are Taskwarrior's own working numbers, made again on every export, and dropped.
  static let readAttributes: Set<String> = [
    "uuid", "description", "status", "entry", "modified", "end", "priority", "tags",
    "annotations", "id", "urgency", docketAttribute,
  ]
  static let docketAttribute = "docket"
  static let blockHeading = "Taskwarrior:"

  static func read(_ bytes: [UInt8], progress: ((Int) -> Void)? = nil) throws(ImportError)
    -> IncomingBatch
  {
    var batch = IncomingBatch(format: .taskwarrior)
    try TransferReader.forEachRecord(bytes, progress: progress) { record throws(ImportError) in
      let status = try record.requiredString("status")
      switch status {
      case "deleted":
        batch.skipped[.deletedTask, default: 0] += 1
        return
      case "recurring":
        batch.skipped[.recurringTemplate, default: 0] += 1
        return
      case "pending", "waiting", "completed":
        break
      default:
        throw record.fail(.badValue(field: "status", value: status))
      }
      let priority: Priority
      let priorityText = try record.string("priority")
      switch priorityText {
      case nil, "L": priority = .low
      case "M": priority = .medium
      case "H": priority = .high
      case let other?: throw record.fail(.badValue(field: "priority", value: other))
      }
      let kept = DocketPart(record)
      var tags = kept.tagNames(for: try record.strings("tags")).map { IncomingTag(name: $0) }
      if let project = try record.string("project") {
        tags.insert(IncomingTag(name: project), at: 0)
      }
      let entry = try record.requiredDate("entry")
      let created = kept.time(kept.entry, standingFor: entry) ?? entry
      let end = try record.date("end")
      var modified = try record.date("modified") ?? end
      if let written = kept.modified, let time = modified {
        // Never modified, or modified at a time Taskwarrior holds to the second only.
        modified =
          written.map { kept.time($0, standingFor: time) ?? time }
          ?? (DateText.compact(time) == DateText.compact(entry) ? nil : time)
      }
      var detail = try detail(record)
      if let exact = kept.detail,
        keptDetailFits(exact, created: entry, task: record, read: detail)
      {
        detail = exact
      }
      batch.issues.append(
        try record.checked(
          IncomingIssue(
            id: try record.uuid("uuid"), title: try record.requiredString("description"),
            detail: detail, priority: priority, completed: status == "completed",
            created: created, modified: modified, tags: tags),
          title: "description", detail: "annotations", tags: "tags"))
    }
    return batch
  }

  /// The annotations, a line each (`2026-11-30 06:40:30  text`, UTC), then the other attributes.
  static func detail(_ record: Record) throws(ImportError) -> String {
    var notes: [(date: Date, text: String)] = []
    for annotation in try record.array("annotations") {
      let note = try Record(annotation, line: record.line, number: record.number)
      notes.append((try note.requiredDate("entry"), try note.requiredString("description")))
    }
    return detailText(
      notes: notes, attributes: record.members, priorityLetter: record.value("priority")?.string)
  }

  /// The detail made of annotations and attributes, as an import writes it.
  static func detailText(
    notes: [(date: Date, text: String)], attributes: [(String, JSON)], priorityLetter: String?
  ) -> String {
    var lines = notes.map { DateText.spreadsheet($0.date) + "  " + oneLine($0.text) }
    var block: [String] = []
    for (key, value) in attributes where !readAttributes.contains(key) && value != .null {
      block.append(key + ": " + (value.string ?? JSONWriter.text(value)))
    }
    // Low is Docket's default and no priority Taskwarrior's: a task that said L says so here, so
    // that it goes back as L.
    if priorityLetter == "L" { block.append("priority: L") }
    if !block.isEmpty {
      if !lines.isEmpty { lines.append("") }
      lines.append(blockHeading)
      lines += block
    }
    return lines.joined(separator: "\n")
  }

  /// The detail an import makes of the task an export makes of `detail`: where that is not
  /// `detail` itself, the export keeps it whole (`DocketPart`).
  static func detailAsRead(_ detail: String, created: Date, priorityLetter: String?) -> String {
    let (annotations, attributes) = parseDetail(detail, created: created)
    return detailText(notes: annotations, attributes: attributes, priorityLetter: priorityLetter)
  }

  /// Whether the detail Docket kept is still the task's: the task's annotations and attributes
  /// are what an export of it writes, and an attribute its `Taskwarrior:` block names that the
  /// task holds itself is what the task holds now (a `priority: L`, an L), so neither an edit in
  /// Taskwarrior nor a crafted attribute brings back what the task no longer says.
  static func keptDetailFits(_ exact: String, created: Date, task: Record, read: String) -> Bool {
    let priorityLetter = task.value("priority")?.string
    let (_, attributes) = parseDetail(exact, created: created)
    for (key, value) in attributes where readAttributes.contains(key) {
      switch key {
      case "id", "urgency": continue  // Taskwarrior's working numbers, dropped either way.
      case "priority":
        guard value.string == "L", priorityLetter == "L" else { return false }
      default:
        guard let held = task.value(key), JSONWriter.text(held) == JSONWriter.text(value) else {
          return false
        }
      }
    }
    return detailAsRead(exact, created: created, priorityLetter: priorityLetter) == read
  }

  /// What the `docket` attribute of a task holds, read leniently: a part missing or of the
  /// wrong kind (a task another tool wrote) is as if not there.
  struct DocketPart {
    var entry: Date?
    /// nil: not said; `.some(nil)`: never modified.
    var modified: Date??
    var detail: String?
    /// The issue's tag names as exported (`UI Design`, where the task holds `UI_Design`).
    var names: [String] = []

    init(_ record: Record) {
      guard let text = record.value(TaskwarriorFormat.docketAttribute)?.string,
        let value = try? JSONReader.document(Array(text.utf8)), let members = value.members
      else { return }
      for (key, member) in members {
        switch key {
        case "entry": entry = member.string.flatMap(DateText.parse)
        case "modified":
          if member == .null {
            modified = .some(nil)
          } else if let date = member.string.flatMap(DateText.parse) {
            modified = .some(date)
          }
        case "detail": detail = member.string
        case "tags": names = (member.array ?? []).compactMap(\.string)
        default: break
        }
      }
    }

    /// The tag names of the task's `words`: the names as exported where the words are still
    /// the ones written, else each word by itself, or the name that was written as it.
    func tagNames(for words: [String]) -> [String] {
      guard !names.isEmpty else { return words }
      if Set(words) == Set(names.map(TaskwarriorFormat.tagWord)) { return names }
      return words.map { word in
        names.contains(word) ? word : names.first { TaskwarriorFormat.tagWord($0) == word } ?? word
      }
    }

    /// `exact`, where Taskwarrior's `time` is it to the second (not edited since).
    func time(_ exact: Date?, standingFor time: Date) -> Date? {
      guard let exact, exact.isKept, DateText.compact(exact) == DateText.compact(time) else {
        return nil
      }
      return exact
    }
  }

  /// `text` on one line: each run of line breaks (LF, CR, VT, FF, NEL, U+2028, U+2029) becomes
  /// one space, and breaks at either end are dropped. Read byte by byte: splitting by characters
  /// is slow for the long annotations of a large import.
  static func oneLine(_ text: String) -> String {
    var copy = text
    return copy.withUTF8 { bytes -> String in
      // The length of the line break at `index`, or 0.
      func breakLength(at index: Int) -> Int {
        switch bytes[index] {
        case 0x0A...0x0D: return 1
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: return 2
        case 0xE2
        where index + 2 < bytes.count && bytes[index + 1] == 0x80
          && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9):
          return 3
        default: return 0
        }
      }
      var index = 0
      while index < bytes.count, breakLength(at: index) == 0 { index += 1 }
      if index == bytes.count { return text }
      var flat: [UInt8] = []
      flat.reserveCapacity(bytes.count)
      var pendingSpace = false
      index = 0
      while index < bytes.count {
        let length = breakLength(at: index)
        if length > 0 {
          pendingSpace = !flat.isEmpty
          index += length
          continue
        }
        if pendingSpace {
          flat.append(0x20)
          pendingSpace = false
        }
        flat.append(bytes[index])
        index += 1
      }
      return String(decoding: flat, as: UTF8.self)
    }
  }

  // MARK: Writing

  /// One task an issue, as `task import` reads them: a JSON array, one task a line.
  public static func write(_ issues: IssueSource, to output: inout OutputBytes) throws {
    output.append("[")
    var first = true
    try issues { issue in
      output.append(first ? "\n" : ",\n")
      first = false
      JSONWriter.append(task(issue), to: &output)
      output.flushIfFull()
    }
    output.append("\n]\n")
  }

  static func task(_ issue: Issue) -> JSON {
    let (annotations, attributes) = parseDetail(issue.detail, created: issue.created)
    var members: [(String, JSON)] = [
      ("uuid", .string(issue.id.lowercasedText)),
      ("description", .string(issue.title.isEmpty ? "(untitled)" : issue.title)),
      ("status", .string(issue.completed ? "completed" : "pending")),
      ("entry", .string(DateText.compact(issue.created))),
      ("modified", .string(DateText.compact(issue.modified ?? issue.created))),
    ]
    if issue.completed {
      members.append(("end", .string(DateText.compact(issue.modified ?? issue.created))))
    }
    if issue.priority != .low {
      members.append(("priority", .string(issue.priority == .high ? "H" : "M")))
    }
    // The project came in as a tag too; it goes back as the project only.
    let project = attributes.first { $0.0 == "project" }?.1.string
    let names = issue.tags.map(\.name).filter { $0 != project }
    // One word a tag, once (`UI Design` and `UI_Design` are one word to Taskwarrior).
    var words: [String] = []
    for word in names.map(tagWord) where !words.contains(word) { words.append(word) }
    if !words.isEmpty { members.append(("tags", .array(words.map(JSON.string)))) }
    if !annotations.isEmpty {
      members.append(
        (
          "annotations",
          .array(
            annotations.map {
              .object([
                ("entry", .string(DateText.compact($0.date))), ("description", .string($0.text)),
              ])
            })
        ))
    }
    for (key, value) in attributes where !members.contains(where: { $0.0 == key }) {
      members.append((key, value))
    }
    // What Taskwarrior cannot hold, for an import to read back.
    var kept: [(String, JSON)] = [
      ("entry", .string(DateText.exact(issue.created))),
      ("modified", issue.modified.map { .string(DateText.exact($0)) } ?? .null),
    ]
    let priorityLetter = members.first { $0.0 == "priority" }?.1.string
    if detailAsRead(issue.detail, created: issue.created, priorityLetter: priorityLetter)
      != issue.detail
    {
      kept.append(("detail", .string(issue.detail)))
    }
    if names.contains(where: { tagWord($0) != $0 }) {
      kept.append(("tags", .array(names.map(JSON.string))))
    }
    members.append((docketAttribute, .string(JSONWriter.text(.object(kept)))))
    return .object(members)
  }

  /// A Taskwarrior tag is one word: the spaces of a Docket tag become underscores.
  static func tagWord(_ name: String) -> String {
    name.split(whereSeparator: \.isWhitespace).joined(separator: "_")
  }

  /// The detail read back: dated lines become annotations (other text one annotation, dated when
  /// the issue was made), and the `Taskwarrior:` block the attributes it kept.
  static func parseDetail(_ detail: String, created: Date) -> (
    annotations: [(date: Date, text: String)], attributes: [(String, JSON)]
  ) {
    // Split at line feeds by their byte (a split by characters reads every grapheme).
    var lines = detail.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    var attributes: [(String, JSON)] = []
    if let heading = lines.lastIndex(of: blockHeading) {
      let block = lines[(heading + 1)...]
      let parsed = block.compactMap { line -> (String, JSON)? in
        guard let colon = line.range(of: ": ") else { return nil }
        let key = String(line[..<colon.lowerBound])
        let text = String(line[colon.upperBound...])
        // Values that were not text (numbers, lists) were written as JSON; text that only looks
        // like a number ("1.10", "007") stays text, as it was.
        if let json = try? JSONReader.document(Array(text.utf8)), json.string == nil,
          JSONWriter.text(json) == text
        {
          return (key, json)
        }
        return (key, .string(text))
      }
      // Only a block that is all attributes, at least one, is one (a detail may say
      // "Taskwarrior:" in passing).
      if !parsed.isEmpty, parsed.count == block.count,
        parsed.allSatisfy({ !$0.0.isEmpty && !$0.0.contains(" ") })
      {
        attributes = parsed
        lines.removeSubrange(heading...)
        while lines.last == "" { lines.removeLast() }
      }
    }
    var annotations: [(Date, String)] = []
    var loose: [String] = []
    for line in lines where !line.isEmpty {
      if line.count >= 21, let date = DateText.parse(String(line.prefix(19)) + "Z"),
        line.dropFirst(19).hasPrefix("  ")
      {
        annotations.append((date, String(line.dropFirst(21))))
      } else {
        loose.append(line)
      }
    }
    if !loose.isEmpty {
      // Text that is not dated lines goes as one annotation, whole.
      annotations = [(created, lines.joined(separator: "\n"))]
    }
    return (annotations, attributes)
  }
}
