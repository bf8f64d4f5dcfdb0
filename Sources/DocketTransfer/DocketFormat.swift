import Database
import DocketCore
import Foundation
import JSONText

/// Docket's own format: a JSON document of every tag and issue, ids and dates exact, each issue
/// naming its tags by id. Versioned: a later Docket may add to it, and refuses nothing it wrote
/// before; an earlier Docket refuses a later version by name.
///
/// ```
/// {"format":"docket","version":1,"exported":"2026-11-30T06:40:30Z",
///  "tags":[{"id":"…","name":"Bug"}],
///  "issues":[{"id":"…","title":"…","detail":"…","priority":"high","completed":false,
///             "created":"2026-11-30T06:40:30.1234567Z","modified":null,"tags":["…"]}]}
/// ```
public enum DocketFormat {
  public static let version = 1

  static func read(_ bytes: [UInt8], progress: ((Int) -> Void)? = nil) throws(ImportError)
    -> IncomingBatch
  {
    let document: JSON
    do {
      document = try JSONReader.document(bytes, progress: progress)
    } catch {
      throw ImportError(error)
    }
    return try read(document)
  }

  /// The issues and tags of a document already read.
  static func read(_ document: JSON) throws(ImportError) -> IncomingBatch {
    // The document is read whole: its records are named by their list and number (one issue a
    // line as Docket writes it, but a file may have been written otherwise).
    let top = try Record(document, line: nil, number: nil)
    var (batch, tags) = try begin(top)
    for (index, element) in try top.array("issues").enumerated() {
      batch.issues.append(try issue(element, number: index + 1, tags: tags))
    }
    return end(batch)
  }

  /// Docket's document read from `reader` as it goes, each issue made as soon as it is read,
  /// so that the document is never held whole (as JSON values it would take much more memory
  /// than its issues). Nil, with the reader where it was, for a
  /// document that does not go as Docket writes it (`format` first, `version` and `tags` before
  /// the list of issues, nothing after it, no member twice) and for one with any fault in it:
  /// the caller reads those whole, as `read(_:)` does, which gives the same issues and says
  /// which fault.
  static func stream(_ reader: inout JSONReader) throws(ImportError) -> IncomingBatch? {
    let start = reader
    struct Unusual: Error {}
    var members: [(String, JSON)] = []
    var batch: IncomingBatch?
    do {
      try reader.forEachMember { name, reader in
        guard !members.contains(where: { $0.0 == name }) else { throw Unusual() }
        if name == "issues" {
          guard reader.peek() == UInt8(ascii: "["),
            Set(members.map(\.0)).isSuperset(of: ["version", "tags"])
          else { throw Unusual() }
          var (read, tags) = try begin(try Record(.object(members), line: nil, number: nil))
          try reader.forEachElement { element, index, _ in
            read.issues.append(try issue(element, number: index + 1, tags: tags))
          }
          batch = read
          members.append((name, .null))
          return
        }
        // A member after the issues is another Docket's addition, or a repeat: read whole.
        guard batch == nil else { throw Unusual() }
        let value = try reader.readValue()
        guard !members.isEmpty || (name == "format" && value.string == "docket") else {
          throw Unusual()
        }
        members.append((name, value))
      }
    } catch {
      // A fault of any kind is found again by the whole read, which says which: its syntax is
      // checked through to the end first, and a member repeated after the issues would count.
      reader = start
      return nil
    }
    guard let batch else {
      reader = start
      return nil
    }
    return end(batch)
  }

