import DocketCore
import DocketWeb
import Foundation
import HTTPServer
import Testing

/// Each of the rules of SPEC §13's "Safe by default", refused by name and changing nothing.
@Suite struct SecurityTests {
  @Test func withoutTheTokenNothingIsShown() throws {
    let web = try WebTester()
    try web.issue("Secret plans")
    for cookies in [[:], ["docket_token": "guess"], ["docket_token": WebTester.token + "x"]] {
      let answer = web.get("/", cookies: cookies)
      #expect(answer.status == 403)
      #expect(!answer.text.contains("Secret plans"))
    }
    #expect(web.get("/", [("token", "wrong")], cookies: [:]).status == 403)
  }

  @Test func theTokenBecomesAStrictHttpOnlyCookieAndLeavesTheAddress() throws {
    let web = try WebTester()
    let answer = web.get("/", [("token", WebTester.token), ("filter", "recent")], cookies: [:])
    #expect(answer.status == 303)
    #expect(answer.header("Location") == "/?filter=recent")
    #expect(
      answer.header("Set-Cookie")
        == "docket_token=\(WebTester.token); Path=/; HttpOnly; SameSite=Strict")
  }

  @Test func aForeignHostIsRefusedEvenWithTheCookie() throws {
    let web = try WebTester()
    try web.issue("Secret plans")
    for host in ["evil.example", "evil.example:8080", "localhost.evil.example", ""] {
      let answer = web.get("/", headers: ["host": host])
      #expect(answer.status == 403, "\(host)")
      #expect(!answer.text.contains("Secret plans"))
    }
    #expect(web.get("/", headers: ["host": "127.0.0.1:8080"]).status == 200)
    #expect(WebSecurity.hosts(for: "127.0.0.1", extra: ["Tracker.LAN"]).contains("tracker.lan"))
  }

  @Test func aChangeWithoutTheCSRFTokenOrFromAnotherOriginChangesNothing() throws {
    let web = try WebTester()
    let issue = try web.issue("Keep")
    let attempts: [HTTPResponse] = [
      web.post("/issues/\(issue.id.lower)/delete", [("back", "/")], csrf: nil),
      web.post("/issues/\(issue.id.lower)/delete", [("back", "/")], csrf: "forged"),
      web.post(
        "/issues/\(issue.id.lower)/delete", [("back", "/")],
        headers: ["origin": "http://evil.example"]),
      web.post(
        "/issues/\(issue.id.lower)/delete", [("back", "/")], headers: ["origin": "null"]),
      web.post("/issues", [("title", "Planted"), ("back", "/")], csrf: nil),
    ]
    for answer in attempts {
      #expect(answer.status == 403)
      #expect(answer.text.contains("did not come from one of this server"))
    }
    #expect(try web.stored(issue.id) != nil)
    #expect(try web.count() == 1)
  }

  /// A text browser sends no `Origin`: a `Referer` on this server, or the browser's word that the
  /// request is its own site's, stands in for it; a referrer elsewhere, or nothing, does not.
  @Test func aChangeWithoutAnOriginIsJudgedByWhereItCameFrom() throws {
    let web = try WebTester()
    let refused: [[String: String]] = [
      [:], ["referer": "http://evil.example/"],
      ["referer": "http://localhost:8080.evil.example/"], ["referer": "https://localhost:8080/"],
      ["referer": "http://localhost:80800/"], ["sec-fetch-site": "cross-site"],
      ["sec-fetch-site": "same-site"], ["referer": "http://localhost:8080@evil.example/"],
      ["sec-fetch-site": "same-origin", "origin": "http://evil.example"],
    ]
    for headers in refused {
      let answer = web.post(
        "/issues", [("title", "Planted"), ("back", "/")], headers: headers, withoutOrigin: true)
      #expect(answer.status == 403, "\(headers)")
    }
    #expect(try web.count() == 0)
    let accepted: [[String: String]] = [
      ["referer": "http://localhost:8080/?filter=all"], ["referer": "http://LOCALHOST:8080"],
      ["sec-fetch-site": "same-origin"],
    ]
    for (index, headers) in accepted.enumerated() {
      let answer = web.post(
        "/issues", [("title", "Typed in w3m"), ("back", "/")], headers: headers,
        withoutOrigin: true)
      #expect(answer.status == 303, "\(headers)")
      #expect(try web.count() == index + 1)
    }
    // The token is still needed.
    #expect(
      web.post(
        "/issues", [("title", "Planted"), ("back", "/")],
        headers: ["referer": "http://localhost:8080/"], csrf: nil, withoutOrigin: true
      ).status == 403)
  }

  @Test func readOnlyRefusesEveryChangeAndOffersNone() throws {
    let web = try WebTester(readOnly: true)
    let issue = try web.issue("Look only")
    let page = web.page(WebLocation(issue: issue.id))
    #expect(page.contains("Read-only"))
    #expect(!page.contains("action=\"/issues"))
    #expect(!page.contains("New issue</a>"))
    #expect(web.page(WebLocation(issue: issue.id, mode: .edit)).contains("does not accept changes"))
    for (path, form) in [
      ("/issues", [("title", "No")]), ("/issues/\(issue.id.lower)", [("title", "No")]),
      ("/issues/\(issue.id.lower)/complete", [("completed", "1")]),
      ("/issues/\(issue.id.lower)/delete", []), ("/tags", [("name", "No")]),
    ] {
      #expect(web.post(path, form + [("back", "/")]).status == 403, "\(path)")
    }
    #expect(try web.stored(issue.id) == issue)
    #expect(try web.count() == 1)
    #expect(try web.queue.read { try $0.fetchTags() }.isEmpty)
    // The language is the browser's own choice, not a change to the tracker.
    #expect(web.post("/language", [("language", "de"), ("back", "/")]).status == 303)
  }

  @Test func everyAnswerCarriesTheContentSecurityPolicy() throws {
    let web = try WebTester()
    let answers = [
      web.get("/"), web.get("/tags"), web.get("/awards"), web.get("/static/app.js"),
      web.get("/nowhere"), web.get("/", cookies: [:]), web.get("/", headers: ["host": "evil"]),
      web.post("/issues", [("title", "x")], csrf: nil),
    ]
    for answer in answers {
      let policy = try #require(answer.header("Content-Security-Policy"))
      #expect(policy.contains("default-src 'none'"))
      #expect(policy.contains("script-src 'self'"))
      #expect(!policy.contains("unsafe-inline"))
      #expect(answer.header("X-Content-Type-Options") == "nosniff")
      #expect(answer.header("Referrer-Policy") == "same-origin")
      // Without TLS there is no https to keep to.
      #expect(answer.header("Strict-Transport-Security") == nil)
    }
    for (host, keeps) in [
      ("tracker.lan:8443", true), ("Box.Example", true), ("localhost:8443", false),
      ("app.localhost", false), ("127.0.0.1:8443", false), ("[::1]:8443", false), ("", false),
    ] {
      #expect(WebSecurity.keepsToHTTPS(host: host) == keeps, "\(host)")
    }
    // No page holds a script of its own or an inline handler.
    let html = web.get("/").text
    #expect(html.occurrences(of: "<script") == 1)
    #expect(html.contains("<script src=\"/static/app.js\" defer></script>"))
    #expect(!html.contains(" onclick=") && !html.contains(" style="))
  }

  @Test func aFormCanOnlySendTheBrowserBackToThisServer() throws {
    let web = try WebTester()
    for back in [
      "//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/a b",
    ] {
      let answer = web.post("/tags", [("name", "T\(back.count)"), ("back", back)])
      #expect(answer.header("Location") == "/?said=tagCreated", "\(back)")
    }
  }

  @Test func theSignInRedirectStaysOnThisServer() throws {
    let web = try WebTester()
    for path in ["//evil.example/", "/\\evil.example", "/a\r\nSet-Cookie: x=1"] {
      let answer = web.get(path, [("token", WebTester.token)], cookies: [:])
      #expect(answer.status == 303)
      #expect(answer.header("Location") == "/", "\(path)")
    }
  }

  @Test func eachStartNamesItsOwnCookie() {
    let security = WebSecurity(
      token: "t", csrf: "c", allowedHosts: ["localhost"], usesTLS: true, cookie: "docket_1a2b3c4d")
    #expect(security.signInCookie == "docket_1a2b3c4d=t; Path=/; HttpOnly; SameSite=Strict; Secure")
  }

  @Test func aBodyThatIsNotAFormIsRefused() throws {
    let web = try WebTester()
    let answer = web.app.handle(
      HTTPRequest(
        method: "POST", path: "/issues",
        headers: ["host": "localhost", "origin": "http://localhost"], cookies: web.signedIn,
        bodyRefused: true))
    #expect(answer.status == 400)
    #expect(try web.count() == 0)
  }
}
