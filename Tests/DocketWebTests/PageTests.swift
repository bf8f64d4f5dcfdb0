import DocketCore
import DocketWeb
import Foundation
import HTTPServer
import Testing

/// The pages as HTML: the panes, the forms, and text that is always text.
@Suite struct PageTests {
  @Test func theTrackerHasThreeLabelledPanesWithCountsTheListAndTheIssue() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    let first = try web.issue(
      "Crash on launch", detail: "Stack trace here", priority: .high, tags: [bug])
    try web.issue("Write the manual", priority: .medium)
    try web.issue("Old work", completed: true)
    let html = web.page(WebLocation(issue: first.id))
    #expect(
      html.contains("<nav id=\"filters\" class=\"pane\" aria-labelledby=\"filters-heading\">"))
    #expect(html.contains("<main id=\"list\" class=\"pane\" aria-labelledby=\"list-heading\">"))
    #expect(
      html.contains("<section id=\"detail\" class=\"pane\" aria-labelledby=\"detail-heading\">"))
    // Open 2, Completed 1, Recent 2 (completed hidden), the tag 1.
    #expect(html.contains("<span class=\"name\">Open</span> <span class=\"count\">2</span>"))
    #expect(html.contains("<span class=\"name\">Completed</span> <span class=\"count\">1</span>"))
    #expect(html.contains("<span class=\"name\">Bug</span> <span class=\"count\">1</span>"))
    // The open issues in priority order; the completed one is not listed.
    let crash = try #require(html.range(of: "Crash on launch</span>"))
    let manual = try #require(html.range(of: "Write the manual</span>"))
    #expect(crash.lowerBound < manual.lowerBound)
    #expect(!html.contains("Old work"))
    // The chosen issue: current in the list, shown in the detail pane with its tag and text.
    #expect(html.occurrences(of: "aria-current=\"true\"") == 1)
    #expect(html.contains("<h2 id=\"detail-heading\" tabindex=\"-1\">Crash on launch</h2>"))
    #expect(html.contains("<div class=\"text\">Stack trace here</div>"))
    #expect(html.contains("class=\"tag\" href=\"/?filter=tag%3A\(bug.id.lower)\">Bug</a>"))
    #expect(html.contains("data-front=\"detail\""))
  }

  @Test func aHostileTitleTagAndSearchStayText() throws {
    let web = try WebTester()
    let hostile = "<img src=x onerror=alert(1)>\"'&"
    let tag = try web.tag("\"><script>alert(2)</script>")
    let issue = try web.issue(hostile, detail: "</textarea><script>alert(3)</script>", tags: [tag])
    for location in [
      WebLocation(issue: issue.id), WebLocation(issue: issue.id, mode: .edit),
      WebLocation(query: "\"><svg onload=alert(4)>"), WebLocation(query: "#\"><b>"),
    ] {
      let html = web.page(location)
      #expect(!html.contains("<img src=x"), "\(location)")
      #expect(!html.contains("<script>alert"), "\(location)")
      #expect(!html.contains("<svg onload"), "\(location)")
      #expect(!html.contains("\"><b>"), "\(location)")
    }
    let detail = web.page(WebLocation(issue: issue.id))
    #expect(detail.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"))
    #expect(detail.contains("&lt;/textarea&gt;&lt;script&gt;alert(3)&lt;/script&gt;"))
    let tags = web.get("/tags").text
    #expect(!tags.contains("<script>alert"))
    #expect(tags.contains("&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
  }

  @Test func htmlEscapesEveryCharacterThatCouldEndTextOrAnAttribute() {
    let text = "a<b>&\"c'\u{0}\u{7}"
    let html: HTML = "<p title=\"\(text)\">\(text)</p>"
    #expect(
      html.text
        == "<p title=\"a&lt;b&gt;&amp;&quot;c&#39;\u{FFFD}\u{FFFD}\">a&lt;b&gt;&amp;&quot;c&#39;\u{FFFD}\u{FFFD}</p>"
    )
    let markup: HTML = "<b>"
    #expect(("\(markup)" as HTML).text == "<b>")
  }

  @Test func aLocationSurvivesItsURLAndUnknownValuesFallBack() {
    let location = WebLocation(
      filter: .tag(UUID(uuidString: "00000000-0000-0000-0000-00000000000a")!),
      query: "a&b=c #x \"y\"", sort: IssueSort(field: .title, ascending: true),
      showCompleted: true, issue: UUID(uuidString: "00000000-0000-0000-0000-00000000000b"),
      mode: .edit, pane: .detail, shown: 100)
    let url = location.url
    #expect(!url.contains(" ") && !url.contains("\"") && !url.contains("#"))
    let items = URLComponents(string: url)!.queryItems!.map {
      (name: $0.name, value: $0.value ?? "")
    }
    #expect(WebLocation(query: items) == location)
    let odd = WebLocation(query: [
      ("filter", "nonsense"), ("sort", "size:up"), ("n", "-4"), ("mode", "edit"),
      ("issue", "not-a-uuid"), ("n", "999999"),
    ])
    #expect(odd == WebLocation())
    #expect(WebLocation(query: [("n", "999999")]).shown == WebLocation.largestPage)
  }

  @Test func theListShowsAPageAndAWayToMore() throws {
    let web = try WebTester()
    for number in 1...(WebLocation.pageSize + 5) { try web.issue("Issue \(number)") }
    let html = web.page(WebLocation())
    #expect(html.occurrences(of: "<li class=\"issue\">") == WebLocation.pageSize)
    #expect(html.contains("55 issues"))
    #expect(html.contains("href=\"/?n=100\">Show more</a>"))
    #expect(web.page(WebLocation(shown: 100)).occurrences(of: "<li class=\"issue\">") == 55)
  }

  @Test func aSearchWithATokenNarrowsAndABadTokenSaysWhy() throws {
    let web = try WebTester()
    let feature = try web.tag("Feature")
    try web.issue("Dark mode", tags: [feature])
    try web.issue("Crash")
    let narrowed = web.page(WebLocation(query: "tag:Feature"))
    #expect(narrowed.contains("Dark mode") && !narrowed.contains("Crash</span>"))
    let bad = web.page(WebLocation(query: "priority:urgent"))
    #expect(bad.contains("class=\"problem\" role=\"alert\""))
    #expect(bad.contains("urgent"))
    // A # being typed offers the tags and values it could be, as links that make them chips,
    // the text before it kept.
    let suggesting = web.page(WebLocation(query: "dark #fea"))
    #expect(suggesting.contains("id=\"suggestions\""))
    #expect(
      suggesting.contains(
        "href=\"/?chip=tag%3AFeature&amp;q=dark%20\" data-token=\"tag:Feature\">Feature"))
    // A search as full of chips as an address carries offers none more (it would be lost).
    let full = WebLocation(
      chips: (1...WebLocation.mostChips).map { "-word\($0)" }, query: "dark #fea")
    #expect(!web.page(full).contains("id=\"suggestions\""))
  }

  /// A search's tokens are chips before its text: in words, each sent with the form, each a
  /// link to the same search without it; the text field holds only the text.
  @Test func chipsShowTheSearchsTokensInWordsAndEachTakesItselfAway() throws {
    let web = try WebTester()
    let feature = try web.tag("UI Design")
    try web.issue("Dark mode", priority: .high, tags: [feature])
    try web.issue("Dark theme", priority: .low, tags: [feature])
    try web.issue("Crash", priority: .high)
    let location = WebLocation(
      chips: ["tag:\"UI Design\"", "priority:high", "-crash"], query: "dark")
    let html = web.page(location)
    #expect(html.contains("Dark mode") && !html.contains("Dark theme") && !html.contains(">Crash<"))
    #expect(html.contains("<ul class=\"chips\" id=\"chips\" aria-label=\"In the search\">"))
    #expect(
      html.contains("<input type=\"hidden\" name=\"chip\" value=\"tag:&quot;UI Design&quot;\">"))
    #expect(html.contains("<span class=\"chip-label\">UI Design</span>"))
    #expect(html.contains("<span class=\"chip-label\">High priority</span>"))
    #expect(html.contains("<span class=\"chip-label\">not “crash”</span>"))
    #expect(html.contains("aria-label=\"Remove High priority from the search\""))
    #expect(
      html.contains(
        "href=\"/?chip=tag%3A%22UI%20Design%22&amp;chip=-crash&amp;q=dark\" title=\"priority:high\""
      ))
    #expect(html.contains("<input id=\"q\" name=\"q\" type=\"search\" value=\"dark\""))
    // In German.
    let german = web.get("/", location.parameters, headers: ["accept-language": "de"]).text
    #expect(german.contains("<span class=\"chip-label\">Priorität Hoch</span>"))
    #expect(german.contains("<span class=\"chip-label\">nicht „crash“</span>"))
  }

  /// Enter in the search (`enter=1`, the no-script button's too) makes the tokens typed by hand
  /// chips and leaves the plain words as text, at the search's own address.
  @Test func enterMakesTypedTokensChips() throws {
    let web = try WebTester()
    let answer = web.get(
      "/", [("chip", "is:open"), ("q", "fix tag:Bug -priority:low login"), ("enter", "1")])
    #expect(answer.status == 303)
    #expect(
      answer.location
        == "/?chip=is%3Aopen&chip=tag%3ABug&chip=-priority%3Alow&q=fix%20login")
    // Text that does not parse stays as it was, for its message to be read.
    let bad = web.get("/", [("q", "priority:urgent"), ("enter", "1")])
    #expect(bad.location == "/?q=priority%3Aurgent")
    // A chip too long for an address stays text.
    let long = "-\"" + String(repeating: "é", count: 600) + "\""
    let kept = web.get("/", [("q", long), ("enter", "1")])
    #expect(kept.location?.contains("chip=") == false)
  }

  @Test func theFormsCarryTheCSRFTokenAndTheirLabels() throws {
    let web = try WebTester()
    let issue = try web.issue("Edit me", priority: .medium)
    let form = web.page(WebLocation(issue: issue.id, mode: .edit))
    #expect(form.contains("<label for=\"f-title\">Title</label>"))
    #expect(form.contains("<input id=\"f-title\" name=\"title\" value=\"Edit me\""))
    #expect(form.contains("<option value=\"medium\" selected>Medium</option>"))
    #expect(form.contains("name=\"base_title\" value=\"Edit me\""))
    #expect(form.contains("<input type=\"hidden\" name=\"csrf\" value=\"\(WebTester.csrf)\">"))
    let new = web.page(WebLocation(mode: .new))
    #expect(new.contains("action=\"/issues\""))
    #expect(!new.contains("base_title"))
  }

  @Test func germanFromTheBrowserAndTheSwitchOverridesIt() throws {
    let web = try WebTester()
    let german = web.get("/", headers: ["accept-language": "fr-FR, de;q=0.8, en;q=0.5"]).text
    #expect(german.contains("<html lang=\"de\">"))
    #expect(german.contains("Neuer Vorgang"))
    let chosen = web.get(
      "/", headers: ["accept-language": "de"],
      cookies: web.signedIn.merging(["docket_lang": "en"]) { $1 }
    ).text
    #expect(chosen.contains("<html lang=\"en\">"))
    let switched = web.post("/language", [("language", "de"), ("back", "/?filter=recent")])
    #expect(switched.status == 303)
    #expect(switched.location == "/?filter=recent")
    #expect(switched.header("Set-Cookie")?.hasPrefix("docket_lang=de; Path=/;") == true)
  }

  @Test func theLanguageIsChosenInSettingsWhichNamesThisBrowser() throws {
    let web = try WebTester()
    let issues = web.get("/").text
    // The header holds no language form; a gear leads to the settings.
    #expect(!issues.contains("action=\"/language\""))
    #expect(issues.contains("<a href=\"/settings\" title=\"Settings\">"))
    let settings = web.get("/settings", headers: ["accept-language": "de"])
    #expect(settings.status == 200)
    let text = settings.text
    #expect(text.contains("<h1 id=\"settings-heading\">Einstellungen</h1>"))
    #expect(text.contains("aria-current=\"page\"><span aria-hidden=\"true\">⚙</span>"))
    #expect(text.contains("value=\"de\" checked>"))
    #expect(!text.contains("value=\"en\" checked>"))
    #expect(text.contains("<input type=\"hidden\" name=\"back\" value=\"/settings\">"))
    // What this browser is paired as, and how to unpair it.
    #expect(text.contains("Gekoppelt als „Test browser“"))
    #expect(text.contains("docket browsers revoke &quot;Test browser&quot;"))
    let back = web.post("/language", [("language", "en"), ("back", "/settings")])
    #expect(back.location == "/settings")
  }

  @Test func theListSaysWhatASwipeDoesUnlessNothingCanBeChanged() throws {
    let web = try WebTester()
    try web.issue("Swipe me")
    let page = web.get("/", headers: ["accept-language": "de"]).text
    #expect(page.contains("data-swipe-complete=\"Erledigen\""))
    #expect(page.contains("data-swipe-delete=\"Löschen\""))
    #expect(page.contains("data-undo=\"Rückgängig\""))
    let readOnly = try WebTester(readOnly: true)
    try readOnly.issue("Look only")
    #expect(!readOnly.get("/").text.contains("data-swipe-"))
  }

  @Test func theAwardsAndTagsPagesSayWhatTheyShowInWords() throws {
    let web = try WebTester()
    let bug = try web.tag("Bug")
    try web.issue("One", completed: true, tags: [bug])
    let awards = web.get("/awards").text
    #expect(awards.contains("<h1 id=\"awards-heading\">Awards</h1>"))
    #expect(awards.contains("Unlocked"))
    #expect(awards.contains("Locked"))
    let tags = web.get("/tags").text
    #expect(tags.contains("0 open, 1 in all"))
    #expect(tags.contains("<label for=\"rename-0\">New name for “Bug”</label>"))
  }
}
