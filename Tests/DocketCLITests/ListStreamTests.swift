import Database
import DocketCore
import Foundation
import Testing

/// `docket list` without a limit (or beyond a page) writes rows as it reads them; what it writes
/// is what a list read whole prints, in text and JSON.
@Suite struct ListStreamTests {
  static let titles = [
    "Fix build", "", "日本語のタイトル", "e\u{301}te\u{301}", "tab\there", "line\nbreak",
    "\u{1B}[31mred\u{1B}[0m", "x\u{202E}reversed", "🐛 bug", "quote \" and \\ backslash",
    String(repeating: "long ", count: 30), "C1 \u{85} control", "DEL \u{7F}",
  ]

  func sandbox(issues count: Int) throws -> Sandbox {
    let sandbox = try Sandbox()
    let queue = try DocketDatabase.open(path: sandbox.database)
    let now = Date()
    try queue.write { db in
      let tags = try ["Bug", "UI Design", "日本", "Ünïcode"].map {
        try db.createTag(named: $0, id: UUID()).tag
      }
      for index in 0..<count {
        let issue = Issue(
          id: UUID(), title: Self.titles[index % Self.titles.count] + " \(index / 7)",
          detail: index % 3 == 0 ? "detail \u{7}\(index)\nsecond line" : "",
          priority: Priority(rawValue: index % 3)!, completed: index % 4 == 0,
          created: now.addingTimeInterval(-Double(index) * 3_600 * 7),
          modified: index % 5 == 0 ? now.addingTimeInterval(-Double(index) * 60) : nil,
          tags: tags.enumerated().filter { (index >> $0.offset) & 1 == 1 }.map(\.element))
        try db.insertIssue(issue)
      }
    }
    return sandbox
  }

  @Test func theStreamedListIsTheListReadWhole() throws {
    let sandbox = try sandbox(issues: 600)
    for options in [[], ["--filter", "all"], ["--sort", "title", "--asc"], ["fix"], ["-bug"]] {
      for format in [[], ["--json"]] {
        let streamed = try sandbox.docket(["list"] + options + format)
        let page = try sandbox.docket(["list", "--limit", "1000"] + options + format)
        let streamedWithLimit = try sandbox.docket(["list", "--limit", "5000"] + options + format)
        #expect(streamed.status == 0 && page.status == 0, "\(streamed.error)")
        #expect(!streamed.output.isEmpty)
        #expect(streamed.output == page.output, "\(options) \(format)")
        #expect(streamedWithLimit.output == page.output, "\(options) \(format)")
      }
    }
  }

  /// Columns are as wide as what the list holds, not as what it could hold: with no completed
  /// issue and no medium one, the streamed table is laid out as the table read whole.
  @Test func theStreamedTableMeasuresWhatItHolds() throws {
    let sandbox = try Sandbox()
    let queue = try DocketDatabase.open(path: sandbox.database)
    try queue.write { db in
      for index in 0..<300 {
        try db.insertIssue(
          Issue(
            id: UUID(), title: "open \(index)", priority: index % 2 == 0 ? .high : .low,
            created: Date().addingTimeInterval(-Double(index) * 86_400 * 3)))
      }
    }
    for environment in [["LANG": "C.UTF-8"], ["LANG": "de_DE.UTF-8"], ["COLUMNS": "70"]] {
      let streamed = try sandbox.docket(["list", "--filter", "all"], environment: environment)
      let page = try sandbox.docket(
        ["list", "--filter", "all", "--limit", "1000"], environment: environment)
      #expect(streamed.output == page.output, "\(environment)")
      #expect(streamed.lines.count == 301)
    }
  }

  /// Piped, a row is as long as its own content needs: one title of 1 000 characters is written
  /// whole on its own line and pads no other, streamed or read whole.
  @Test func oneLongTitleDoesNotWidenEveryPipedLine() throws {
    let sandbox = try Sandbox()
    let long = String(repeating: "very long ", count: 99)
    try sandbox.docket(["add", long, "--tag", "wide"])
    for index in 0..<30 { try sandbox.docket(["add", "Short \(index)", "--tag", "Bug"]) }
    for options in [[], ["--limit", "1000"]] {
      let run = try sandbox.docket(["list"] + options)
      #expect(run.status == 0)
      let lines = run.lines
      #expect(lines.count == 32)
      let longLine = try #require(lines.first { $0.contains("very long") })
      #expect(longLine.contains(long.trimmingCharacters(in: .whitespaces) + "  wide"))
      for line in lines where line != longLine {
        #expect(line.count < 120, "\(options) \(line.count): \(line.prefix(80))")
      }
      // The short rows still line up with each other.
      let tagColumns = Set(
        lines.filter { $0.contains("Short") }.map {
          $0.range(of: "Bug")!.lowerBound.utf16Offset(in: $0)
        })
      #expect(tagColumns.count == 1, "\(tagColumns)")
    }
  }

  @Test func streamedJSONIsOneValidArrayAndAnEmptyListIsEmpty() throws {
    let sandbox = try sandbox(issues: 1_500)
    let all = try sandbox.docket(["list", "--filter", "all", "--json"])
    let array = try #require(try all.json() as? [[String: Any]])
    #expect(array.count == 1_500)
    #expect(Set(array.compactMap { $0["id"] as? String }).count == 1_500)
    // Detail is kept exactly, controls and all.
    #expect(array.contains { ($0["detail"] as? String)?.contains("\u{7}") == true })
    let limited = try sandbox.docket(["list", "--filter", "all", "--json", "--limit", "1200"])
    #expect((try limited.json() as? [Any])?.count == 1_200)
    let none = try sandbox.docket(["list", "no-such-words-anywhere", "--json"])
    #expect(none.status == 0)
    #expect(none.output == "[]\n")
    // A text list of every issue: a header and one line per issue, nothing raw.
    let text = try sandbox.docket(["list", "--filter", "all"])
    #expect(text.lines.count == 1_501)
    #expect(!text.output.contains("\u{1B}") && !text.output.contains("\u{202E}"))
    // The second column starts at one place on every line: the references are padded alike.
    let starts = Set(
      text.lines.map { line -> Int in
        let reference = line.prefix(while: { $0 != " " })
        return reference.count + line.dropFirst(reference.count).prefix(while: { $0 == " " }).count
      })
    #expect(starts.count == 1, "\(starts)")
  }
}
