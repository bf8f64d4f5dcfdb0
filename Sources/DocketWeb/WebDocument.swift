import DocketCore
import DocketTransfer
import JSONText
import Localization

/// The frame of every page: the head, the compact header with the site's navigation (Settings,
/// where the language is chosen, as a gear), the live region, and the keys' help.
struct WebDocument {
  enum Section: String {
    case issues, tags, awards, settings
  }

  var l10n: Localizer
  var title: String
  var csrf: String
  var readOnly: Bool
  var said: String?
  var current: Section
  /// The path and query of this page (where the language switch comes back to).
  var here: String
  /// Where this page's event stream starts counting changes (nil: the page is not live).
  var liveVersion: UInt64? = nil

  func render(_ body: HTML) -> HTML {
    let sections: [(Section, String, String)] = [
      (.issues, "/", l10n("web.nav.issues")), (.tags, "/tags", l10n("tui.tags")),
      (.awards, "/awards", l10n("tui.awards")),
    ]
    var links: [HTML] = []
    for (section, href, name) in sections {
      links.append(
        "<li><a href=\"\(href)\"\(HTML.when(section == current, " aria-current=\"page\""))>\(name)</a></li>"
      )
    }
    let settings = l10n("web.settings")
    links.append(
      """
      <li class="settings-link"><a href="/settings" title="\(settings)"\
      \(HTML.when(current == .settings, " aria-current=\"page\""))>\
      <span aria-hidden="true">⚙</span><span class="sr">\(settings)</span></a></li>
      """)
    // The issues' page is the app itself: its name is the page's heading (Tags and Awards have
    // their own).
    let brand: HTML =
      current == .issues ? "<h1 class=\"brand\">Docket</h1>" : "<p class=\"brand\">Docket</p>"
    let readOnlyBanner: HTML =
      readOnly ? "<p class=\"banner\">\(l10n("web.readOnly"))</p>" : .empty
    return """
      <!DOCTYPE html>
      <html lang="\(l10n.language)"><head><meta charset="utf-8">\
      <meta name="viewport" content="width=device-width, initial-scale=1">\
      <meta name="csrf" content="\(csrf)">\
      <link rel="manifest" href="/manifest.webmanifest">\
      <meta name="theme-color" content="\(WebManifest.themeColor)" media="(prefers-color-scheme: light)">\
      <meta name="theme-color" content="\(WebManifest.darkThemeColor)" media="(prefers-color-scheme: dark)">\
      <meta name="mobile-web-app-capable" content="yes">\
      <meta name="apple-mobile-web-app-capable" content="yes">\
      <meta name="apple-mobile-web-app-title" content="Docket">\
      <meta name="apple-mobile-web-app-status-bar-style" content="default">\
      <link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">\
      <link rel="icon" type="image/png" sizes="32x32" href="/static/icons/favicon-32.png">\
      \(liveVersion.map { "<meta name=\"live-version\" content=\"\(String($0))\">" as HTML } ?? .empty)\
      <title>\(title)</title><link rel="stylesheet" href="/static/app.css">\
      <script src="/static/words.js" defer></script><script src="/static/copy.js" defer></script>\
      <script src="/static/offline.js" defer></script>\
      <script src="/static/app.js" defer></script></head>\
      <body data-offline="\(l10n("web.offline"))" data-load-failed="\(l10n("web.loadFailed"))" \
      data-undo="\(l10n("web.undo"))">\
      <a class="skip" href="#list">\(l10n("web.skip"))</a>\
      <header class="top">\(brand)\
      <nav aria-label="\(l10n("web.nav.label"))"><ul>\(links)</ul></nav>\
      <button type="button" class="keys-button" aria-haspopup="dialog" aria-controls="keys" hidden>\(l10n("web.keys.button"))</button></header>\
      \(readOnlyBanner)\
      <p id="connection" class="banner connection" role="status" data-lost="\(l10n("web.connection.lost"))" hidden></p>\
      <div id="announce" class="toast" role="status" aria-live="polite" aria-atomic="true">\(said ?? "")</div>\
      \(body)\(keysDialog())\(current == .issues ? copyWords() : .empty)</body></html>
      """
  }

  /// The words the script needs to draw the list and the detail from the browser's own copy
  /// while the server does not answer: data, never run (`application/json`).
  func copyWords() -> HTML {
    let keys: [(String, String)] = [
      ("low", "priority.low"), ("medium", "priority.medium"), ("high", "priority.high"),
      ("open", "web.mark.open"), ("completed", "web.mark.completed"),
      ("rowPriority", "web.row.priority"), ("rowTags", "web.row.tags"),
      ("rowChanged", "web.row.changed"), ("noMatch", "web.empty.noMatch"),
      ("more", "web.list.more"),
      ("complete", "web.action.complete"), ("reopen", "web.action.reopen"),
      ("delete", "web.action.delete"), ("edit", "web.action.edit"), ("back", "web.back"),
      ("detail", "tui.detail"), ("none", "web.detail.none"), ("gone", "web.issueGone"),
      ("created", "web.detail.created"), ("modified", "web.detail.modified"),
      ("status", "web.form.status"), ("priority", "web.form.priority"), ("tags", "tui.tags"),
      ("details", "tui.field.detail"), ("noTags", "web.detail.noTags"),
      ("noDetail", "web.detail.noDetail"), ("title", "web.form.title"),
      ("detailField", "web.form.detail"), ("completedField", "web.form.completed"),
      ("create", "web.form.create"), ("save", "web.form.save"), ("cancel", "web.form.cancel"),
      ("newIssue", "web.new"), ("editIssue", "web.edit.heading"),
      ("deleteQuestion", "web.delete.question"), ("titleEmpty", "error.title.empty"),
      ("offline", "web.copy.offline"), ("kept", "web.copy.kept"),
      ("waitingOne", "web.copy.waitingOne"),
      ("sent", "web.copy.sent"), ("refused", "web.copy.refused"),
      ("notOffline", "web.copy.notOffline"),
      ("chips", "web.chips"), ("chipRemove", "web.chip.remove"), ("rowMenu", "web.row.menu"),
      ("tooLarge", "web.copy.tooLarge"), ("readOnlyWaiting", "web.copy.readOnly"),
      ("behindWaiting", "web.copy.behind"),
    ]
    // A text's value is `%@` in it, for the script to put in; a count, 1234567 (as the
    // language writes that number).
    let withText: Set = [
      "rowPriority", "rowTags", "rowChanged", "refused", "chipRemove", "rowMenu", "behindWaiting",
    ]
    var members: [(String, JSON)] = keys.map { name, key in
      (name, .string(withText.contains(name) ? l10n(key, .string("%@")) : l10n(key)))
    }
    members.append(("countOne", .string(l10n("tui.issueCount", .integer(1)))))
    members.append(("countOther", .string(l10n("tui.issueCount", .integer(1_234_567)))))
    members.append(("waitingOther", .string(l10n("web.copy.waitingOther", .integer(1_234_567)))))
    // The limits a change made offline is held to, as the server would hold it.
    members.append(("titleLimit", .number(Double(Limits.titleCharacters))))
    members.append(("detailLimit", .number(Double(Limits.detailCharacters))))
    members.append(
      (
        "titleTooLong",
        .string(l10n("error.issue.titleTooLong", .integer(Limits.titleCharacters)))
      ))
    members.append(
      (
        "detailTooLong",
        .string(l10n("error.issue.detailTooLong", .integer(Limits.detailCharacters)))
      ))
    members.append(("readOnly", .bool(readOnly)))
    // Inside a script element nothing may read as a tag: `<` is written as its escape.
    let json = JSONWriter.text(.object(members)).replacingOccurrences(of: "<", with: "\\u003c")
    return HTML(raw: "<script type=\"application/json\" id=\"copy-words\">\(json)</script>")
  }

  /// The keys the script adds, listed where the ? key (or the Keys button) opens them.
  func keysDialog() -> HTML {
    let keys: [(String, String)] = [
      ("j / k", l10n("web.keys.move")), ("n", l10n("web.keys.new")),
      ("/", l10n("web.keys.search")), ("e", l10n("web.keys.edit")),
      ("x", l10n("web.keys.complete")), ("d", l10n("web.keys.delete")),
      (". / ⇧F10", l10n("web.keys.menu")), ("Ctrl-Z / ⌘Z", l10n("web.keys.undo")),
      ("Ctrl-⇧Z / ⌘⇧Z", l10n("web.keys.redo")),
      ("Esc", l10n("web.keys.back")), ("?", l10n("web.keys.help")),
    ]
    var rows: [HTML] = []
    for (key, meaning) in keys { rows.append("<dt><kbd>\(key)</kbd></dt><dd>\(meaning)</dd>") }
    return """
      <dialog id="keys" aria-labelledby="keys-heading"><h2 id="keys-heading">\(l10n("tui.helpTitle"))</h2>\
      <dl class="keys">\(rows)</dl><form method="dialog"><button type="submit">\(l10n("web.keys.close"))</button></form></dialog>
      """
  }
}
