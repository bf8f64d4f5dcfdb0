import Database
import DocketCore
import DocketTransfer
import Foundation
import JSONText
import Localization
import Terminal

/// Issues as the command line prints them: JSON in the documented shape, or rows for people.
struct IssueOutput {
  let l10n: Localizer
  let now: Date
  let colors: Bool

  /// `{"id", "ref", "title", "detail", "priority", "completed", "created", "modified", "tags"}`.
  static func json(_ issue: Issue, reference: String) -> JSON {
    .object([
      ("id", .string(issue.id.lowercasedText)),
      ("ref", .string(reference)),
      ("title", .string(issue.title)),
      ("detail", .string(issue.detail)),
      ("priority", .string(issue.priority.name)),
      ("completed", .bool(issue.completed)),
      ("created", .string(ISOTime.string(issue.created))),
      ("modified", issue.modified.map { .string(ISOTime.string($0)) } ?? .null),
      ("tags", .array(issue.tags.map { .string($0.name) })),
    ])
  }

  func priorityCell(_ priority: Priority) -> TextTable.Cell {
    let symbol: String
    let style: Style
    switch priority {
    case .high:
      symbol = "▲"
      style = .high
    case .medium:
      symbol = "■"
      style = .medium
    case .low:
      symbol = "▽"
      style = .dim
    }
    return TextTable.Cell(text: symbol + " " + l10n.name(of: priority), style: style)
  }

  func statusCell(_ completed: Bool) -> TextTable.Cell {
    completed
      ? TextTable.Cell(text: "✓ " + l10n.name(of: SearchQuery.Status.completed), style: .done)
      : TextTable.Cell(text: "○ " + l10n.name(of: SearchQuery.Status.open))
  }

  /// The columns of `docket list`.
  var listColumns: [TextTable.Column] {
    [
      TextTable.Column(header: l10n("table.ref")),
      TextTable.Column(header: l10n("table.priority")),
      TextTable.Column(header: l10n("table.status")),
      TextTable.Column(header: l10n("table.title"), shrinks: true, minimumWidth: 12),
      TextTable.Column(header: l10n("table.tags"), shrinks: true, minimumWidth: 6),
      TextTable.Column(header: l10n("table.updated")),
    ]
  }

  /// The table of `docket list`, for a list held whole (a page).
  func table(_ issues: [Issue], references: [UUID: String]) -> TextTable {
    var table = TextTable(columns: listColumns)
    var cells = RowCells(self)
    table.rows.reserveCapacity(issues.count)
    for issue in issues {
      table.rows.append(
        cells(issue, reference: references[issue.id] ?? IssueReference.hex(issue.id)))
    }
    return table
  }

  /// The cells of list rows. The words that repeat from row to row are made once.
  struct RowCells {
    let output: IssueOutput
    /// By the priority's raw value, and open then completed: made and measured once.
    let priorities: [TextTable.Cell]
    let statuses: [TextTable.Cell]
    let untitled: String
    private var times: [RowDate: TextTable.Cell] = [:]

    init(_ output: IssueOutput) {
      self.output = output
      priorities = Priority.allCases.sorted { $0.rawValue < $1.rawValue }.map {
        output.priorityCell($0).measured()
      }
      statuses = [output.statusCell(false).measured(), output.statusCell(true).measured()]
      untitled = output.l10n("issue.untitled")
    }

    /// The widths of the columns of a list measured before it is written (`ListMeasurer`),
    /// headers included: what the table of the same rows held whole would measure. Without
    /// measured dates, the date column (the last, never padded) is given the widest any date
    /// can be, so no date is cut.
    func contentWidths(_ measured: ListWidths, datesMeasured: Bool) -> [Int] {
      let headers = output.listColumns.map { DisplayWidth.of($0.header) }
      let samples: [RowDate] =
        [.underAnHour, .hours(23), .days(6), .years(9_999)]
        + (1...12).map { RowDate.date(day: 28, month: $0) }
      let dates =
        datesMeasured
        ? measured.dates
        : samples.map { DisplayWidth.of(output.l10n.compact($0)) }.max() ?? 0
      return [
        max(headers[0], measured.references),
        max(
          headers[1], measured.priorities.compactMap { priorities[$0.rawValue].width }.max() ?? 0),
        max(headers[2], measured.completion.compactMap { statuses[$0 ? 1 : 0].width }.max() ?? 0),
        max(headers[3], measured.titles),
        max(headers[4], measured.tags),
        max(headers[5], dates),
      ]
    }

    /// How wide an issue's date is in the table.
    func dateWidth(_ date: Date) -> Int {
      DisplayWidth.of(output.l10n.compact(RowDate(date, now: output.now)))
    }

