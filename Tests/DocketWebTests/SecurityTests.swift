import DocketCore
import Foundation
import HTTPServer
import Locking
import Testing

@testable import DocketWeb

/// Each of the rules of SPEC §13's "Safe by default", refused by name and changing nothing.
@Suite struct SecurityTests {
  @Test func withoutTheTokenNothingIsShown() throws {
    let web = try WebTester()
    try web.issue("Secret plans")
    let otherSecret = BrowserCredential(
      id: WebTester.browser.id, secret: String(repeating: "0", count: 64))
    for cookies in [
      [:], ["docket_token": "guess"], ["docket_token": WebTester.token],
      ["docket_token": WebTester.browser.cookie + "0"], ["docket_token": otherSecret.cookie],
      ["docket_other": WebTester.browser.cookie],
    ] {
      let answer = web.get("/", cookies: cookies)
      #expect(answer.status == 403)
      #expect(!answer.text.contains("Secret plans"))
    }
    #expect(web.get("/", [("token", "wrong")], cookies: [:]).status == 403)
  }

  @Test func theTokenPairsTheBrowserWithAStrictHttpOnlyCookieAndLeavesTheAddress() throws {
    let web = try WebTester()
    let answer = web.get(
      "/", [("token", WebTester.token), ("filter", "recent")],
      headers: [
        "user-agent":
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile/15E148 Safari/604.1"
      ],
      cookies: [:])
    #expect(answer.status == 303)
    #expect(answer.location == "/?filter=recent")
    let cookie = try #require(answer.header("Set-Cookie"))
    #expect(cookie.hasPrefix("docket_token="))
    #expect(cookie.hasSuffix("; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict"))
    let value = String(cookie.dropFirst("docket_token=".count).prefix { $0 != ";" })
    let credential = try #require(BrowserCredential(cookie: value))
    // A device of its own, named as people call it; the database keeps no secret it could use.
    let browsers = try web.queue.read { try $0.pairedBrowsers() }
    #expect(browsers.count == 2)
    #expect(browsers.first { $0.id == credential.id }?.name == "Safari on iPhone")
    let stored = try web.queue.read {
      try $0.fetchOne(
        "SELECT value FROM settings WHERE key = ?", ["web_browser:" + credential.id.lowercasedText],
        as: String.self)
    }
    #expect(stored?.contains(credential.secret) == false)
    #expect(stored?.contains(SHA256.hex(credential.secret)) == true)
    #expect(web.get("/", cookies: ["docket_token": value]).status == 200)
  }

  @Test func aPairedBrowserOpeningTheAddressAgainIsNotPairedTwice() throws {
    let web = try WebTester()
    let answer = web.get("/", [("token", WebTester.token)])
    #expect(answer.status == 303)
    #expect(answer.header("Set-Cookie") == nil)
    #expect(try web.queue.read { try $0.pairedBrowsers() }.count == 1)
  }

  @Test func aRevokedBrowserIsRefusedAtItsNextRequest() throws {
    let web = try WebTester()
    #expect(web.get("/").status == 200)
    #expect(try web.queue.write { try $0.revokeBrowser(WebTester.browser.id) })
    let answer = web.get("/")
    #expect(answer.status == 403)
    #expect(answer.text.contains("not paired"))
    #expect(try web.queue.write { try $0.revokeBrowser(WebTester.browser.id) } == false)
    // Paired again by the address of the start, as a new device.
    let again = web.get("/", [("token", WebTester.token)])
    #expect(again.header("Set-Cookie") != nil)
  }

