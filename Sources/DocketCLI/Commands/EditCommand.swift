import Database
import DocketCore
import Foundation
import Localization
import Terminal

/// `docket edit REF [--title T] [--detail D] [--priority P] [--tag NAME|+NAME|-NAME]...`; with no
/// field option, `$VISUAL` or `$EDITOR` on a text form of the issue.
struct EditCommand {
  let context: CommandContext

  func run() throws {
    let arguments = context.arguments
    let l10n = context.l10n
    let database = try context.database()
    let reference = arguments.arguments[0]
    let fieldOptions = ["title", "detail", "priority", "tag"]
    let change: (Connection) throws -> IssueEdit
    if fieldOptions.contains(where: arguments.has) {
      // Flags say exactly what to change: the issue is read and written in one transaction.
      let flags = try EditFlags(arguments, l10n)
      change = { db in try flags.edit(of: try context.resolve(reference, in: db), in: db) }
    } else {
      let stored = try database.read { try context.resolve(reference, in: $0) }
      guard let fromEditor = try EditorSession(context: context).edit(stored) else {
        context.console.writeError(l10n("edit.unchanged") + "\n")
        return
      }
      // Minutes may have passed in the editor: only what the form changed is written, over the
      // issue as it is stored now.
      change = { db in try fromEditor.edit(from: stored, in: db) }
    }

    let (outcome, shortest) = try database.write { db -> (EditOutcome, String) in
      let outcome = try db.saveEdit(try change(db))
      guard let issue = outcome.issue else {
        throw CommandFailure.failed(l10n("error.edit.vanished", .string(reference)))
      }
      return (outcome, try db.references(for: [issue.id])[issue.id] ?? IssueReference.hex(issue.id))
    }
    guard let issue = outcome.issue else { return }
    if !outcome.overwritten.isEmpty {
      let fields = outcome.overwritten.map { l10n($0.nameKey) }.joined(separator: ", ")
      context.console.writeError(l10n("edit.overwritten", .string(fields)) + "\n")
    }
    if context.json {
      context.printJSON(IssueOutput.json(issue, reference: shortest))
    } else if outcome.changed {
      context.console.line(shortest)
    } else {
      context.console.writeError(l10n("edit.unchanged") + "\n")
    }
  }
}

/// The changes `docket edit` flags ask for.
struct EditFlags {
  var title: String?
  var detail: String?
  var priority: Priority?
  /// Tag names in the order given, each to add (true) or remove (false).
  var tags: [(name: String, add: Bool)] = []

  init(_ arguments: ParsedArguments, _ l10n: Localizer) throws {
    if let title = arguments.value("title") {
      let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
      try TitleOption.check(trimmed, l10n)
      self.title = trimmed
    }
    detail = arguments.value("detail")
    priority = try PriorityOption.read(arguments, l10n)
    for change in arguments.values("tag") {
      let add = !change.hasPrefix("-")
      let name =
        change.hasPrefix("-") || change.hasPrefix("+") ? String(change.dropFirst()) : change
      guard let normalized = TagName.normalized(name) else {
        throw CommandFailure.usage(l10n("error.tag.emptyName"))
      }
      tags.append((normalized, add))
    }
  }

  /// The edit of `issue` these flags make; tags added by a new name are created.
  func edit(of issue: Issue, in db: Connection) throws -> IssueEdit {
    var edit = IssueEdit(id: issue.id)
    edit.title = title
    edit.detail = detail
    edit.priority = priority
    // The last word about each name counts (`+x -x` leaves x off, and creates no tag x).
    var last: [String: (name: String, add: Bool)] = [:]
    var order: [String] = []
    for (name, add) in tags {
      let key = TagName.key(name)
      if last[key] == nil { order.append(key) }
      last[key] = (name, add)
    }
    for key in order {
      guard let (name, add) = last[key] else { continue }
      if add {
        edit.addedTags.insert(try db.createTag(named: name, id: UUID()).tag.id)
      } else {
        // Every tag of that name the issue carries (two may meet for a while after a sync).
        for tag in issue.tags where TagName.key(tag.name) == key { edit.removedTags.insert(tag.id) }
      }
    }
    return edit
  }
}

/// The fields a person edits, with tags by name (new names become tags when saved).
struct EditedIssue: Equatable {
  var title: String
  var detail: String
  var priority: Priority
  var completed: Bool
  var tagNames: [String]

  init(issue: Issue) {
    // A title is one line; one an older version stored with a break is shown, and edited, as
    // one line (`edit(from:in:)` keeps it as stored when the form leaves it so).
    title = Limits.oneLine(issue.title)
    detail = issue.detail
    priority = issue.priority
    completed = issue.completed
    tagNames = issue.tags.map(\.name)
  }

  /// The edit that turns `base`, the issue the form was made from, into this form: only the
  /// fields and tags the form changed. Tags named for the first time are created.
  func edit(from base: Issue, in db: Connection) throws -> IssueEdit {
    var edited = base
    // The form shows the title on one line, and its fields are read trimmed: a title that reads
    // back as shown is the stored one, untouched.
    let shown = Limits.oneLine(base.title).trimmingCharacters(in: .whitespaces)
    if title != shown { edited.title = title }
    edited.detail = detail
    edited.priority = priority
    edited.completed = completed
    let baseKeys = Set(base.tags.map { TagName.key($0.name) })
    let keys = Set(tagNames.map(TagName.key))
    edited.tags.removeAll { !keys.contains(TagName.key($0.name)) }
    for name in tagNames where !baseKeys.contains(TagName.key(name)) {
      edited.tags.append(try db.createTag(named: name, id: UUID()).tag)
    }
    return IssueEdit(from: base, to: edited)
  }
}

