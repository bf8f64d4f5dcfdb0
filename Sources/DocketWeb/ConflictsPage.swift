import Database
import DocketCore
import DocketSync
import Foundation
import Localization

/// The conflicts page: each value that lost a merge beside the value kept, who made each and
/// when, with "Use this value" (an edit, which syncs) and "Dismiss" (on every device).
struct ConflictsPage {
  var conflicts: [Conflict]
  var l10n: Localizer
  var csrf: String
  var readOnly: Bool
  var said: String?
  var now: Date
  var liveVersion: UInt64?

  func render() -> HTML {
    let heading = l10n("filter.conflicts")
    let list: HTML =
      conflicts.isEmpty
      ? "<p class=\"quiet\">\(l10n("conflicts.empty"))</p>"
      : ConflictRows(l10n: l10n, csrf: csrf, readOnly: readOnly, now: now, back: "/conflicts")
        .list(conflicts)
    let dismissAll: HTML =
      readOnly || conflicts.count < 2
      ? .empty
      : """
      <form method="post" action="/conflicts/dismiss" class="inline" data-inplace>\
      <input type="hidden" name="csrf" value="\(csrf)">\
      <input type="hidden" name="back" value="/conflicts">\
      <button type="submit">\(l10n("web.conflicts.dismissAll"))</button></form>
      """
    let body: HTML = """
      <main id="list" class="single" aria-labelledby="conflicts-heading">\
      <h1 id="conflicts-heading">\(heading)</h1>\
      <p class="quiet">\(l10n("web.conflicts.explain"))</p>\(list)\(dismissAll)\
      <p><a href="/">\(l10n("web.deleted.back"))</a></p></main>
      """
    return WebDocument(
      l10n: l10n, title: heading + " · Docket", csrf: csrf, readOnly: readOnly, said: said,
      current: .issues, here: "/conflicts", liveVersion: liveVersion
    ).render(body)
  }

}

/// Conflicts as the page and an issue's detail list them: each lost value beside the kept one,
/// who made each and when, with "Use this value" and "Dismiss" (unless read-only).
struct ConflictRows {
  var l10n: Localizer
  var csrf: String
  var readOnly: Bool
  var now: Date
  /// Where a use or dismissal goes back to.
  var back: String
  /// Whether the issue's title leads each row (not in its own detail).
  var namesIssue = true

  func list(_ conflicts: [Conflict]) -> HTML {
    "<ul class=\"conflict-rows\">\(conflicts.map(row))</ul>"
  }

  func side(_ value: DatabaseValue, _ conflict: Conflict, by: String, here: Bool, at: Date)
    -> HTML
  {
    let who = l10n(
      "web.conflicts.by", .string(UndoMessages.device(by, here: here, after: true, l10n)),
      .string(l10n.relativeTime(at, now: now)))
    return """
      <span class="value">\(UndoMessages.value(value, of: conflict, l10n))</span> \
      <time class="when" datetime="\(ISOTime.string(at))">\(who)</time>
      """
  }

  func row(_ conflict: Conflict) -> HTML {
    let id = String(conflict.id)
    let issue = conflict.issueID.uuidString.lowercased()
    let field = UndoMessages.field(conflict, l10n)
    func action(_ path: String, _ label: String, _ named: String) -> HTML {
      """
      <form method="post" action="/conflicts/\(id)/\(path)" class="inline" data-inplace>\
      <input type="hidden" name="csrf" value="\(csrf)">\
      <input type="hidden" name="back" value="\(back)">\
      <button type="submit" aria-label="\(named)">\(label)</button></form>
      """
    }
    let actions: HTML =
      readOnly
      ? .empty
      : """
      <span class="actions">\
      \(action("use", l10n("web.conflicts.use"), l10n("web.conflicts.useNamed", .string(field), .string(conflict.title))))\
      \(action("dismiss", l10n("web.conflicts.dismiss"), l10n("web.conflicts.dismissNamed", .string(field), .string(conflict.title))))\
      </span>
      """
    return """
      <li class="conflict">\(namesIssue ? "<a class=\"title\" href=\"/?issue=\(issue)\">\(conflict.title)</a> " as HTML : .empty)\
      <span class="field">\(field)</span>\
      <dl><dt>\(l10n("web.conflicts.kept"))</dt><dd>\(side(conflict.kept, conflict, by: conflict.keptBy, here: conflict.keptHere, at: conflict.keptAt))</dd>\
      <dt>\(l10n("web.conflicts.lost"))</dt><dd>\(side(conflict.lost, conflict, by: conflict.lostBy, here: conflict.lostHere, at: conflict.lostAt))</dd></dl>\
      \(actions)</li>
      """
  }
}