  @Test func aBrowserSeenAfterAnHourIsNotedAndItsCookieRenewed() throws {
    let later = WebTester.now.addingTimeInterval(2 * 3600)
    let clock = Locked(WebTester.now)
    let web = try WebTester(now: { clock.withLock { $0 } })
    #expect(web.get("/").header("Set-Cookie") == nil)
    clock.withLock { $0 = later }
    let answer = web.get("/")
    #expect(
      answer.header("Set-Cookie")?.hasPrefix("docket_token=" + WebTester.browser.cookie) == true)
    #expect(try web.queue.read { try $0.pairedBrowsers() }.first?.seen == later)
    #expect(web.get("/").header("Set-Cookie") == nil)
  }

  @Test func browsersAreNamedFromWhatTheySendAndUniquely() throws {
    let on = { (browser: String, platform: String) in "\(browser) on \(platform)" }
    let agents: [(String?, String)] = [
      (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0 Mobile Safari/537.36",
        "Chrome on Android"
      ),
      (
        "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 CriOS/124.0 Mobile/15E148 Safari/604.1",
        "Chrome on iPad"
      ),
      (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15",
        "Safari on Mac"
      ),
      (
        "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox on Linux"
      ),
      (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36 Edg/124.0",
        "Edge on Windows"
      ),
      ("w3m/0.5.3+git20230121", "w3m"), ("Lynx/2.9.0dev.12 libwww-FM/2.14", "Lynx"),
      (nil, "Browser"),
    ]
    for (agent, name) in agents {
      #expect(BrowserName.of(userAgent: agent, on: on) == name, "\(agent ?? "none")")
    }
    let web = try WebTester()
    for number in 1...3 {
      let credential = BrowserCredential(
        id: UUID(), secret: String(repeating: "\(number)", count: 64))
      _ = try web.queue.write {
        try $0.pairBrowser(credential, name: "test BROWSER", now: WebTester.now)
      }
    }
    #expect(
      try web.queue.read { try $0.pairedBrowsers() }.map(\.name).sorted()
        == ["Test browser", "test BROWSER 2", "test BROWSER 3", "test BROWSER 4"])
  }

  @Test func aDatabaseThatCannotBeReadIsAFailureNotAnUnpairedBrowser() throws {
    let web = try WebTester()
    #expect(web.get("/").status == 200)
    let revoked = BrowserCredential(id: UUID(), secret: String(repeating: "1", count: 64))
    #expect(
      web.get("/", cookies: ["docket_token": revoked.cookie]).header("X-Docket-Unpaired") == "1")
    try web.queue.write { try $0.execute("ALTER TABLE settings RENAME TO settings_gone") }
    let answer = web.get("/")
    #expect(answer.status == 500)
    // The browser's copy stays: nothing says it was unpaired.
    #expect(answer.header("X-Docket-Unpaired") == nil)
  }

  @Test func aHostileOrBrokenRecordPairsNoOne() throws {
    let web = try WebTester()
    let id = UUID(uuidString: "0000b000-0000-4000-8000-000000000002")!
    let credential = BrowserCredential(id: id, secret: String(repeating: "0", count: 64))
    let hash = SHA256.hex(credential.secret)
    func stored(_ value: String) throws {
      try web.queue.write {
        try $0.execute(
          "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
          ["web_browser:" + id.lowercasedText, value])
      }
    }
    // Each record holds the right secret, and something wrong beside it.
    for value in [
      "not json \(hash)", "{\"secret\": \"\(hash)\"}",
      "{\"secret\": \"\(hash)\", \"paired\": 1}",
      "{\"name\": \"x\", \"secret\": \"\(hash)\"}",
      "{\"name\": \"x\", \"secret\": \"\(hash.uppercased())\", \"paired\": 1}",
    ] {
      try stored(value)
      #expect(web.get("/", cookies: ["docket_token": credential.cookie]).status == 403, "\(value)")
      // The list of paired browsers reads past it.
      #expect(try web.queue.read { try $0.pairedBrowsers() }.contains { $0.name == "Test browser" })
    }
    // The same record whole lets the browser in: the refusals above were the record's.
    try stored("{\"name\": \"x\", \"secret\": \"\(hash)\", \"paired\": 1}")
    #expect(web.get("/", cookies: ["docket_token": credential.cookie]).status == 200)
  }

  @Test func aProxyOnThisMachineSaysHowTheBrowserReachedIt() throws {
    let web = try WebTester()
    let proxied = [
      "host": "tracker.test:8443", "x-forwarded-proto": "https",
      "x-forwarded-host": "tracker.test:8443",
    ]
    let create = [("title", "Through the proxy")]
    // From this machine: the browser's https origin is this server's, and the cookies are
    // Secure, with HSTS.
    let page = web.get(
      "/", [("token", WebTester.token)], headers: proxied, cookies: [:], fromLoopback: true)
    #expect(page.status == 303)
    // A whole address, as the browser reached it (lynx stops to warn at a relative one).
    #expect(page.header("Location") == "https://tracker.test:8443/")
    #expect(page.header("Set-Cookie")?.hasSuffix("; Secure") == true)
    #expect(page.header("Strict-Transport-Security") == "max-age=86400")
    var origin = proxied
    origin["origin"] = "https://tracker.test:8443"
    #expect(web.post("/issues", create, headers: origin, fromLoopback: true).status == 303)
    #expect(try web.count() == 1)
    origin["origin"] = "http://tracker.test:8443"
    #expect(web.post("/issues", create, headers: origin, fromLoopback: true).status == 403)
    // From anywhere else the forwarded headers count for nothing.
    origin["origin"] = "https://tracker.test:8443"
    #expect(web.post("/issues", create, headers: origin).status == 403)
    let direct = web.get("/", [("token", WebTester.token)], headers: proxied, cookies: [:])
    #expect(direct.header("Set-Cookie")?.contains("Secure") == false)
    #expect(direct.header("Strict-Transport-Security") == nil)
    #expect(try web.count() == 1)
    // The Host is checked whatever is forwarded, and so is the forwarded host.
    for (host, forwarded) in [("evil.example", "tracker.test"), ("tracker.test", "evil.example")] {
      let answer = web.get(
        "/", headers: ["host": host, "x-forwarded-host": forwarded, "x-forwarded-proto": "https"],
        fromLoopback: true)
      #expect(answer.status == 403, "\(host) \(forwarded)")
    }
    // What the client sent itself comes first; the proxy's own value, last, is the one that
    // counts.
    var chain = proxied
    chain["x-forwarded-proto"] = "http, https"
    chain["x-forwarded-host"] = "evil.example, tracker.test:8443"
    chain["origin"] = "https://tracker.test:8443"
    #expect(web.post("/issues", create, headers: chain, fromLoopback: true).status == 303)
    chain["x-forwarded-host"] = "tracker.test:8443, evil.example"
    #expect(web.post("/issues", create, headers: chain, fromLoopback: true).status == 403)
    // A proxy that says nothing looks like a browser on this machine, and is taken as one.
    let quietPage = web.get(
      "/", [("token", WebTester.token)], headers: ["host": "127.0.0.1:8080"], cookies: [:],
      fromLoopback: true)
    #expect(quietPage.header("Location") == "http://127.0.0.1:8080/")
    // A Host that would read as a user or a path in a whole address keeps the redirect relative.
    let odd = web.get(
      "/", [("token", WebTester.token)], headers: ["host": "localhost:8080@evil.example"],
      cookies: [:])
    #expect(odd.header("Location")?.hasPrefix("/") == true)
  }

  @Test func sha256MatchesTheStandardsVectors() {
    #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    // Two blocks, and many (the padding's length field across a block's end).
    #expect(
      SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hex(String(repeating: "a", count: 1000))
        == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
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
  /// request is its own site's, stands in for it; a referrer elsewhere does not. Lynx sends no
  /// `Referer` from an address with a query (every page's): with none of the three, the CSRF
  /// token alone lets the change in, as every browser that runs another site's pages sends
  /// `Origin` or `Sec-Fetch-Site` with a post.
  @Test func aChangeWithoutAnOriginIsJudgedByWhereItCameFrom() throws {
    let web = try WebTester()
    let refused: [[String: String]] = [
      ["referer": "http://evil.example/"],
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
      ["sec-fetch-site": "same-origin"], [:],
    ]
    for (index, headers) in accepted.enumerated() {
      let answer = web.post(
        "/issues", [("title", "Typed in w3m"), ("back", "/")], headers: headers,
        withoutOrigin: true)
      #expect(answer.status == 303, "\(headers)")
      #expect(try web.count() == index + 1)
    }
    // The token is still needed.
    for headers in [["referer": "http://localhost:8080/"], [:]] {
      #expect(
        web.post(
          "/issues", [("title", "Planted"), ("back", "/")], headers: headers, csrf: nil,
          withoutOrigin: true
        ).status == 403)
      #expect(
        web.post(
          "/issues", [("title", "Planted"), ("back", "/")], headers: headers,
          csrf: WebTester.csrf + "0", withoutOrigin: true
        ).status == 403)
    }
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
    // No page holds a script of its own or an inline handler: the scripts come from the
    // server's files, and the one element of data (the words the offline copy draws with) is
    // never run, and holds no `<` to end it early.
    let html = web.get("/").text
    #expect(html.occurrences(of: "<script") == 5)
    for name in ["words", "copy", "offline", "app"] {
      #expect(html.contains("<script src=\"/static/\(name).js\" defer></script>"))
    }
    let data = try #require(
      html.range(of: "<script type=\"application/json\" id=\"copy-words\">").map {
        html[$0.upperBound...].prefix { $0 != "<" }
      })
    let words = try #require(
      try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
    #expect(words["titleEmpty"] is String && words["titleLimit"] is NSNumber)
    #expect(html[html.range(of: "id=\"copy-words\">")!.upperBound...].hasPrefix(data + "</script>"))
    #expect(!html.contains(" onclick=") && !html.contains(" style="))
  }

  @Test func aFormCanOnlySendTheBrowserBackToThisServer() throws {
    let web = try WebTester()
    for back in [
      "//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/a b",
    ] {
      let answer = web.post("/tags", [("name", "T\(back.count)"), ("back", back)])
      #expect(answer.location == "/?said=tagCreated", "\(back)")
    }
  }

  @Test func theSignInRedirectStaysOnThisServer() throws {
    let web = try WebTester()
    for path in ["//evil.example/", "/\\evil.example", "/a\r\nSet-Cookie: x=1"] {
      let answer = web.get(path, [("token", WebTester.token)], cookies: [:])
      #expect(answer.status == 303)
      #expect(answer.location == "/", "\(path)")
    }
  }

  @Test func eachDatabaseNamesItsOwnCookieAndTLSMakesItSecure() {
    let security = WebSecurity(
      token: "t", csrf: "c", allowedHosts: ["localhost"], usesTLS: true, cookie: "docket_1a2b3c4d")
    #expect(
      security.pairingCookie(WebTester.browser, secure: true)
        == "docket_1a2b3c4d=\(WebTester.browser.cookie); Path=/; Max-Age=34560000; HttpOnly; "
        + "SameSite=Strict; Secure")
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