/// The text form of an issue for an editor: a few `Field: value` lines, a blank line, then the
/// detail. Lines starting with `#` before the fields are instructions and are ignored.
enum IssueTextForm {
  struct ParseError: Error, Equatable {
    var line: Int
    var reason: String
  }

  static func text(_ issue: EditedIssue, l10n: Localizer) -> String {
    let instructions = l10n("edit.instructions").split(separator: "\n").map { "# " + $0 }
    return
      (instructions + [
        "Title: " + issue.title,
        "Priority: " + issue.priority.name,
        "Completed: " + (issue.completed ? "yes" : "no"),
        "Tags: " + issue.tagNames.map(quotedTag).joined(separator: ", "),
        "",
      ]).joined(separator: "\n") + "\n" + issue.detail
      + (issue.detail.isEmpty || issue.detail.hasSuffix("\n") ? "" : "\n")
  }

  /// A tag name as the `Tags:` line writes it: in double quotes when it holds a comma or
  /// starts with a quote (a quote inside doubled), so that it reads back as one name.
  static func quotedTag(_ name: String) -> String {
    guard name.contains(",") || name.hasPrefix("\"") else { return name }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// The names of a `Tags:` line: separated by commas, a name in double quotes kept whole.
  static func tagNames(_ line: String) -> [String] {
    var names: [String] = []
    var current = ""
    var quoted = false
    var wasQuoted = false
    var characters = line[...]
    while let character = characters.popFirst() {
      if quoted {
        if character == "\"" {
          if characters.first == "\"" {
            current.append("\"")
            characters.removeFirst()
          } else {
            quoted = false
          }
        } else {
          current.append(character)
        }
      } else if character == "\"", current.allSatisfy(\.isWhitespace), !wasQuoted {
        current = ""
        quoted = true
        wasQuoted = true
      } else if character == "," {
        names.append(current)
        current = ""
        wasQuoted = false
      } else {
        current.append(character)
      }
    }
    names.append(current)
    return names
  }

  static func parse(_ text: String, l10n: Localizer) throws(ParseError) -> EditedIssue {
    var lines = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
    var number = 0
    while let first = lines.first,
      first.hasPrefix("#")
        || (first.trimmingCharacters(in: .whitespaces).isEmpty && number == 0 && lines.count > 1
          && lines[1].hasPrefix("#"))
    {
      lines.removeFirst()
      number += 1
    }
    var fields: [String: String] = [:]
    // Where each field was written, so that an error points at its line.
    var fieldLines: [String: Int] = [:]
    while let line = lines.first, !line.trimmingCharacters(in: .whitespaces).isEmpty {
      lines.removeFirst()
      number += 1
      guard let colon = line.firstIndex(of: ":") else {
        throw ParseError(line: number, reason: l10n("error.form.noColon", .string(line)))
      }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      guard ["title", "priority", "completed", "tags"].contains(key) else {
        throw ParseError(
          line: number, reason: l10n("error.form.unknownField", .string(String(line[..<colon]))))
      }
      fields[key] = value
      fieldLines[key] = number
    }
    if !lines.isEmpty { lines.removeFirst() }
    var detail = lines.joined(separator: "\n")
    while detail.hasSuffix("\n") { detail.removeLast() }

    // A field that is missing is reported where the fields end.
    let line = { (key: String) in fieldLines[key] ?? max(number, 1) }
    guard let title = fields["title"], !title.isEmpty else {
      throw ParseError(line: line("title"), reason: l10n("error.form.noTitle"))
    }
    let priorityText = fields["priority"] ?? "low"
    guard let priority = Priority(name: priorityText) else {
      throw ParseError(
        line: line("priority"), reason: l10n("error.form.badPriority", .string(priorityText)))
    }
    let completedText = (fields["completed"] ?? "no").lowercased()
    let completed: Bool
    switch completedText {
    case "yes", "y", "true", "ja", "j": completed = true
    case "no", "n", "false", "nein": completed = false
    default:
      throw ParseError(
        line: line("completed"), reason: l10n("error.form.badCompleted", .string(completedText)))
    }
    var tagNames: [String] = []
    for part in Self.tagNames(fields["tags"] ?? "") {
      guard let name = TagName.normalized(part) else { continue }
      if !tagNames.contains(where: { TagName.key($0) == TagName.key(name) }) {
        tagNames.append(name)
      }
    }
    var issue = EditedIssue(issue: Issue(id: UUID(), created: Date()))
    issue.title = title
    issue.detail = detail
    issue.priority = priority
    issue.completed = completed
    issue.tagNames = tagNames
    return issue
  }
}

/// Runs the user's editor on the text form in a private temporary file.
struct EditorSession {
  let context: CommandContext

  /// The edited fields, or nil when the file came back unchanged.
  func edit(_ issue: Issue) throws -> EditedIssue? {
    let l10n = context.l10n
    let original = EditedIssue(issue: issue)
    let text = IssueTextForm.text(original, l10n: l10n)
    let edited: String
    do {
      edited = try TextEditorRun.edit(
        text, fileName: "issue-\(IssueReference.hex(issue.id).prefix(8)).txt",
        environment: context.environment)
    } catch .editor(let editor, let status) {
      throw CommandFailure.failed(
        l10n("error.editor.failed", .string(editor), .integer(Int(status ?? 127))))
    } catch .file(let reason) {
      throw CommandFailure.failed(l10n("error.editor.file", .string(reason)))
    } catch .notText {
      throw CommandFailure.failed(l10n("error.editor.notText"))
    }
    if edited == text { return nil }
    do {
      let parsed = try IssueTextForm.parse(edited, l10n: l10n)
      return parsed == original ? nil : parsed
    } catch {
      throw CommandFailure.failed(
        l10n("error.form.unreadable", .string(error.reason), .integer(error.line)))
    }
  }
}
