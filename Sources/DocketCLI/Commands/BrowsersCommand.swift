import Database
import DocketCore
import DocketTransfer
import DocketWeb
import Foundation
import JSONText
import Localization
import Terminal

/// `docket browsers` (the browsers paired with `docket serve`) and `docket browsers revoke
/// NAME|ID|--all`.
struct BrowsersCommand {
  let context: CommandContext

  func list() throws {
    let l10n = context.l10n
    let browsers = try context.database().read { try $0.pairedBrowsers() }
    if context.json {
      context.printJSON(.array(browsers.map(json)))
      return
    }
    if browsers.isEmpty {
      context.console.line(l10n("browsers.none"))
      return
    }
    var table = TextTable(columns: [
      TextTable.Column(header: l10n("table.name"), shrinks: true, minimumWidth: 8),
      TextTable.Column(header: l10n("table.paired")),
      TextTable.Column(header: l10n("table.seen")),
      TextTable.Column(header: l10n("table.id")),
    ])
    for browser in browsers {
      table.rows.append([
        TextTable.Cell(text: browser.name), TextTable.Cell(text: ISOTime.local(browser.paired)),
        TextTable.Cell(text: ISOTime.local(browser.seen)),
        TextTable.Cell(reference: String(browser.id.lowercasedText.prefix(8))),
      ])
    }
    context.console.line(
      table.render(width: context.console.width, colors: context.console.colors).joined(
        separator: "\n"))
  }

  func revoke() throws {
    let l10n = context.l10n
    let all = context.arguments.has("all")
    let given = context.arguments.arguments.joined(separator: " ")
    guard all != !given.isEmpty else {
      throw CommandFailure.usage(l10n("error.browsers.revokeWhat"))
    }
    let revoked = try context.database().write { db -> [PairedBrowser] in
      let browsers = try db.pairedBrowsers()
      let chosen = all ? browsers : [try Self.find(given, in: browsers, l10n)]
      for browser in chosen { try db.revokeBrowser(browser.id) }
      return chosen
    }
    if context.json {
      context.printJSON(.array(revoked.map(json)))
      return
    }
    if revoked.isEmpty { context.console.line(l10n("browsers.none")) }
    for browser in revoked {
      context.console.line(l10n("browsers.revoked", .string(SafeText.sanitized(browser.name))))
    }
  }

  /// The browser `given` names: by its id or the start of it, or by its name (ignoring case).
  static func find(_ given: String, in browsers: [PairedBrowser], _ l10n: Localizer) throws
    -> PairedBrowser
  {
    let key = given.lowercased()
    let byName = browsers.filter { $0.name.lowercased() == key }
    let byID =
      key.count >= 4 ? browsers.filter { $0.id.lowercasedText.hasPrefix(key) } : []
    let found = byName.isEmpty ? byID : byName
    guard let first = found.first else {
      throw CommandFailure.failed(
        l10n("error.browsers.unknown", .string(SafeText.sanitized(given))))
    }
    guard found.count == 1 else {
      throw CommandFailure.failed(
        l10n("error.browsers.ambiguous", .string(SafeText.sanitized(given))))
    }
    return first
  }

  private func json(_ browser: PairedBrowser) -> JSON {
    .object([
      ("id", .string(browser.id.lowercasedText)), ("name", .string(browser.name)),
      ("paired", .string(ISOTime.string(browser.paired))),
      ("seen", .string(ISOTime.string(browser.seen))),
    ])
  }
}
