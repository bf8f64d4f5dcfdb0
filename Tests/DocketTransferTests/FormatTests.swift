import DocketCore
import Foundation
import Testing

@testable import DocketTransfer

@Suite struct FormatTests {
  static let day = Date(timeIntervalSince1970: 1_764_489_600)  // 2025-11-30 08:00 UTC

  @Test func datesReadAndWriteExactly() throws {
    for value in [1_764_489_600.0, 1_764_489_600.5, 1_764_489_600.123_456_7, 1e9 + 1.0 / 3.0, 0.25]
    {
      let date = Date(timeIntervalSince1970: value)
      #expect(DateText.parse(DateText.exact(date)) == date, "\(value)")
    }
    #expect(DateText.exact(Self.day) == "2025-11-30T08:00:00Z")
    #expect(DateText.exact(Self.day.addingTimeInterval(0.5)) == "2025-11-30T08:00:00.5Z")
    #expect(DateText.spreadsheet(Self.day) == "2025-11-30 08:00:00")
    #expect(DateText.parse("20251130T080000Z") == Self.day)
    #expect(DateText.parse("2025-11-30T09:00:00+01:00") == Self.day)
    #expect(DateText.parse("2025-11-30T08:00:00.250Z") == Self.day.addingTimeInterval(0.25))
    for bad in [
      "2025-02-30T00:00:00Z", "2025-11-30", "2025-11-30T08:00:00", "yesterday",
      "2025-13-01T00:00:00Z", "",
    ] {
      #expect(DateText.parse(bad) == nil, "\(bad)")
    }
    #expect(DateText.compact(Self.day) == "20251130T080000Z")
    // A value written with an exponent: a date that reads back, within a tenth of a
    // microsecond.
    let tiny = DateText.exact(Date(timeIntervalSince1970: 1e-05))
    let back = try #require(DateText.parse(tiny), "\(tiny)")
    #expect(abs(back.timeIntervalSince1970 - 1e-05) < 1e-6, "\(tiny)")
    // Before 1970, after 9999, or no number at all: no date Docket keeps. Written as no date
    // (month 0), which reads back as none, so that an import names the record.
    for value in [-0.1, -86_399.999_99, -1e-05, -1_000_000.25, 1e300, -1e18, .infinity, .nan] {
      let date = Date(timeIntervalSince1970: value)
      #expect(DateText.exact(date) == ISOTime.unknown, "\(value)")
      #expect(DateText.parse(DateText.exact(date)) == nil, "\(value)")
      #expect(DateText.spreadsheet(date) == "", "\(value)")
      #expect(DateText.compact(date) == "00000000T000000Z", "\(value)")
    }
    // Years before 1970 in a file are refused where dates are read.
    #expect(DateText.parse("1969-12-31T23:59:59Z") != nil)
  }

