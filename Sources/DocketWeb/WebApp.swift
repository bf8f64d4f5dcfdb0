import Database
import DocketCore
import Foundation
import HTTPServer
import Localization

/// The web face of Docket: answers each request of `docket serve` with a page drawn from the
/// database, or makes the change a form asks for and sends the browser back to a page.
public final class WebApp: Sendable {
  let database: DatabaseQueue
  let security: WebSecurity
  let readOnly: Bool
  let now: @Sendable () -> Date
  let makeID: @Sendable () -> UUID
  public let live: LiveChanges
  /// Reading connections of their own for the requests' threads (nil: the queue's one reader,
  /// as for an in-memory database).
  let readers: ReadPool?
  /// Pages drawn for the data as it is (nil for an in-memory database, which changes without
  /// `data_version` telling).
  let cache: PageCache?

  public init(
    database: DatabaseQueue, security: WebSecurity, readOnly: Bool, live: LiveChanges,
    now: @escaping @Sendable () -> Date = { Date() },
    makeID: @escaping @Sendable () -> UUID = { UUID() }
  ) {
    self.database = database
    self.security = security
    self.readOnly = readOnly
    self.live = live
    self.now = now
    self.makeID = makeID
    let path = database.path
    readers =
      path.isEmpty || path == ":memory:"
      ? nil : ReadPool { try DocketDatabase.connection(path: path, now: now) }
    cache = readers == nil ? nil : PageCache()
  }

  /// Runs `body` on a snapshot of the database: on a reading connection of this thread's own
  /// when there is a file, so that requests read side by side.
  func read<Value: Sendable>(_ body: (Connection) throws -> Value) throws -> Value {
    if let readers { return try readers.read(body) }
    return try database.read(body)
  }

