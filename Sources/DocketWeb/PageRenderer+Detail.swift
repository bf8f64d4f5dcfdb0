import DocketCore
import DocketSync
import Foundation
import Localization

/// The detail pane: the chosen issue, its edit form, the form of a new one, or a prompt.
extension PageRenderer {
  func detailPane() -> HTML {
    let back = location.with {
      $0.issue = nil
      $0.mode = .view
      $0.pane = .list
    }
    let backLink: HTML =
      "<a class=\"phone-only button\" href=\"\(back.url)\" data-key=\"Escape\">\(l10n("web.back"))</a>"
    let content: HTML
    switch location.mode {
    case .new:
      content = readOnly ? readOnlyNote() : issueForm(nil)
    case .edit, .delete, .view:
      if let issue = data.selected {
        switch location.mode {
        case .edit: content = readOnly ? readOnlyNote() : issueForm(issue)
        case .delete: content = readOnly ? readOnlyNote() : deleteConfirmation(issue)
        default: content = issueView(issue)
        }
      } else if data.selectedIsGone {
        content =
          "<h2 id=\"detail-heading\" tabindex=\"-1\">\(l10n("tui.detail"))</h2><p class=\"problem\">\(l10n("web.issueGone"))</p>"
      } else {
        content =
          "<h2 id=\"detail-heading\" tabindex=\"-1\">\(l10n("tui.detail"))</h2><p class=\"quiet\">\(l10n("web.detail.none"))</p>"
      }
    }
    return """
      <section id="detail" class="pane" aria-labelledby="detail-heading">\
      <div class="pane-head">\(backLink)</div>\(content)</section>
      """
  }

  func readOnlyNote() -> HTML {
    "<h2 id=\"detail-heading\" tabindex=\"-1\">\(l10n("tui.detail"))</h2><p class=\"problem\">\(l10n("web.readOnly"))</p>"
  }

  func issueView(_ issue: Issue) -> HTML {
    let status = l10n(issue.completed ? "web.mark.completed" : "web.mark.open")
    var tags: [HTML] = issue.tags.map { tag in
      let link = WebLocation(filter: .tag(tag.id))
      return "<li><a class=\"tag\" href=\"\(link.url)\">\(tag.name)</a></li>"
    }
    if tags.isEmpty { tags = ["<li class=\"quiet\">\(l10n("web.detail.noTags"))</li>"] }
    let detail: HTML =
      issue.detail.isEmpty
      ? "<p class=\"quiet\">\(l10n("web.detail.noDetail"))</p>"
      : "<div class=\"text\">\(issue.detail)</div>"
    var dates: HTML =
      "<dt>\(l10n("web.detail.created"))</dt><dd><time datetime=\"\(ISOTime.string(issue.created))\">\(l10n.relativeTime(issue.created, now: data.now))</time></dd>"
    if let modified = issue.modified {
      dates +=
        "<dt>\(l10n("web.detail.modified"))</dt><dd><time datetime=\"\(ISOTime.string(modified))\">\(l10n.relativeTime(modified, now: data.now))</time></dd>"
    }
    return """
      <article class="issue-detail"><h2 id="detail-heading" tabindex="-1">\(issue.title)</h2>\
      <dl class="facts"><dt>\(l10n("web.form.status"))</dt><dd class="\(issue.completed ? "done" : "open")">\
      \(issue.completed ? "✓ " : "○ ")\(status)</dd>\
      <dt>\(l10n("web.form.priority"))</dt><dd class="priority p-\(issue.priority.name)">\(l10n.name(of: issue.priority))</dd>\
      <dt>\(l10n("web.detail.reference"))</dt><dd><code>\(data.reference(issue.id))</code></dd>\(dates)</dl>\
      <h3>\(l10n("tui.tags"))</h3><ul class="tags">\(tags)</ul>\
      <h3>\(l10n("tui.field.detail"))</h3>\(detail)\(readOnly ? .empty : actions(issue))\
      \(conflictsSection())\(historySection())</article>
      """
  }

  func actions(_ issue: Issue) -> HTML {
    let edit = location.with {
      $0.mode = .edit
      $0.pane = nil
    }
    let delete = location.with {
      $0.mode = .delete
      $0.pane = nil
    }
    let completeLabel = l10n(issue.completed ? "web.action.reopen" : "web.action.complete")
    return """
      <div class="actions">\
      <a class="button" href="\(edit.url)" data-key="e">\(l10n("web.action.edit"))</a>\
      <form method="post" action="/issues/\(issue.id.uuidString.lowercased())/complete" data-inplace>\
      \(postFields())<input type="hidden" name="completed" value="\(issue.completed ? "0" : "1")">\
      <button type="submit" data-key="x">\(completeLabel)</button></form>\
      <a class="button danger" href="\(delete.url)" data-key="d">\(l10n("web.action.delete"))</a></div>
      """
  }

  /// The issue's values that lost a merge, each beside the one kept, to use or dismiss here.
  func conflictsSection() -> HTML {
    guard !data.conflicts.isEmpty else { return .empty }
    let rows = ConflictRows(
      l10n: l10n, csrf: csrf, readOnly: readOnly, now: data.now, back: location.url,
      namesIssue: false)
    return """
      <section class="conflicts" aria-labelledby="conflicts-heading">\
      <h3 id="conflicts-heading">\(l10n("filter.conflicts")) · \(data.conflicts.count)</h3>\
      \(rows.list(data.conflicts))</section>
      """
  }