  @Test func namesMakeTheSameUUIDEverywhere() {
    // SHA-1 of "abc" (FIPS 180-2, appendix A).
    let digest = SHA1.digest(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
    #expect(digest == "a9993e364706816aba3e25717850c26c9cd0d89d")
    let id = NameUUID.make("github:acme/app#12")
    #expect(id == NameUUID.make("github:acme/app#12"))
    #expect(id != NameUUID.make("github:acme/app#13"))
    #expect(id.uuidString.lowercased().dropFirst(14).first == "5", "version 5")
  }

  @Test func formatsAreFoundFromTheContent() throws {
    #expect(try TransferReader.detect(Array(#"{"format":"docket","version":1}"#.utf8)) == .docket)
    #expect(
      try TransferReader.detect(Array(#"[{"uuid":"x","description":"d"}]"#.utf8)) == .taskwarrior)
    #expect(
      try TransferReader.detect(Array("{\"uuid\":\"x\",\"description\":\"d\"}\n{}".utf8))
        == .taskwarrior)
    #expect(try TransferReader.detect(Array(#"[{"number":1,"title":"t"}]"#.utf8)) == .github)
    #expect(throws: ImportError(.unknownFormat, line: 1)) {
      try TransferReader.detect(Array(#"[{"name":"nothing we know"}]"#.utf8))
    }
    #expect(throws: ImportError.self) { try TransferReader.detect(Array("title,detail\n".utf8)) }
  }

  @Test func csvQuotesAndDisarms() throws {
    #expect(CSVFormat.field("plain") == "plain")
    #expect(CSVFormat.field("a, b") == "\"a, b\"")
    #expect(CSVFormat.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSVFormat.field("two\r\nlines") == "\"two\r\nlines\"")
    #expect(CSVFormat.field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
    #expect(CSVFormat.field("+1") == "'+1")
    #expect(CSVFormat.field("-2") == "'-2")
    #expect(CSVFormat.field("@SUM(A1)") == "'@SUM(A1)")
    #expect(CSVFormat.field("\tx") == "'\tx")
    #expect(CSVFormat.field("a=b") == "a=b")
    var output = OutputBytes(write: { _ in })
    let issue = Issue(
      id: UUID(uuidString: "11111111-2222-4333-8444-555555555555")!, title: "=1+1",
      detail: "multi\nline, \"quoted\"", priority: .high, completed: true, created: Self.day,
      tags: [
        DocketCore.Tag(id: UUID(), name: "UI Design"), DocketCore.Tag(id: UUID(), name: "Bug"),
      ])
    try CSVFormat.write({ body in try body(issue) }, to: &output)
    let text = String(decoding: output.bytes, as: UTF8.self)
    #expect(text.hasPrefix("\u{FEFF}id,title,detail,priority,completed,created,modified,tags\r\n"))
    #expect(
      text.hasSuffix(
        "11111111-2222-4333-8444-555555555555,'=1+1,\"multi\nline, \"\"quoted\"\"\",high,yes,2025-11-30 08:00:00,,\"UI Design, Bug\"\r\n"
      ))
  }

  @Test func taskwarriorTasksBecomeIssues() throws {
    let text = """
      {"id":1,"description":"Fix the build","entry":"20251130T080000Z","modified":"20251130T090000Z","priority":"H","project":"docket.core","status":"pending","uuid":"7eec61f9-74f8-495f-9c1d-8dec9328599d","annotations":[{"entry":"20251130T081500Z","description":"looked at it"}],"tags":["ci","linux"],"due":"20251201T000000Z","urgency":8.7}
      {"description":"Old","entry":"20251130T080000Z","status":"deleted","uuid":"5e0fe835-06b2-4ff9-a193-15018511cb5d"}
      {"description":"Weekly","entry":"20251130T080000Z","status":"recurring","recur":"weekly","uuid":"f9d2692b-1cd3-416a-810f-688c9756b4ea"}
      {"description":"Done","entry":"20251130T080000Z","end":"20251130T100000Z","status":"completed","uuid":"08c115b6-1452-4145-8af6-da15c7493aec","priority":"L"}
      {"description":"Later","entry":"20251130T080000Z","status":"waiting","wait":"20251205T000000Z","uuid":"075e6363-db15-4af2-8ebd-cc5da9587621","priority":"M"}
      """
    let batch = try TransferReader.read(Array(text.utf8))
    #expect(batch.format == .taskwarrior)
    #expect(batch.skipped == [.deletedTask: 1, .recurringTemplate: 1])
    #expect(batch.issues.map(\.title) == ["Fix the build", "Done", "Later"])
    let fix = batch.issues[0]
    #expect(fix.id == UUID(uuidString: "7eec61f9-74f8-495f-9c1d-8dec9328599d"))
    #expect(fix.priority == .high)
    #expect(fix.tags.map(\.name) == ["docket.core", "ci", "linux"])
    #expect(fix.created == Self.day)
    #expect(fix.modified == Self.day.addingTimeInterval(3600))
    #expect(
      fix.detail
        == "2025-11-30 08:15:00  looked at it\n\nTaskwarrior:\nproject: docket.core\ndue: 20251201T000000Z"
    )
    let done = batch.issues[1]
    #expect(done.completed && done.priority == .low)
    #expect(done.modified == Self.day.addingTimeInterval(7200), "no modified: the end")
    #expect(done.detail == "Taskwarrior:\npriority: L")
    #expect(batch.issues[2].priority == .medium && !batch.issues[2].completed)
    // And back: the same task, project, annotation, attributes and all.
    let back = TaskwarriorFormat.task(
      Issue(
        id: fix.id, title: fix.title, detail: fix.detail, priority: fix.priority,
        created: fix.created,
        modified: fix.modified, tags: fix.tags.map { DocketCore.Tag(id: UUID(), name: $0.name) }))
    #expect(back["project"]?.string == "docket.core")
    #expect(back["tags"] == .array([.string("ci"), .string("linux")]))
    #expect(back["due"]?.string == "20251201T000000Z")
    #expect(back["priority"]?.string == "H")
    #expect(
      back["annotations"]
        == .array([
          .object([
            ("entry", .string("20251130T081500Z")), ("description", .string("looked at it")),
          ])
        ]))
    let lowAgain = TaskwarriorFormat.task(
      Issue(
        id: done.id, title: done.title, detail: done.detail, completed: true, created: done.created)
    )
    #expect(lowAgain["priority"]?.string == "L", "an L comes back as L")
    #expect(
      TaskwarriorFormat.task(Issue(id: UUID(), title: "x", created: Self.day))["priority"] == nil)
    #expect(TaskwarriorFormat.tagWord("UI Design") == "UI_Design")
    // A detail that only mentions the block's heading, or text that looks like a number, keeps it.
    let mention = TaskwarriorFormat.parseDetail("Notes\nTaskwarrior:", created: Self.day)
    #expect(
      mention.attributes.isEmpty && mention.annotations.map(\.text) == ["Notes\nTaskwarrior:"])
    let numbers = TaskwarriorFormat.parseDetail(
      "Taskwarrior:\nversion: 1.10\nimask: 0\ndepends: [\"a\"]", created: Self.day)
    #expect(numbers.attributes.map(\.1) == [.string("1.10"), .number(0), .array([.string("a")])])
    // An annotation whose text is empty is still an annotation with its date.
    let empty = TaskwarriorFormat.parseDetail(
      "2025-11-30 08:15:00  \n2025-11-30 08:16:00  second", created: Self.day)
    #expect(empty.annotations.map(\.text) == ["", "second"])
    #expect(empty.annotations.first?.date == Self.day.addingTimeInterval(900))
  }

  /// An annotation is made one line byte by byte exactly as splitting it by characters would.
  @Test(arguments: [
    "", "plain", "a\nb", "\n\nlead", "trail\r\n", "a\r\nb", "a\r\rb", "\u{0B}x\u{0C}y",
    "nel\u{85}line", "para\u{2029}graph\u{2028}", "e\n\u{301}accent", "🐛\n👩‍👩‍👧\n", "\n",
    "\r\n\r\n", "ü\u{2027}x", "a \n b", "\u{E2}\u{80}",
  ])
  func annotationsBecomeOneLine(text: String) {
    let byCharacters = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    #expect(TaskwarriorFormat.oneLine(text) == byCharacters)
  }

  @Test func githubIssuesBecomeIssues() throws {
    let text = """
      [
        {"number": 12, "title": "Login fails", "body": "Steps:\\n1. open", "labels": [{"name": "good first issue", "color": "7057ff"}, {"name": "bug"}], "state": "OPEN", "createdAt": "2025-11-30T08:00:00Z", "updatedAt": "2025-11-30T09:00:00Z", "closedAt": null, "url": "https://github.com/acme/app/issues/12"},
        {"number": 13, "title": "Übersetzung 🐛", "body": "", "labels": [], "state": "CLOSED", "createdAt": "2025-11-30T08:00:00Z", "updatedAt": "2025-11-30T10:00:00Z", "closedAt": "2025-11-30T10:00:00Z", "url": "https://github.com/acme/app/issues/13"}
      ]
      """
    let batch = try TransferReader.read(Array(text.utf8))
    #expect(batch.format == .github)
    let (login, translation) = (batch.issues[0], batch.issues[1])
    #expect(login.tags.map(\.name) == ["good first issue", "bug"])
    #expect(login.detail == "Steps:\n1. open\n\nGitHub: acme/app#12")
    #expect(!login.completed && translation.completed)
    #expect(translation.title == "Übersetzung 🐛")
    #expect(translation.detail == "GitHub: acme/app#13")
    #expect(login.id == NameUUID.make("github:acme/app#12"))
    // Without the address, the repository given names the issues; another gives other ids.
    let bare = Array(
      text.replacingOccurrences(
        of: #", "url": "[^"]*""#, with: "", options: .regularExpression
      ).utf8)
    #expect(!String(decoding: bare, as: UTF8.self).contains("url"))
    let named = try TransferReader.read(bare, repository: "acme/app")
    #expect(named.issues.map(\.id) == batch.issues.map(\.id))
    let other = try TransferReader.read(bare, repository: "acme/other")
    #expect(other.issues[0].id != login.id)
  }

  /// A bad record is named by its line and number; nothing after it is read.
  @Test func badRecordsAreNamed() {
    let tasks = """
      [
      {"description":"ok","entry":"20251130T080000Z","status":"pending","uuid":"7eec61f9-74f8-495f-9c1d-8dec9328599d"},
      {"description":"bad date","entry":"20251330T080000Z","status":"pending","uuid":"08c115b6-1452-4145-8af6-da15c7493aec"}
      ]
      """
    #expect(
      throws: ImportError(.badValue(field: "entry", value: "20251330T080000Z"), line: 3, record: 2)
    ) {
      try TransferReader.read(Array(tasks.utf8))
    }
    let noTitle =
      #"[{"entry":"20251130T080000Z","status":"pending","uuid":"7eec61f9-74f8-495f-9c1d-8dec9328599d","description":5}]"#
    #expect(
      throws: ImportError(.wrongType(field: "description", expected: "text"), line: 1, record: 1)
    ) {
      try TransferReader.read(Array(noTitle.utf8))
    }
    let cut = Array(tasks.utf8.prefix(150))
    #expect(throws: ImportError(.syntax(.unexpectedEnd), line: 3, record: 2)) {
      try TransferReader.read(cut)
    }
    #expect(throws: ImportError(.badValue(field: "version", value: "1e+300"))) {
      try TransferReader.read(
        Array(#"{"format":"docket","version":1e300,"tags":[],"issues":[]}"#.utf8))
    }
    #expect(
      throws: ImportError(.badValue(field: "created", value: "soon"), record: 2, list: .issues)
    ) {
      try TransferReader.read(
        Array(
          #"{"format":"docket","version":1,"tags":[],"issues":[{"id":"7eec61f9-74f8-495f-9c1d-8dec9328599d","created":"2025-11-30T08:00:00Z"},{"id":"08c115b6-1452-4145-8af6-da15c7493aec","created":"soon"}]}"#
            .utf8))
    }
    #expect(throws: ImportError(.newerVersion(2))) {
      try TransferReader.read(Array(#"{"format":"docket","version":2,"tags":[],"issues":[]}"#.utf8))
    }
    #expect(throws: ImportError(.unknownTag("nope"), record: 1, list: .issues)) {
      try TransferReader.read(
        Array(
          #"{"format":"docket","version":1,"tags":[],"issues":[{"id":"7eec61f9-74f8-495f-9c1d-8dec9328599d","created":"2025-11-30T08:00:00Z","tags":["nope"]}]}"#
            .utf8))
    }
    #expect(throws: ImportError(.badValue(field: "state", value: "MERGED"), line: 1, record: 1)) {
      try TransferReader.read(
        Array(
          #"[{"number":1,"title":"t","state":"MERGED","createdAt":"2025-11-30T08:00:00Z"}]"#.utf8))
    }
  }
}