    /// How wide a title is in the table.
    func titleWidth(_ title: String) -> Int {
      DisplayWidth.of(SafeText.sanitized(output.oneLine(title.isEmpty ? untitled : title)))
    }

    /// How wide a list of tags is in the table.
    func tagsWidth(_ tags: [Tag]) -> Int {
      DisplayWidth.of(SafeText.sanitized(tags.map(\.name).joined(separator: ", ")))
    }

    mutating func callAsFunction(_ issue: Issue, reference: String) -> [TextTable.Cell] {
      [
        TextTable.Cell(reference: reference),
        priorities[issue.priority.rawValue],
        statuses[issue.completed ? 1 : 0],
        titleCell(issue),
        tagsCell(issue),
        time(issue),
      ]
    }

    /// Appends the row `callAsFunction` makes, as `EncodedRow.append` encodes it, and returns
    /// the widths of its cells, without making the row: the cells that repeat from row to row
    /// (a priority, a status, a date, a set of tags) are encoded once. A whole list encodes
    /// every issue before its first line is written, so this is its longest step, and it
    /// allocates nothing for a row whose tags and date were seen before.
    mutating func encode(
      _ issue: Issue, reference: String, to output: inout OutputBytes
    ) -> RowWidths {
      if encodedRepeats.isEmpty {
        for cell in priorities + statuses { encodedRepeats.append(EncodedRow.bytes(of: cell)) }
      }
      var widths = RowWidths()
      widths.reference = EncodedRow.append(
        TextTable.Cell(reference: reference), to: &output, measure: DisplayWidth.of)
      output.append(encodedRepeats[issue.priority.rawValue])
      output.append(encodedRepeats[priorities.count + (issue.completed ? 1 : 0)])
      widths.title = EncodedRow.append(titleCell(issue), to: &output, measure: DisplayWidth.of)
      // Issues with the same tags share one array (`TagLists`), so a set is found by where its
      // array is, without hashing its ids. The cache keeps each array it is keyed by, so no
      // other array can take its place; the comparison (at once for the same storage) is a
      // second guard.
      let place = issue.tags.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
      let tags: (bytes: [UInt8], width: Int)
      if let known = encodedTags[place], known.tags == issue.tags {
        tags = (known.bytes, known.width)
      } else {
        let cell = tagsCell(issue)
        tags = (EncodedRow.bytes(of: cell), cell.width ?? DisplayWidth.of(cell.text))
        if encodedTags.count < Self.tagSetsKept, tags.bytes.count <= Self.longestKept {
          encodedTags[place] = (issue.tags, tags.bytes, tags.width)
        }
      }
      output.append(tags.bytes)
      widths.tags = tags.width
      let rowDate = RowDate(issue.lastActivity, now: self.output.now)
      let date: (bytes: [UInt8], width: Int)
      if let known = encodedTimes[rowDate] {
        date = known
      } else {
        let cell = time(rowDate)
        date = (EncodedRow.bytes(of: cell), cell.width ?? 0)
        if encodedTimes.count < Self.datesKept { encodedTimes[rowDate] = date }
      }
      output.append(date.bytes)
      widths.date = date.width
      return widths
    }

    /// The widths of the cells of a row `encode` wrote that differ from row to row.
    struct RowWidths {
      var reference = 0
      var title = 0
      var tags = 0
      var date = 0
    }

    /// Past this many sets of tags, each further set is encoded afresh; so is a set whose cell
    /// is longer than `longestKept` bytes, so the cache stays small whatever the tags hold.
    static let tagSetsKept = 8_192
    static let longestKept = 256
    /// Relative dates are few, but dates ahead of the clock are each their own day.
    static let datesKept = 4_096
    private var encodedRepeats: [[UInt8]] = []
    private var encodedTags: [Int: (tags: [Tag], bytes: [UInt8], width: Int)] = [:]
    private var encodedTimes: [RowDate: (bytes: [UInt8], width: Int)] = [:]

    private func titleCell(_ issue: Issue) -> TextTable.Cell {
      TextTable.Cell(text: output.oneLine(issue.title.isEmpty ? untitled : issue.title))
    }

    private func tagsCell(_ issue: Issue) -> TextTable.Cell {
      TextTable.Cell(text: issue.tags.map(\.name).joined(separator: ", "), style: .dim)
    }

    /// Compact, as the seed's rows show it ("> 3 days", "29 Oct").
    private mutating func time(_ issue: Issue) -> TextTable.Cell {
      time(RowDate(issue.lastActivity, now: output.now))
    }

