import DocketCore
import Foundation
import Localization

/// The tags page: every tag with its counts, renamed or deleted here, and new ones made.
struct TagsPage {
  var tags: [TagSummary]
  var l10n: Localizer
  var csrf: String
  var readOnly: Bool
  var said: String?
  /// The tag whose deletion is being confirmed.
  var confirming: UUID?
  /// A rename onto another tag's name, asking whether to merge the two.
  var merging: (source: Tag, target: Tag)?
  var error: String?
  var liveVersion: UInt64?

  func render() -> HTML {
    var rows: [HTML] = []
    for (index, summary) in tags.enumerated() {
      rows.append(row(summary, index: index))
    }
    let list: HTML =
      rows.isEmpty
      ? "<p class=\"quiet\">\(l10n("tui.noTags"))</p>" : "<ul class=\"tag-rows\">\(rows)</ul>"
    let problem: HTML =
      error.map { "<p class=\"problem\" role=\"alert\">\($0)</p>" } ?? .empty
    let create: HTML =
      readOnly
      ? .empty
      : """
      <form method="post" action="/tags" class="inline" data-inplace>\(fields())\
      <label for="new-tag">\(l10n("web.tags.new"))</label>\
      <input id="new-tag" name="name" required>\
      <button type="submit">\(l10n("web.tags.create"))</button></form>
      """
    let body: HTML = """
      <main id="list" class="single" aria-labelledby="tags-heading">\
      <h1 id="tags-heading">\(l10n("tui.tags"))</h1>\(problem)\(create)\(list)</main>
      """
    return WebDocument(
      l10n: l10n, title: l10n("tui.tags") + " · Docket", csrf: csrf, readOnly: readOnly,
      said: said, current: .tags, here: "/tags", liveVersion: liveVersion
    ).render(body)
  }

  func fields() -> HTML {
    "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\"><input type=\"hidden\" name=\"back\" value=\"/tags\">"
  }

  func row(_ summary: TagSummary, index: Int) -> HTML {
    let tag = summary.tag
    let id = tag.id.uuidString.lowercased()
    let counts = l10n("web.tags.counts", .integer(summary.open), .integer(summary.total))
    let link = WebLocation(filter: .tag(tag.id), showCompleted: true)
    guard !readOnly else {
      return
        "<li><a href=\"\(link.url)\">\(tag.name)</a> <span class=\"quiet\">\(counts)</span></li>"
    }
    if let merging, merging.source.id == tag.id {
      return """
        <li><form method="post" action="/tags/\(id)" class="confirm">\(fields())\
        <input type="hidden" name="name" value="\(merging.target.name)">\
        <input type="hidden" name="merge" value="1">\
        <p role="alert">\(l10n("web.tags.mergeQuestion", .string(tag.name), .string(merging.target.name)))</p>\
        <button type="submit">\(l10n("web.tags.merge"))</button> \
        <a class="button" href="/tags">\(l10n("web.form.cancel"))</a></form></li>
        """
    }
    if confirming == tag.id {
      return """
        <li><form method="post" action="/tags/\(id)/delete" class="confirm">\(fields())\
        <p>\(l10n("web.tags.deleteQuestion", .string(tag.name)))</p>\
        <button type="submit" class="danger">\(l10n("web.action.delete"))</button> \
        <a class="button" href="/tags">\(l10n("web.form.cancel"))</a></form></li>
        """
    }
    return """
      <li><a href="\(link.url)">\(tag.name)</a> <span class="quiet">\(counts)</span>\
      <form method="post" action="/tags/\(id)" class="inline" data-inplace>\(fields())\
      <label for="rename-\(index)">\(l10n("web.tags.renameLabel", .string(tag.name)))</label>\
      <input id="rename-\(index)" name="name" value="\(tag.name)" required>\
      <button type="submit">\(l10n("web.tags.rename"))</button></form>\
      <a class="button danger" href="/tags?confirm=\(id)">\(l10n("web.action.delete"))</a></li>
      """
  }
}
