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

  func render() -> HTML {
    let heading = l10n("filter.deleted")
    let list: HTML =
      issues.isEmpty
      ? "<p class=\"quiet\">\(l10n("web.deleted.empty"))</p>"
      : "<ul class=\"deleted-rows\">\(issues.map(row))</ul>"
    let body: HTML = """
      <main id="list" class="single" aria-labelledby="deleted-heading">\
      <h1 id="deleted-heading">\(heading)</h1>\
      <p class="quiet">\(l10n("web.deleted.explain"))</p>\(list)\
      <p><a href="/">\(l10n("web.deleted.back"))</a></p></main>
      """
    return WebDocument(
      l10n: l10n, title: heading + " · Docket", csrf: csrf, readOnly: readOnly, said: said,
      current: .issues, here: "/deleted", liveVersion: liveVersion
    ).render(body)
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
      \(l10n("web.action.restore"))</button></form>
      """
    return """
      <li class="deleted"><span class="title">\(issue.title)</span> \
      <span class="meta"><span class="priority p-\(issue.priority.name)">\(l10n.name(of: issue.priority))</span> · \
      <time class="when" datetime="\(ISOTime.string(issue.deleted))">\(deleted)</time></span>\
      \(restore)</li>
      """
  }
}