  /// The answer to `request`. Every answer carries the security headers.
  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    var response = route(request)
    response.headers += WebSecurity.headers
    if response.header("Cache-Control") == nil {
      response.headers.append(("Cache-Control", "no-store"))
    }
    return response
  }

  private func route(_ request: HTTPRequest) -> HTTPResponse {
    let l10n = localizer(for: request)
    guard security.hostIsAllowed(request) else {
      return problem(403, l10n, "web.refused.heading", "web.refused.host")
    }
    if request.path.hasPrefix("/static/") || request.path == "/favicon.ico" {
      return WebAssets.response(for: request.path)
    }
    if let token = request.queryValue("token") {
      guard security.tokenMatches(token) else {
        return problem(403, l10n, "web.refused.heading", "web.refused.token")
      }
      // The token leaves the address bar at once; the cookie keeps it.
      let rest = request.query.filter { $0.name != "token" }
      let query = URLText.query(rest.map { ($0.name, $0.value) })
      return HTTPResponse(
        status: 303,
        headers: [
          ("Location", Self.safeBack(request.path + (query.isEmpty ? "" : "?" + query))),
          ("Set-Cookie", security.signInCookie),
        ])
    }
    guard security.isSignedIn(request) else {
      return problem(403, l10n, "web.refused.heading", "web.refused.token")
    }
    switch request.method {
    case "GET", "HEAD":
      return get(request, l10n)
    case "POST":
      if request.bodyRefused {
        return problem(400, l10n, "web.refused.heading", "web.refused.body")
      }
      guard security.changeIsAllowed(request) else {
        return problem(403, l10n, "web.refused.heading", "web.refused.csrf")
      }
      if request.path == "/language" { return chooseLanguage(request) }
      guard !readOnly else {
        return problem(403, l10n, "web.refused.heading", "web.readOnly")
      }
      return post(request, l10n)
    default:
      return HTTPResponse(status: 405, headers: [("Allow", "GET, HEAD, POST")])
    }
  }

  // MARK: Reading

  private func get(_ request: HTTPRequest, _ l10n: Localizer) -> HTTPResponse {
    let said = saidMessage(request, l10n)
    do {
      switch request.path {
      case "/":
        // The version first: a change committed after it makes the page count as older.
        let version = live.currentVersion()
        let key = "\(l10n.language) \(URLText.query(request.query.map { ($0.name, $0.value) }))"
        let started = now()
        let location = WebLocation(query: request.query)
        let draw = { () throws -> PageCache.Page in
          let data = try self.read { db in
            try PageData.load(location, from: db, now: started, localizer: l10n)
          }
          let renderer = PageRenderer(
            data: data, l10n: l10n, csrf: self.security.csrf, readOnly: self.readOnly,
            said: said, liveVersion: version)
          return (data.selectedIsGone ? 404 : 200, Array(renderer.page().text.utf8))
        }
        let page =
          try cache?.page(key, version: version, now: started, draw: draw) ?? draw()
        return HTTPResponse(
          status: page.status, headers: [("Content-Type", "text/html; charset=utf-8")],
          body: .bytes(page.body))
      case "/tags":
        let version = live.version
        let tags = try read { try $0.tagSummaries() }
          .sorted { SortKey.fold($0.tag.name) < SortKey.fold($1.tag.name) }
        let confirming = request.queryValue("confirm").flatMap { UUID(uuidString: $0) }
        return page(
          TagsPage(
            tags: tags, l10n: l10n, csrf: security.csrf, readOnly: readOnly, said: said,
            confirming: confirming, liveVersion: version
          ).render())
      case "/awards":
        let version = live.version
        let counts = try read { try $0.awardCounts() }
        return page(
          AwardsPage(
            statuses: AwardStatus.all(for: counts), counts: counts, l10n: l10n,
            csrf: security.csrf, readOnly: readOnly, liveVersion: version
          ).render())
      case "/events":
        return HTTPResponse(
          status: 200,
          headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
          body: .stream(live.stream(since: request.queryValue("since").flatMap { UInt64($0) })))
      default:
        return problem(404, l10n, "web.notFound.heading", "web.notFound")
      }
    } catch {
      return failure(error, l10n)
    }
  }

  // MARK: Changing

  private func post(_ request: HTTPRequest, _ l10n: Localizer) -> HTTPResponse {
    let back = Self.safeBack(request.formValue("back"))
    let parts = request.path.split(separator: "/").map(String.init)
    do {
      switch parts.count {
      case 1 where parts[0] == "issues":
        return try create(request, back: back, l10n)
      case 2 where parts[0] == "issues":
        guard let id = UUID(uuidString: parts[1]) else { break }
        return try save(id, request, back: back, l10n)
      case 3 where parts[0] == "issues" && parts[2] == "complete":
        guard let id = UUID(uuidString: parts[1]) else { break }
        let completed = request.formValue("completed") == "1"
        let changed = try database.write { try $0.setCompleted(completed, issueIDs: [id]) }
        return changedRedirect(
          back, said: changed > 0 ? (completed ? "completed" : "reopened") : "unchanged")
      case 3 where parts[0] == "issues" && parts[2] == "delete":
        guard let id = UUID(uuidString: parts[1]) else { break }
        let deleted = try database.write { try $0.deleteIssues([id]) }
        return changedRedirect(back, said: deleted > 0 ? "deleted" : "gone")
      case 1 where parts[0] == "tags":
        let created = try database.write {
          try $0.createTag(named: request.formValue("name") ?? "", id: makeID())
        }
        return changedRedirect(back, said: created.created ? "tagCreated" : "tagExists")
      case 2 where parts[0] == "tags":
        guard let id = UUID(uuidString: parts[1]) else { break }
        try database.write { try $0.renameTag(id: id, to: request.formValue("name") ?? "") }
        return changedRedirect(back, said: "tagRenamed")
      case 3 where parts[0] == "tags" && parts[2] == "delete":
        guard let id = UUID(uuidString: parts[1]) else { break }
        let deleted = try database.write { try $0.deleteTag(id: id) }
        return changedRedirect(back, said: deleted ? "tagDeleted" : "unchanged")
      default:
        break
      }
      return problem(404, l10n, "web.notFound.heading", "web.notFound")
    } catch let error as TagError {
      let tags = (try? read { try $0.tagSummaries() }) ?? []
      let page = TagsPage(
        tags: tags.sorted { SortKey.fold($0.tag.name) < SortKey.fold($1.tag.name) }, l10n: l10n,
        csrf: security.csrf, readOnly: readOnly, said: nil, error: l10n.message(for: error))
      return self.page(page.render(), status: 422)
    } catch {
      return failure(error, l10n)
    }
  }

  private func create(_ request: HTTPRequest, back: String, _ l10n: Localizer) throws
    -> HTTPResponse
  {
    let form = IssueForm(request)
    do {
      let id = makeID()
      let issue = try database.write { db in
        let chosen = try db.fetchTags().filter { form.tagIDs.contains($0.id) }.map(\.name)
        return try db.createIssue(
          id: id, title: form.title, detail: form.detail, priority: form.priority,
          completed: form.completed, tagNames: chosen + form.newTagNames, now: now(),
          makeTagID: makeID)
      }
      live.changed()
      var location = WebLocation(query: Self.queryItems(of: back))
      location.issue = issue.id
      location.mode = .view
      location.pane = nil
      return redirect(location.url, said: "created")
    } catch IssueError.emptyTitle {
      return refusedForm(request, form, error: l10n("error.add.emptyTitle"), l10n)
    }
  }

  private func save(_ id: UUID, _ request: HTTPRequest, back: String, _ l10n: Localizer) throws
    -> HTTPResponse
  {
    let form = IssueForm(request)
    guard !form.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return refusedForm(request, form, error: l10n("error.add.emptyTitle"), l10n)
    }
    let outcome = try database.write { db -> EditOutcome in
      let tags = try db.fetchTags()
      func named(_ ids: [UUID]) -> [Tag] { tags.filter { ids.contains($0.id) } }
      var created: [Tag] = []
      for name in form.newTagNames {
        created.append(try db.createTag(named: name, id: makeID()).tag)
      }
      let base = Issue(
        id: id, title: request.formValue("base_title") ?? "",
        detail: IssueForm.lineEnds(request.formValue("base_detail") ?? ""),
        priority: Priority(name: request.formValue("base_priority") ?? "") ?? .low,
        completed: request.formValue("base_completed") == "1",
        created: Date(timeIntervalSince1970: 0),
        tags: named(request.formValues("base_tag").compactMap { UUID(uuidString: $0) }))
      var edited = base
      edited.title = form.title.trimmingCharacters(in: .whitespacesAndNewlines)
      edited.detail = form.detail
      edited.priority = form.priority
      edited.completed = form.completed
      edited.tags =
        named(Array(form.tagIDs)) + created.filter { tag in !form.tagIDs.contains(tag.id) }
      return try db.saveEdit(IssueEdit(from: base, to: edited))
    }
    guard outcome.issue != nil else { return redirect(back, said: "gone") }
    if !outcome.changed { return redirect(back, said: "unchanged") }
    live.changed()
    if !outcome.overwritten.isEmpty {
      return redirect(
        back, said: "overwritten",
        extra: [("fields", outcome.overwritten.map(\.rawValue).joined(separator: ","))])
    }
    return redirect(back, said: "saved")
  }

  /// The page again, with the form as it was sent and why it was refused.
  private func refusedForm(
    _ request: HTTPRequest, _ form: IssueForm, error: String, _ l10n: Localizer
  ) -> HTTPResponse {
    var location = WebLocation(query: Self.queryItems(of: Self.safeBack(request.formValue("back"))))
    let parts = request.path.split(separator: "/")
    if parts.count == 2, let id = UUID(uuidString: String(parts[1])) {
      location.issue = id
      location.mode = .edit
    } else {
      location.issue = nil
      location.mode = .new
    }
    let draft = FormDraft(
      title: form.title, detail: form.detail, priority: form.priority, completed: form.completed,
      tagIDs: form.tagIDs, newTags: request.formValue("new_tags") ?? "", error: error)
    do {
      let data = try read { db in
        try PageData.load(location, from: db, now: now(), localizer: l10n)
      }
      let renderer = PageRenderer(
        data: data, l10n: l10n, csrf: security.csrf, readOnly: readOnly, said: error, draft: draft,
        liveVersion: live.version)
      return page(renderer.page(), status: 422)
    } catch {
      return failure(error, l10n)
    }
  }

  private func chooseLanguage(_ request: HTTPRequest) -> HTTPResponse {
    let language = request.formValue("language") ?? ""
    let back = Self.safeBack(request.formValue("back"))
    guard DocketStrings.supportedLanguages.contains(language) else {
      return HTTPResponse(status: 303, headers: [("Location", back)])
    }
    return HTTPResponse(
      status: 303,
      headers: [("Location", back), ("Set-Cookie", security.languageCookie(language))])
  }

  // MARK: Answers

  private func changedRedirect(_ back: String, said: String) -> HTTPResponse {
    live.changed()
    return redirect(back, said: said)
  }

  /// Back to `target` (a path and query of this server), saying what happened.
  private func redirect(_ target: String, said: String, extra: [(String, String)] = [])
    -> HTTPResponse
  {
    let query = URLText.query([("said", said)] + extra)
    let location = target + (target.contains("?") ? "&" : "?") + query
    return HTTPResponse(status: 303, headers: [("Location", location)])
  }

  private func page(_ html: HTML, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/html; charset=utf-8")], text: html.text)
  }

  private func problem(_ status: Int, _ l10n: Localizer, _ heading: String, _ message: String)
    -> HTTPResponse
  {
    page(
      ProblemPage(l10n: l10n, heading: l10n(heading), message: l10n(message)).render(),
      status: status)
  }

  private func failure(_ error: any Error, _ l10n: Localizer) -> HTTPResponse {
    page(
      ProblemPage(
        l10n: l10n, heading: l10n("web.failed.heading"), message: l10n.message(for: error)
      )
      .render(), status: 500)
  }

  /// The words for a `said=` of the address: only the app's own messages, never text from it.
  private func saidMessage(_ request: HTTPRequest, _ l10n: Localizer) -> String? {
    guard let said = request.queryValue("said") else { return nil }
    switch said {
    case "created", "saved", "completed", "reopened", "deleted", "gone", "unchanged",
      "tagCreated", "tagExists", "tagRenamed", "tagDeleted":
      return l10n("web.said.\(said)")
    case "overwritten":
      let names = (request.queryValue("fields") ?? "").split(separator: ",")
        .compactMap { IssueField(rawValue: String($0)) }.map { l10n($0.nameKey) }
      return l10n("tui.announce.overwritten", .string(names.joined(separator: ", ")))
    default:
      return nil
    }
  }

  /// The language of the page: the switch's cookie, else the browser's Accept-Language.
  func localizer(for request: HTTPRequest) -> Localizer {
    if let chosen = request.cookies[WebSecurity.languageCookie],
      DocketStrings.supportedLanguages.contains(chosen)
    {
      return DocketStrings.localizer(language: chosen)
    }
    let language =
      request.header("Accept-Language").flatMap {
        LanguageDetection.language(acceptLanguage: $0, supported: DocketStrings.supportedLanguages)
      } ?? "en"
    return DocketStrings.localizer(language: language)
  }

  /// Where a form may send the browser afterwards: a path of this server, never another site.
  static func safeBack(_ value: String?) -> String {
    guard let value, value.hasPrefix("/"), !value.hasPrefix("//"),
      !value.contains("\\"),
      !value.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F })
    else { return "/" }
    return value
  }

  /// The decoded query of a path such as `/?filter=recent&q=a%20b`.
  static func queryItems(of path: String) -> [(name: String, value: String)] {
    guard let components = URLComponents(string: path) else { return [] }
    return (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
  }
}

/// The fields of the issue form as sent.
struct IssueForm {
  var title: String
  var detail: String
  var priority: Priority
  var completed: Bool
  var tagIDs: Set<UUID>
  var newTagNames: [String]

  init(_ request: HTTPRequest) {
    title = request.formValue("title") ?? ""
    detail = Self.lineEnds(request.formValue("detail") ?? "")
    priority = Priority(name: request.formValue("priority") ?? "") ?? .low
    completed = request.formValue("completed") == "1"
    tagIDs = Set(request.formValues("tag").compactMap { UUID(uuidString: $0) })
    newTagNames = (request.formValue("new_tags") ?? "").split(separator: ",")
      .compactMap { TagName.normalized(String($0)) }
  }

  /// Browsers send the line ends of a form's text as CR LF; Docket keeps LF.
  static func lineEnds(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
  }
}
