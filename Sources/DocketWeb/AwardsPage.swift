import DocketCore
import Foundation
import Localization

/// The awards page: each award, unlocked or not, in words as well as in colour.
struct AwardsPage {
  var statuses: [AwardStatus]
  var counts: AwardCounts
  var l10n: Localizer
  var csrf: String
  var readOnly: Bool
  var liveVersion: UInt64?

  func render() -> HTML {
    var items: [HTML] = []
    for status in statuses {
      let award = status.award
      let state = l10n(status.unlocked ? "web.awards.unlocked" : "web.awards.locked")
      let progress = min(counts.count(for: award.criterion), award.value)
      items.append(
        """
        <li class="award \(status.unlocked ? "unlocked" : "locked") c-\(award.criterion.color.rawValue)">\
        <span class="medal" aria-hidden="true">\(status.unlocked ? "★" : "☆")</span>\
        <h2>\(l10n.name(of: award))</h2><p>\(l10n.description(of: award))</p>\
        <p class="state"><strong>\(state)</strong> · \
        <progress max="\(award.value)" value="\(progress)" aria-label="\(l10n.name(of: award))"></progress> \
        \(l10n("web.awards.progress", .integer(progress), .integer(award.value)))</p></li>
        """)
    }
    let unlocked = statuses.filter(\.unlocked).count
    let body: HTML = """
      <main id="list" class="single" aria-labelledby="awards-heading">\
      <h1 id="awards-heading">\(l10n("tui.awards"))</h1>\
      <p>\(l10n("web.awards.summary", .integer(unlocked), .integer(statuses.count)))</p>\
      <ul class="awards">\(items)</ul></main>
      """
    return WebDocument(
      l10n: l10n, title: l10n("tui.awards") + " · Docket", csrf: csrf, readOnly: readOnly,
      said: nil, current: .awards, here: "/awards", liveVersion: liveVersion
    ).render(body)
  }
}
