import DocketCore
import DocketSync
import Foundation
import Localization

/// The recently deleted page: each issue deleted in the last 30 days, the latest delete first,
/// with who deleted it and a Restore that brings it back on every device.
struct DeletedPage {
  var issues: [DeletedIssue]
  var l10n: Localizer
  var csrf: String
  var readOnly: Bool
  var said: String?
  var now: Date
  var liveVersion: UInt64?
  /// The issue whose "Delete now" asks first (`/deleted?confirm=ID`).
  var confirming: UUID? = nil

  func render() -> HTML {
    let heading = l10n("filter.deleted")
    let list: HTML =
      issues.isEmpty
      ? "<p class=\"quiet\">\(l10n("web.deleted.empty"))</p>"
      : "<ul class=\"deleted-rows\">\(issues.map(row))</ul>"
    let body: HTML = """
      <main id="list" class="single" aria-labelledby="deleted-heading">\
      <h1 id="deleted-heading">\(heading)</h1>\
      <p class="quiet">\(l10n("web.deleted.explain"))</p>\(confirmation())\(list)\
      <p><a href="/">\(l10n("web.deleted.back"))</a></p></main>
      """
    return WebDocument(
      l10n: l10n, title: heading + " · Docket", csrf: csrf, readOnly: readOnly, said: said,
      current: .issues, here: "/deleted", liveVersion: liveVersion
    ).render(body)
  }

  /// The question "Delete now" asks, with the button that deletes for good and one that keeps.
  func confirmation() -> HTML {
    guard !readOnly, let id = confirming, let issue = issues.first(where: { $0.id == id }) else {
      return .empty
    }
    return """
      <form method="post" action="/issues/\(id.uuidString.lowercased())/purge" class="confirm" \
      role="alertdialog" aria-labelledby="purge-question">\
      <input type="hidden" name="csrf" value="\(csrf)">\
      <input type="hidden" name="back" value="/deleted">\
      <p id="purge-question">\(l10n("web.deleted.purgeQuestion", .string(issue.title)))</p>\
      <button type="submit" class="danger">\(l10n("web.deleted.purge"))</button> \
      <a class="button" href="/deleted">\(l10n("web.deleted.keep"))</a></form>
      """
  }

  func row(_ issue: DeletedIssue) -> HTML {
    let id = issue.id.uuidString.lowercased()
    let when = l10n.relativeTime(issue.deleted, now: now)
    let by =
      issue.deletedHere || issue.deletedBy.isEmpty ? l10n("deleted.byThisDevice") : issue.deletedBy
    let deleted = l10n("web.deleted.when", .string(when), .string(by))
    let restore: HTML =
      readOnly
      ? .empty
      : """
      <form method="post" action="/issues/\(id)/restore" class="inline" data-inplace>\
      <input type="hidden" name="csrf" value="\(csrf)">\
      <input type="hidden" name="back" value="/deleted">\
      <button type="submit" aria-label="\(l10n("web.deleted.restoreNamed", .string(issue.title)))">\
      \(l10n("web.action.restore"))</button>\
      <a class="button" href="/deleted?confirm=\(id)" \
      aria-label="\(l10n("web.deleted.purgeNamed", .string(issue.title)))">\(l10n("web.deleted.purgeShort"))</a></form>
      """
    return """
      <li class="deleted"><span class="title">\(issue.title)</span> \
      <span class="meta"><span class="priority p-\(issue.priority.name)">\(l10n.name(of: issue.priority))</span> · \
      <time class="when" datetime="\(ISOTime.string(issue.deleted))">\(deleted)</time></span>\
      \(restore)</li>
      """
  }
}