    private mutating func time(_ rowDate: RowDate) -> TextTable.Cell {
      if let known = times[rowDate] { return known }
      let time = TextTable.Cell(text: output.l10n.compact(rowDate), style: .dim).measured()
      if times.count < Self.datesKept { times[rowDate] = time }
      return time
    }
  }

  /// Appends an issue as `json(_:reference:)` renders it inside an array (indented one level),
  /// without building the value first: a streamed list writes a million of these.
  static func appendJSON(_ issue: Issue, reference: String, to output: inout OutputBytes) {
    output.append("{\n    \"id\": \"")
    output.append(issue.id.lowercasedText)
    output.append("\",\n    \"ref\": ")
    JSON.appendQuoted(reference, to: &output)
    output.append(",\n    \"title\": ")
    JSON.appendQuoted(issue.title, to: &output)
    output.append(",\n    \"detail\": ")
    JSON.appendQuoted(issue.detail, to: &output)
    output.append(",\n    \"priority\": \"")
    output.append(issue.priority.name)
    output.append(
      issue.completed ? "\",\n    \"completed\": true" : "\",\n    \"completed\": false")
    output.append(",\n    \"created\": \"")
    output.append(ISOTime.string(issue.created))
    if let modified = issue.modified {
      output.append("\",\n    \"modified\": \"")
      output.append(ISOTime.string(modified))
      output.append("\",\n    \"tags\": ")
    } else {
      output.append("\",\n    \"modified\": null,\n    \"tags\": ")
    }
    if issue.tags.isEmpty {
      output.append("[]")
    } else {
      output.append("[\n")
      for (index, tag) in issue.tags.enumerated() {
        output.append(index == 0 ? "      " : ",\n      ")
        JSON.appendQuoted(tag.name, to: &output)
      }
      output.append("\n    ]")
    }
    output.append("\n  }")
  }

  /// A title on one line: line breaks and tabs shown as spaces.
  func oneLine(_ text: String) -> String {
    let breaks: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0xE2 || $0 == 0xC2 }
    let mayBreak =
      text.utf8.withContiguousStorageIfAvailable { $0.contains(where: breaks) }
      ?? text.utf8.contains(where: breaks)
    guard mayBreak else { return text }
    return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }
}

extension CommandContext {
  /// The hex digits of a typed reference (lowercase, without hyphens), or a usage error that
  /// says why it cannot be one: not hex, or fewer than four digits.
  func referenceDigits(_ reference: String) throws -> String {
    guard IssueReference.canonicalPrefix(reference) != nil else {
      throw CommandFailure.usage(l10n("error.ref.notHex", .string(reference)))
    }
    let digits = reference.lowercased().filter { $0 != "-" }
    guard digits.count >= IssueReference.minimumLength else {
      throw CommandFailure.usage(l10n("error.ref.tooShort", .string(reference)))
    }
    return digits
  }

  /// The issue a reference names: the shortest unique prefix of its id (at least four hex
  /// digits), or the full id. Unknown and ambiguous references are usage errors that say so.
  func resolve(_ reference: String, in db: Connection) throws -> Issue {
    _ = try referenceDigits(reference)
    let candidates = try db.issueIDs(withPrefix: reference, limit: 11)
    guard let first = candidates.first else {
      throw CommandFailure.usage(l10n("error.ref.unknown", .string(reference)))
    }
    guard candidates.count == 1 else {
      let references = try db.references(for: candidates)
      var lines = [l10n("error.ref.ambiguous", .string(reference))]
      for id in candidates.prefix(10) {
        let title = try db.fetchIssue(id: id)?.title ?? ""
        lines.append("  \(references[id] ?? IssueReference.hex(id))  \(title)")
      }
      if candidates.count > 10 { lines.append("  …") }
      lines.append(l10n("error.ref.useMoreDigits"))
      throw CommandFailure.usage(lines.joined(separator: "\n"))
    }
    guard let issue = try db.fetchIssue(id: first) else {
      throw CommandFailure.usage(l10n("error.ref.unknown", .string(reference)))
    }
    return issue
  }

  /// Resolves every reference before anything is changed: one bad reference changes nothing.
  func resolveAll(_ references: [String], in db: Connection) throws -> [Issue] {
    var seen = Set<UUID>()
    return try references.compactMap { reference in
      let issue = try resolve(reference, in: db)
      return seen.insert(issue.id).inserted ? issue : nil
    }
  }

  func printJSON(_ value: JSON) {
    console.line(value.rendered())
  }

  var output: IssueOutput { IssueOutput(l10n: l10n, now: now, colors: console.colors) }
}
