import Database
import DocketCore
import DocketSync
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
    let reached = security.reached(request)
    if reached.secure, WebSecurity.keepsToHTTPS(host: reached.host) {
      response.headers.append(("Strict-Transport-Security", "max-age=86400"))
    }
    if response.header("Cache-Control") == nil {
      response.headers.append(("Cache-Control", "no-store"))
    }
    // Whole addresses: lynx stops at a relative one to warn, for seconds, on every change. The
    // host is one the server answers to (an answer to any other has no Location).
    if let index = response.headers.firstIndex(where: { $0.name == "Location" }),
      response.headers[index].value.hasPrefix("/"), security.hostIsAllowed(request),
      WebSecurity.isPlainHost(reached.host)
    {
      response.headers[index].value =
        (reached.secure ? "https://" : "http://") + reached.host + response.headers[index].value
    }
    return response
  }

  private func route(_ request: HTTPRequest) -> HTTPResponse {
    let l10n = localizer(for: request)
    guard security.hostIsAllowed(request) else {
      return problem(403, l10n, "web.refused.heading", "web.refused.host")
    }
    if WebAssets.serves(request.path) { return WebAssets.response(for: request.path) }
    if request.path == "/manifest.webmanifest" { return WebManifest.response(l10n) }
    let browser: (browser: PairedBrowser, renewed: Bool, cookie: String)?
    do {
      browser = try signedIn(request)
    } catch {
      // The database could not say: a failure, not a browser that is no longer paired.
      return failure(error, l10n)
    }
    if let token = request.queryValue("token") {
      // An address of an earlier start, kept by the browser's history: a paired browser just
      // goes on.
      guard security.tokenMatches(token) || browser != nil else {
        return problem(403, l10n, "web.refused.heading", "web.refused.token")
      }
      // The code leaves the address bar at once; the cookie keeps the browser paired.
      let rest = request.query.filter { $0.name != "token" }
      let query = URLText.query(rest.map { ($0.name, $0.value) })
      var headers = [("Location", Self.safeBack(request.path + (query.isEmpty ? "" : "?" + query)))]
      if browser == nil {
        guard let cookie = try? pair(request, l10n) else {
          return problem(500, l10n, "web.refused.heading", "web.pairingFailed")
        }
        headers.append(("Set-Cookie", cookie))
      }
      return HTTPResponse(status: 303, headers: headers)
    }
    guard let browser else {
      var refused = problem(403, l10n, "web.refused.heading", "web.refused.token")
      // A cookie that is no browser's (revoked): the service worker lets go of its copy. One
      // that is missing may be a link from another site, which a Strict cookie never goes with.
      if request.cookies[security.cookie] != nil {
        refused.headers.append(("X-Docket-Unpaired", "1"))
      }
      return refused
    }
    var response = answer(request, l10n, browser.browser)
    if browser.renewed {
      // Seen again after a while: the cookie starts its 400 days anew.
      response.headers.append(("Set-Cookie", browser.cookie))
    }
    return response
  }

  private func answer(_ request: HTTPRequest, _ l10n: Localizer, _ browser: PairedBrowser)
    -> HTTPResponse
  {
    switch request.method {
    case "GET", "HEAD":
      return get(request, l10n, browser)
    case "POST":
      if request.bodyRefused {
        return problem(400, l10n, "web.refused.heading", "web.refused.body")
      }
      guard security.changeIsAllowed(request) else {
        return problem(403, l10n, "web.refused.heading", "web.refused.csrf")
      }
      if request.path == "/language" { return chooseLanguage(request) }
      guard !readOnly else {
        // Said in a header too, for the page's changes made offline: they wait, and it says why.
        var refusal = problem(403, l10n, "web.refused.heading", "web.readOnly")
        refusal.headers.append((name: "X-Docket-Read-Only", value: "1"))
        return refusal
      }
      if request.path == "/changes" { return receiveChanges(request, from: browser) }
      return post(request, l10n, browser)
    default:
      return HTTPResponse(status: 405, headers: [("Allow", "GET, HEAD, POST")])
    }
  }

  // MARK: Pairing

  /// The paired browser the request comes from; nil when its cookie is missing, made up or
  /// revoked (a database that cannot be read throws). A browser seen again after a while is
  /// noted as seen, and `renewed` says so.
  private func signedIn(_ request: HTTPRequest) throws -> (
    browser: PairedBrowser, renewed: Bool, cookie: String
  )? {
    guard let credential = security.credential(request),
      let browser = try read({ try $0.pairedBrowser(credential) })
    else { return nil }
    let now = now()
    var renewed = false
    if abs(now.timeIntervalSince(browser.seen)) >= Connection.browserSeenGranularity {
      renewed = (try? database.write { try $0.noteBrowserSeen(browser.id, now: now) }) != nil
    }
    return (
      browser, renewed, security.pairingCookie(credential, secure: security.reached(request).secure)
    )
  }

  /// Pairs the browser of `request` as a new device of this database; the cookie that keeps it.
  private func pair(_ request: HTTPRequest, _ l10n: Localizer) throws -> String {
    let credential = BrowserCredential(id: makeID(), secret: WebSecurity.randomSecret())
    let name = BrowserName.of(userAgent: request.header("User-Agent")) {
      l10n("web.browserName", .string($0), .string($1))
    }
    try database.write { try $0.pairBrowser(credential, name: name, now: now()) }
    return security.pairingCookie(credential, secure: security.reached(request).secure)
  }

  // MARK: Reading

  private func get(_ request: HTTPRequest, _ l10n: Localizer, _ browser: PairedBrowser)
    -> HTTPResponse
  {
    let said = saidMessage(request, l10n)
    do {
      switch request.path {
      case "/" where request.queryValue("enter") != nil:
        // A search sent with Enter: what was typed besides plain words (tokens, exclusions)
        // joins the chips, as in the terminal app; the page is then the search's own address.
        let location = WebLocation(query: request.query)
        let field = location.search.submitted()
        // A chip the address could not carry stays text, so nothing typed is lost.
        let kept = Array(
          field.chips.filter { $0.utf8.count <= WebLocation.longestChip }.prefix(
            WebLocation.mostChips))
        let target = location.with {
          $0.chips = kept
          $0.query = (field.chips.filter { !kept.contains($0) } + [field.text])
            .filter { !$0.isEmpty }.joined(separator: " ")
        }
        return HTTPResponse(status: 303, headers: [("Location", target.url)])
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
        let tags = NaturalOrder.sorted(try read { try $0.tagSummaries() }) { $0.tag.name }
        let confirming = request.queryValue("confirm").flatMap { UUID(uuidString: $0) }
        return page(
          TagsPage(
            tags: tags, l10n: l10n, csrf: security.csrf, readOnly: readOnly, said: said,
            confirming: confirming, liveVersion: version
          ).render())
      case "/deleted":
        let version = live.version
        let issues = try read { try $0.recentlyDeletedIssues() }
        return page(
          DeletedPage(
            issues: issues, l10n: l10n, csrf: security.csrf, readOnly: readOnly, said: said,
            now: now(), liveVersion: version,
            confirming: request.queryValue("confirm").flatMap { UUID(uuidString: $0) }
          ).render())
      case "/conflicts":
        let version = live.version
        let conflicts = try read { try $0.conflicts() }
        return page(
          ConflictsPage(
            conflicts: conflicts, l10n: l10n, csrf: security.csrf, readOnly: readOnly,
            said: said, now: now(), liveVersion: version
          ).render())
      case "/awards":
        let version = live.version
        let counts = try read { try $0.awardCounts() }
        return page(
          AwardsPage(
            statuses: AwardStatus.all(for: counts), counts: counts, l10n: l10n,
            csrf: security.csrf, readOnly: readOnly, liveVersion: version
          ).render())
      case "/settings":
        return try settingsPage(l10n, browser: browser, said: said)
      case "/copy":
        let since = request.queryValue("since").flatMap { Int64($0) }
        let body = try read {
          try $0.browserCopy(since: since, device: browser.id.lowercasedText, now: now())
        }
        return HTTPResponse(
          status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
          body: .bytes(body))
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

  // MARK: Answers

  func changedRedirect(_ back: String, said: String) -> HTTPResponse {
    live.changed()
    return redirect(back, said: said)
  }

  /// Back to `target` (a path and query of this server), saying what happened.
  func redirect(_ target: String, said: String, extra: [(String, String)] = [])
    -> HTTPResponse
  {
    let query = URLText.query([("said", said)] + extra)
    let location = target + (target.contains("?") ? "&" : "?") + query
    return HTTPResponse(status: 303, headers: [("Location", location)])
  }

  /// The settings page, with how this computer syncs.
  func settingsPage(
    _ l10n: Localizer, browser: PairedBrowser?, said: String?, status: Int = 200
  ) throws -> HTTPResponse {
    let settings = try read { try $0.syncSettings() }
    return page(
      SettingsPage(
        l10n: l10n, csrf: security.csrf, readOnly: readOnly, browser: browser, said: said,
        sync: settings, holdsKey: SyncKeyFile.read(database: database.path) != nil
      ).render(), status: status)
  }

  /// Passphrases tried one at a time.
  static let unlocking = NSLock()

  func page(_ html: HTML, status: Int = 200) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/html; charset=utf-8")], text: html.text)
  }

  func problem(_ status: Int, _ l10n: Localizer, _ heading: String, _ message: String)
    -> HTTPResponse
  {
    page(
      ProblemPage(l10n: l10n, heading: l10n(heading), message: l10n(message)).render(),
      status: status)
  }

  func failure(_ error: any Error, _ l10n: Localizer) -> HTTPResponse {
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
    case "created", "saved", "completed", "reopened", "deleted", "restored", "gone", "unchanged",
      "tagCreated", "tagExists", "tagRenamed", "tagDeleted", "tagsMerged":
      return l10n("web.said.\(said)")
    case "used", "dismissed", "conflictGone", "purged", "unlocked", "wrongPassphrase":
      return l10n("web.said.\(said)")
    case "nothingToUndo": return l10n("undo.nothing")
    case "nothingToRedo": return l10n("redo.nothing")
    case "undone", "redone":
      // The words come from this device's steps, never from the address: the step just taken
      // back (or made again) is the newest the other way.
      let redone = said == "redone"
      guard
        let step = try? read({ db in
          try redone ? db.undoableSteps(limit: 1).first : db.redoableSteps(limit: 1).first
        })
      else { return l10n(redone ? "web.said.redone" : "web.said.undone") }
      let kept =
        request.queryValue("kept").flatMap { Int($0) }.map { max(0, min($0, 1_000_000)) } ?? 0
      var text = UndoMessages.report(
        UndoReport(isRedo: redone, summary: step.summary, kept: [], keptCount: 0, changes: 0), l10n)
      if kept > 0 { text += " " + l10n("undo.kept.some", .integer(kept)) }
      return text
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
