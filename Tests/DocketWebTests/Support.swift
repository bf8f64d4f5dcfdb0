import Database
import DocketCore
import DocketTestSupport
import Foundation
import HTTPServer
import Locking

@testable import DocketWeb

/// A web app on an in-memory database with a fixed clock and ids, and a browser's way to ask it
/// things: signed in, from its own host and origin, unless a test says otherwise.
struct WebTester: IssueFixtures {
  static let token = "token-of-this-start"
  static let csrf = "csrf-of-this-start"
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  /// The browser every request comes from unless a test says otherwise: paired before the test.
  static let browser = BrowserCredential(
    id: UUID(uuidString: "0000b000-0000-4000-8000-000000000001")!,
    secret: String(repeating: "5a", count: 32))

  let queue: DatabaseQueue
  let uuids = TestUUIDs()
  let app: WebApp

  init(
    readOnly: Bool = false, now: @escaping @Sendable () -> Date = { WebTester.now },
    databaseAt path: String? = nil
  ) throws {
    queue =
      try path.map { try DocketDatabase.open(path: $0, now: { WebTester.now }) }
      ?? DocketDatabase.inMemory(now: { WebTester.now })
    let uuids = self.uuids
    app = WebApp(
      database: queue,
      security: WebSecurity(
        token: Self.token, csrf: Self.csrf,
        allowedHosts: ["localhost", "127.0.0.1", "tracker.test"], usesTLS: false),
      readOnly: readOnly, live: LiveChanges(path: nil), now: now,
      makeID: { uuids.make() })
    try queue.write { try $0.pairBrowser(Self.browser, name: "Test browser", now: Self.now) }
  }

  var signedIn: [String: String] { ["docket_token": Self.browser.cookie] }

  func get(
    _ path: String, _ query: [(String, String)] = [], headers: [String: String] = [:],
    cookies: [String: String]? = nil, fromLoopback: Bool = false
  ) -> HTTPResponse {
    app.handle(
      HTTPRequest(
        method: "GET", path: path, query: query.map { (name: $0.0, value: $0.1) },
        headers: ["host": "localhost:8080"].merging(headers) { $1 },
        cookies: cookies ?? signedIn, fromLoopback: fromLoopback))
  }

  /// A form posted as a browser posts it from the page, with `Origin` unless `withoutOrigin`
  /// (as a text browser posts).
  func post(
    _ path: String, _ form: [(String, String)], headers: [String: String] = [:],
    csrf: String? = WebTester.csrf, cookies: [String: String]? = nil, withoutOrigin: Bool = false,
    fromLoopback: Bool = false
  ) -> HTTPResponse {
    var fields = form
    if let csrf { fields.append(("csrf", csrf)) }
    var sent = ["host": "localhost:8080", "origin": "http://localhost:8080"]
    if withoutOrigin { sent["origin"] = nil }
    return app.handle(
      HTTPRequest(
        method: "POST", path: path, headers: sent.merging(headers) { $1 },
        cookies: cookies ?? signedIn, form: fields.map { (name: $0.0, value: $0.1) },
        fromLoopback: fromLoopback))
  }

  /// The page of the tracker at a location.
  func page(_ location: WebLocation) -> String {
    get("/", location.parameters).text
  }

  static let defaultAge: TimeInterval = 3600
  var now: Date { Self.now }
  func nextID() -> UUID { uuids.make() }

  func count() throws -> Int {
    try queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) ?? 0 }
  }
}

extension UUID {
  var lower: String { uuidString.lowercased() }
}

extension String {
  /// How often `part` occurs.
  func occurrences(of part: String) -> Int { components(separatedBy: part).count - 1 }
}

extension HTTPResponse {
  /// Where a redirect sends the browser, on the tester's own server (`http://localhost:8080`).
  var location: String? {
    guard let whole = header("Location") else { return nil }
    let own = "http://localhost:8080"
    return whole.hasPrefix(own + "/") ? String(whole.dropFirst(own.count)) : whole
  }
}
