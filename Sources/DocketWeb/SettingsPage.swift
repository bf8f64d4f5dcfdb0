import DocketCore
import DocketSync
import Foundation
import Localization

/// The settings of this browser: its language, and what it is paired as (a device of the
/// database, unpaired from the command line).
struct SettingsPage {
  var l10n: Localizer
  var csrf: String
  var readOnly: Bool
  var browser: PairedBrowser?
  var said: String?
  /// The sync of the computer the page is served from: its remote, and its encryption.
  var sync = SyncSettings()
  /// That computer keeps the key of its encrypted remote.
  var holdsKey = false

  func render() -> HTML {
    var choices: [HTML] = []
    for (code, name) in [("en", "English"), ("de", "Deutsch")] {
      choices.append(
        """
        <li><input type="radio" id="language-\(code)" name="language" value="\(code)"\
        \(HTML.when(code == l10n.language, " checked"))>\
        <label for="language-\(code)" lang="\(code)">\(name)</label></li>
        """)
    }
    var paired: HTML = .empty
    if let browser {
      paired = """
        <section aria-labelledby="browser-heading"><h2 id="browser-heading">\(l10n("web.settings.browser"))</h2>\
        <p>\(l10n("web.settings.pairedAs", .string(browser.name), .string(LocalTime.minutes(browser.paired))))</p>\
        <p class="quiet">\(l10n("web.settings.unpair", .string(browser.name)))</p></section>
        """
    }
    let body: HTML = """
      <main id="list" class="single settings" aria-labelledby="settings-heading">\
      <h1 id="settings-heading">\(l10n("web.settings"))</h1>\
      <section aria-labelledby="language-heading"><h2 id="language-heading">\(l10n("web.language"))</h2>\
      <form class="language" method="post" action="/language">\
      <input type="hidden" name="csrf" value="\(csrf)"><input type="hidden" name="back" value="/settings">\
      <fieldset><legend class="sr">\(l10n("web.language"))</legend>\
      <ul class="choices">\(choices)</ul></fieldset>\
      <button type="submit" class="primary">\(l10n("web.language.apply"))</button></form></section>\
      \(syncSection())\(paired)</main>
      """
    return WebDocument(
      l10n: l10n, title: l10n("web.settings") + " · Docket", csrf: csrf, readOnly: readOnly,
      said: said, current: .settings, here: "/settings"
    ).render(body)
  }

  /// How the computer the page is served from syncs: through which remote, when it last did,
  /// whether the remote is encrypted; and, when it is encrypted and the computer has no key for
  /// it yet, a field for its passphrase.
  func syncSection() -> HTML {
    var lines: [HTML] = []
    guard let remote = sync.remote else {
      return """
        <section aria-labelledby="sync-heading"><h2 id="sync-heading">\(l10n("web.sync"))</h2>\
        <p class="quiet">\(l10n("web.sync.none"))</p></section>
        """
    }
    // A server's address without its password; a folder's path as it is.
    let shown: String
    if case .postgres = RemoteAddress(remote) {
      shown = RemoteAddress.redacted(remote)
    } else {
      shown = remote
    }
    lines.append("<p>\(l10n("web.sync.remote", .string(shown)))</p>")
    let encrypted = sync.encrypted || holdsKey
    lines.append(
      "<p>\(l10n(encrypted ? (holdsKey ? "web.sync.encrypted" : "web.sync.encryptedNoKey") : "web.sync.plain"))</p>"
    )
    if let last = sync.lastSync {
      lines.append(
        "<p class=\"quiet\">\(l10n("web.sync.last", .string(LocalTime.minutes(last))))</p>")
    }
    if let error = sync.lastError {
      lines.append("<p class=\"quiet\">\(l10n("web.sync.lastError", .string(error)))</p>")
    }
    var form: HTML = .empty
    if encrypted, !holdsKey, !readOnly {
      form = """
        <form class="passphrase" method="post" action="/sync/passphrase">\
        <input type="hidden" name="csrf" value="\(csrf)">\
        <label for="passphrase">\(l10n("web.sync.passphrase"))</label>\
        <input type="password" id="passphrase" name="passphrase" autocomplete="current-password" required>\
        <p class="quiet">\(l10n("web.sync.passphraseNote"))</p>\
        <p class="unreachable" role="status">\(l10n("web.sync.unreachable"))</p>\
        <button type="submit" class="primary">\(l10n("web.sync.open"))</button></form>
        """
    }
    return """
      <section aria-labelledby="sync-heading"><h2 id="sync-heading">\(l10n("web.sync"))</h2>\
      \(lines)\(form)</section>
      """
  }
}