  func historySection() -> HTML {
    guard !data.history.isEmpty else {
      return
        "<h3>\(l10n("web.detail.history"))</h3><p class=\"quiet\">\(l10n("web.detail.noHistory"))</p>"
    }
    var rows: [HTML] = []
    for entry in data.history.reversed().prefix(100) {
      let when = l10n.relativeTime(entry.when, now: data.now)
      rows.append(
        "<li class=\"\(entry.lost ? "lost" : "kept")\"><time datetime=\"\(ISOTime.string(entry.when))\">\(when)</time> \(SyncMessages.line(entry, l10n))</li>"
      )
    }
    return """
      <details class="history"><summary><h3>\(l10n("web.detail.history"))</h3></summary>\
      <ol>\(rows)</ol></details>
      """
  }

  func deleteConfirmation(_ issue: Issue) -> HTML {
    let cancel = location.with { $0.mode = .view }
    let afterwards = location.with {
      $0.issue = nil
      $0.mode = .view
      $0.pane = nil
    }
    return """
      <h2 id="detail-heading" tabindex="-1">\(issue.title)</h2>\
      <form method="post" action="/issues/\(issue.id.uuidString.lowercased())/delete" class="confirm">\
      \(postFields(back: afterwards))\
      <p>\(l10n("web.delete.question"))</p>\
      <button type="submit" class="danger">\(l10n("web.action.delete"))</button> \
      <a class="button" href="\(cancel.url)" data-key="Escape">\(l10n("web.form.cancel"))</a></form>
      """
  }

  /// The hidden fields every change carries: the CSRF token and where to go afterwards.
  func postFields(back: WebLocation? = nil) -> HTML {
    let target = back ?? location.with { $0.mode = .view }
    return """
      <input type="hidden" name="csrf" value="\(csrf)"><input type="hidden" name="back" value="\(target.url)">
      """
  }

  /// The form that edits `issue`, or makes a new one when it is nil.
  func issueForm(_ issue: Issue?) -> HTML {
    let values =
      draft
      ?? FormDraft(
        title: issue?.title ?? "", detail: issue?.detail ?? "", priority: issue?.priority ?? .low,
        completed: issue?.completed ?? false, tagIDs: Set(issue?.tags.map(\.id) ?? []),
        newTags: "", error: "")
    let action = issue.map { "/issues/\($0.id.uuidString.lowercased())" } ?? "/issues"
    var priorities: [HTML] = []
    for priority in Priority.allCases {
      priorities.append(
        "<option value=\"\(priority.name)\"\(HTML.when(priority == values.priority, " selected"))>\(l10n.name(of: priority))</option>"
      )
    }
    var tagBoxes: [HTML] = []
    for (index, tag) in data.allTags.enumerated() {
      tagBoxes.append(
        """
        <li><input type="checkbox" id="tag-\(index)" name="tag" value="\(tag.id.uuidString.lowercased())"\
        \(HTML.when(values.tagIDs.contains(tag.id), " checked"))>\
        <label for="tag-\(index)">\(tag.name)</label></li>
        """)
    }
    var base: HTML = .empty
    if let issue {
      // What the form started from: saving writes only what changed here, and names what
      // changed elsewhere meanwhile.
      base = """
        <input type="hidden" name="base_title" value="\(issue.title)">\
        <input type="hidden" name="base_detail" value="\(issue.detail)">\
        <input type="hidden" name="base_priority" value="\(issue.priority.name)">\
        <input type="hidden" name="base_completed" value="\(issue.completed ? "1" : "0")">
        """
      for tag in issue.tags {
        base +=
          "<input type=\"hidden\" name=\"base_tag\" value=\"\(tag.id.uuidString.lowercased())\">"
      }
    }
    let error: HTML =
      values.error.isEmpty
      ? .empty : "<p class=\"problem\" role=\"alert\" id=\"form-error\">\(values.error)</p>"
    let cancel =
      issue == nil
      ? location.with {
        $0.mode = .view
        $0.pane = nil
      } : location.with { $0.mode = .view }
    let back =
      issue == nil ? location.with { $0.mode = .view } : location.with { $0.mode = .view }
    let heading = issue == nil ? l10n("web.new") : l10n("web.edit.heading")
    // The title is not `required`: an empty one is refused by the rule every face keeps, in the
    // app's words and language, not in a bubble of the browser's.
    return """
      <h2 id="detail-heading" tabindex="-1">\(heading)</h2>\(error)\
      <form method="post" action="\(action)" class="issue-form" data-inplace>\(postFields(back: back))\(base)\
      <p><label for="f-title">\(l10n("web.form.title"))</label>\
      <input id="f-title" name="title" value="\(values.title)"\
      \(HTML.when(!values.error.isEmpty, " aria-invalid=\"true\" aria-describedby=\"form-error\""))></p>\
      <p><label for="f-detail">\(l10n("web.form.detail"))</label>\
      <textarea id="f-detail" name="detail" rows="8">\n\(values.detail)</textarea></p>\
      <p><label for="f-priority">\(l10n("web.form.priority"))</label>\
      <select id="f-priority" name="priority">\(priorities)</select></p>\
      <p class="check"><input type="checkbox" id="f-completed" name="completed" value="1"\
      \(HTML.when(values.completed, " checked"))><label for="f-completed">\(l10n("web.form.completed"))</label></p>\
      \(tagBoxes.isEmpty ? HTML.empty : "<fieldset><legend>\(l10n("tui.tags"))</legend><ul class=\"tag-choices\">\(tagBoxes)</ul></fieldset>")\
      <p><label for="f-new-tags">\(l10n("web.form.newTags"))</label>\
      <input id="f-new-tags" name="new_tags" value="\(values.newTags)"></p>\
      <p class="actions"><button type="submit" class="primary">\(l10n(issue == nil ? "web.form.create" : "web.form.save"))</button> \
      <a class="button" href="\(cancel.url)" data-key="Escape">\(l10n("web.form.cancel"))</a></p></form>
      """
  }
}
