import DocketCore
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
      \(paired)</main>
      """
    return WebDocument(
      l10n: l10n, title: l10n("web.settings") + " · Docket", csrf: csrf, readOnly: readOnly,
      said: said, current: .settings, here: "/settings"
    ).render(body)
  }
}
