import Database
import DocketCore
import Foundation

/// `docket tag list|add|rename|delete`.
struct TagCommands {
  let context: CommandContext

  func list() throws {
    let l10n = context.l10n
    let given = try context.givenSort(kept: \.tagSort)
    let database = try context.database()
    let (summaries, settings) = try database.read { db in
      (try db.tagSummaries(), try db.fetchSettings())
    }
    let sorted = (given ?? settings.tagSort).sorted(summaries, showCompleted: true)
    if context.json {
      context.printJSON(
        .array(
          sorted.map {
            .object([
              ("id", .string($0.tag.id.uuidString.lowercased())), ("name", .string($0.tag.name)),
              ("open", .integer($0.open)), ("total", .integer($0.total)),
            ])
          }))
      return
    }
    if sorted.isEmpty {
      if context.console.outputIsTerminal { context.console.line(l10n("tag.none")) }
      return
    }
    var table = TextTable(columns: [
      TextTable.Column(header: l10n("table.name"), shrinks: true, minimumWidth: 8),
      TextTable.Column(header: l10n("table.open"), alignRight: true),
      TextTable.Column(header: l10n("table.total"), alignRight: true),
    ])
    for summary in sorted {
      table.rows.append([
        TextTable.Cell(text: summary.tag.name), TextTable.Cell(text: String(summary.open)),
        TextTable.Cell(text: String(summary.total), style: .dim),
      ])
    }
    context.console.line(
      table.render(width: context.console.width, colors: context.console.colors).joined(
        separator: "\n"))
  }

  func add() throws {
    let name = context.arguments.arguments.joined(separator: " ")
    let database = try context.database()
    let (tag, created) = try database.write { try $0.createTag(named: name, id: UUID()) }
    if context.json {
      context.printJSON(
        .object([("id", .string(tag.id.uuidString.lowercased())), ("name", .string(tag.name))]))
    } else {
      context.console.line(context.l10n(created ? "tag.added" : "tag.exists", .string(tag.name)))
    }
  }

  func rename() throws {
    let oldName = context.arguments.arguments[0]
    let newName = context.arguments.arguments[1]
    let database = try context.database()
    let merge = context.arguments.has("merge")
    let (old, renamed, merged) = try database.write { db -> (Tag, Tag, Bool) in
      guard let tag = try db.fetchTag(named: oldName) else {
        throw CommandFailure.usage(context.l10n("error.tag.unknown", .string(oldName)))
      }
      // Onto another tag's name: with --merge, its issues take that tag and it goes.
      if let target = try db.fetchTag(named: newName), target.id != tag.id {
        guard merge else {
          throw CommandFailure.usage(
            context.l10n("error.tag.mergeOffer", .string(target.name), .string(tag.name)))
        }
        return (tag, try db.mergeTag(id: tag.id, into: target.id), true)
      }
      return (tag, try db.renameTag(id: tag.id, to: newName), false)
    }
    if context.json {
      context.printJSON(
        .object([
          ("id", .string(renamed.id.uuidString.lowercased())), ("name", .string(renamed.name)),
        ]))
    } else if merged {
      context.console.line(context.l10n("tag.merged", .string(old.name), .string(renamed.name)))
    } else {
      context.console.line(context.l10n("tag.renamed", .string(old.name), .string(renamed.name)))
    }
  }

  func delete() throws {
    let l10n = context.l10n
    let name = context.arguments.arguments[0]
    let database = try context.database()
    let summary = try database.read { db -> TagSummary in
      guard let tag = try db.fetchTag(named: name),
        let summary = try db.tagSummaries().first(where: { $0.id == tag.id })
      else { throw CommandFailure.usage(l10n("error.tag.unknown", .string(name))) }
      return summary
    }
    if !context.arguments.has("yes") {
      guard context.console.inputIsTerminal else {
        throw CommandFailure.usage(l10n("error.delete.needsYes"))
      }
      guard
        context.confirm(
          l10n("tag.confirmDelete", .string(summary.tag.name), .integer(summary.total)))
      else {
        context.console.line(l10n("delete.cancelled"))
        return
      }
    }
    try database.write { try $0.deleteTag(id: summary.tag.id) }
    context.console.line(l10n("tag.deleted", .string(summary.tag.name)))
  }
}