  /// The header checked (format and version) and the tags read: a batch with no issues yet
  /// (its tags in `extraTags` for now), and the tags by id.
  private static func begin(_ top: Record) throws(ImportError) -> (
    IncomingBatch, [UUID: IncomingTag]
  ) {
    guard try top.string("format") == "docket" else {
      throw top.fail(.badValue(field: "format", value: (try? top.string("format")) ?? ""))
    }
    guard let versionNumber = top.value("version")?.number else {
      throw top.fail(.missingField("version"))
    }
    guard versionNumber == versionNumber.rounded(), versionNumber >= 1, versionNumber < 1e9 else {
      throw top.fail(.badValue(field: "version", value: JSONWriter.text(.number(versionNumber))))
    }
    guard Int(versionNumber) <= version else {
      throw ImportError(.newerVersion(Int(versionNumber)))
    }
    var batch = IncomingBatch(format: .docket)
    var tags: [UUID: IncomingTag] = [:]
    for (index, element) in try top.array("tags").enumerated() {
      let record = try Record(element, line: nil, number: index + 1, list: .tags)
      let tag = IncomingTag(id: try record.uuid("id"), name: try record.requiredString("name"))
      guard Limits.fits(tag.name, Limits.tagNameCharacters) else {
        throw record.fail(.tooLong(field: "name", limit: Limits.tagNameCharacters))
      }
      tags[tag.id!] = tag
      batch.extraTags.append(tag)
    }
    return (batch, tags)
  }

  /// Issue `number` of the list, naming its tags by their ids among `tags`.
  private static func issue(_ element: JSON, number: Int, tags: [UUID: IncomingTag])
    throws(ImportError)
    -> IncomingIssue
  {
    let record = try Record(element, line: nil, number: number, list: .issues)
    let priorityName = try record.string("priority") ?? "low"
    guard let priority = Priority(name: priorityName) else {
      throw record.fail(.badValue(field: "priority", value: priorityName))
    }
    let completed = record.value("completed")
    guard completed == nil || completed?.bool != nil else {
      throw record.fail(.wrongType(field: "completed", expected: "true or false"))
    }
    let issueTags = try record.strings("tags").map {
      (text: String) throws(ImportError) -> IncomingTag in
      guard let id = UUID(text: text), let tag = tags[id] else {
        throw record.fail(.unknownTag(text))
      }
      return tag
    }
    return try record.checked(
      IncomingIssue(
        id: try record.uuid("id"), title: try record.string("title") ?? "",
        detail: try record.string("detail") ?? "", priority: priority,
        completed: completed?.bool ?? false, created: try record.requiredDate("created"),
        modified: try record.date("modified"), tags: issueTags),
      title: "title", detail: "detail", tags: "tags")
  }

  /// Tags that some issue carries are written with it; the list keeps the others.
  private static func end(_ batch: IncomingBatch) -> IncomingBatch {
    var batch = batch
    let carried = Set(batch.issues.flatMap { $0.tags.compactMap(\.id) })
    batch.extraTags.removeAll { carried.contains($0.id!) }
    return batch
  }

  /// Writes the document: the tags, then the issues a line each (a file that reads and diffs well).
  public static func write(
    tags: [Tag], issues: IssueSource, exported: Date, to output: inout OutputBytes
  ) throws {
    output.append("{\"format\":\"docket\",\"version\":\(version),\"exported\":")
    JSONWriter.appendQuoted(DateText.exact(exported), to: &output)
    output.append(",\n\"tags\":[")
    for (index, tag) in tags.enumerated() {
      output.append(index == 0 ? "\n" : ",\n")
      JSONWriter.append(
        .object([("id", .string(tag.id.lowercasedText)), ("name", .string(tag.name))]),
        to: &output)
    }
    output.append("],\n\"issues\":[")
    var first = true
    try issues { issue in
      output.append(first ? "\n" : ",\n")
      first = false
      JSONWriter.append(
        .object([
          ("id", .string(issue.id.lowercasedText)), ("title", .string(issue.title)),
          ("detail", .string(issue.detail)), ("priority", .string(issue.priority.name)),
          ("completed", .bool(issue.completed)),
          ("created", .string(DateText.exact(issue.created))),
          ("modified", issue.modified.map { .string(DateText.exact($0)) } ?? .null),
          ("tags", .array(issue.tags.map { .string($0.id.lowercasedText) })),
        ]), to: &output)
      output.flushIfFull()
    }
    output.append("\n]}\n")
  }
}
