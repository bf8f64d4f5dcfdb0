import Database
import DocketCore
import Foundation

/// `docket awards`: every award, unlocked or locked.
struct AwardsCommand {
  let context: CommandContext

  func run() throws {
    let counts = try context.database().read { try $0.awardCounts() }
    let statuses = AwardStatus.all(for: counts)
    let l10n = context.l10n
    if context.json {
      context.printJSON(
        .array(
          statuses.map { status in
            .object([
              ("id", .string(status.award.id)),
              ("criterion", .string(status.award.criterion.rawValue)),
              ("value", .integer(status.award.value)),
              ("name", .string(l10n.name(of: status.award))),
              ("description", .string(l10n.description(of: status.award))),
              ("unlocked", .bool(status.unlocked)),
            ])
          }))
      return
    }
    var table = TextTable(columns: [
      TextTable.Column(header: ""), TextTable.Column(header: l10n("table.award")),
      TextTable.Column(header: l10n("table.description"), shrinks: true, minimumWidth: 10),
    ])
    for status in statuses {
      table.rows.append([
        status.unlocked
          ? TextTable.Cell(text: "★", style: .done) : TextTable.Cell(text: "·", style: .dim),
        TextTable.Cell(text: l10n.name(of: status.award), style: status.unlocked ? .plain : .dim),
        TextTable.Cell(
          text: l10n.description(of: status.award)
            + (status.unlocked ? "" : " (" + l10n("awards.locked") + ")"),
          style: .dim),
      ])
    }
    var lines = table.render(
      width: context.console.width, colors: context.console.colors, headers: false)
    // A summary line for people; piped, the rows alone, as `list` writes them.
    if context.console.outputIsTerminal {
      lines.append(
        l10n(
          "awards.summary", .integer(statuses.filter(\.unlocked).count), .integer(statuses.count)))
    }
    context.console.line(lines.joined(separator: "\n"))
  }
}
