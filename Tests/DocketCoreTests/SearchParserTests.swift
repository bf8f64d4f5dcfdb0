import Testing

@testable import DocketCore

@Suite struct SearchParserTests {
  @Test func plainWordsAreText() throws {
    #expect(try SearchParser.parse("fix  build ") == SearchQuery(text: ["fix", "build"]))
    #expect(try SearchParser.parse("") == .empty)
    #expect(try SearchParser.parse("   ") == .empty)
  }

  @Test func tokensOfEveryKind() throws {
    let query = try SearchParser.parse("login tag:Bug -tag:Wontfix priority:high p:m is:open")
    #expect(
      query
        == SearchQuery(
          text: ["login"], tags: ["Bug"], excludedTags: ["Wontfix"], priorities: [.high, .medium],
          statuses: [.open]))
  }

  @Test func aLeadingDashExcludesTextAndPhrases() throws {
    #expect(
      try SearchParser.parse("fix -crash") == SearchQuery(text: ["fix"], excludedText: ["crash"]))
    #expect(try SearchParser.parse(#"-"two words""#) == SearchQuery(excludedText: ["two words"]))
    #expect(try SearchParser.parse("-foo:bar") == SearchQuery(excludedText: ["foo:bar"]))
    // A lone dash is nothing; a dash inside a word is part of it.
    #expect(try SearchParser.parse("- login-layout") == SearchQuery(text: ["login-layout"]))
    // A quoted dash is text, not an exclusion.
    #expect(try SearchParser.parse(#""-5 degrees""#) == SearchQuery(text: ["-5 degrees"]))
    let query = try SearchParser.parse(#"fix -"two words" -tag:Bug"#)
    #expect(try SearchParser.parse(query.description) == query)
  }

  @Test func quotedTagNamesAndPhrases() throws {
    #expect(try SearchParser.parse(#"tag:"UI Design""#).tags == ["UI Design"])
    #expect(try SearchParser.parse(#"-tag:"UI  Design""#).excludedTags == ["UI Design"])
    #expect(try SearchParser.parse(#""exact words" more"#).text == ["exact words", "more"])
    // An unclosed quote runs to the end instead of failing.
    #expect(try SearchParser.parse(#"tag:"Open ended"#).tags == ["Open ended"])
    // A colon inside quotes is text, not a token.
    #expect(try SearchParser.parse(#""tag:Bug""#).text == ["tag:Bug"])
  }

  @Test func repeatedTokensCollectWithoutDuplicates() throws {
    let query = try SearchParser.parse(
      "tag:bug tag:BUG tag:ui p:h priority:high p:l is:done is:closed")
    #expect(query.tags == ["bug", "ui"])
    #expect(query.priorities == [.high, .low])
    #expect(query.statuses == [.completed])
  }

  @Test func statusSynonymsAndNegation() throws {
    for word in ["completed", "closed", "done", "COMPLETED"] {
      #expect(try SearchParser.parse("is:\(word)").statuses == [.completed])
    }
    #expect(try SearchParser.parse("-is:open").statuses == [.completed])
    #expect(try SearchParser.parse("-priority:low").excludedPriorities == [.low])
  }

  @Test func unknownKeysAreText() throws {
    #expect(try SearchParser.parse("foo:bar").text == ["foo:bar"])
    #expect(try SearchParser.parse("http://example.com").text == ["http://example.com"])
    // A dash before plain text excludes it (SPEC §3).
    #expect(try SearchParser.parse("-x") == SearchQuery(excludedText: ["x"]))
  }

  @Test func knownKeysWithBadValuesAreErrors() {
    #expect(throws: SearchSyntaxError(kind: .badPriority("urgent"), token: "priority:urgent")) {
      try SearchParser.parse("fix priority:urgent")
    }
    #expect(throws: SearchSyntaxError(kind: .badStatus("maybe"), token: "is:maybe")) {
      try SearchParser.parse("is:maybe")
    }
    #expect(throws: SearchSyntaxError(kind: .emptyValue(key: "tag"), token: "tag:")) {
      try SearchParser.parse("tag:")
    }
    #expect(throws: SearchSyntaxError(kind: .emptyValue(key: "tag"), token: #"tag:"  ""#)) {
      try SearchParser.parse(#"tag:"  ""#)
    }
  }

  @Test(arguments: [
    "fix build", #"tag:"UI Design" -tag:Bug priority:high is:completed"#, #""two words" tag:x"#,
    "p:l p:h is:open -priority:medium", "foo:bar", #"tag:"a:b""#,
  ])
  func roundTripsThroughText(input: String) throws {
    let query = try SearchParser.parse(input)
    #expect(try SearchParser.parse(query.description) == query)
  }

  @Test func canonicalTokens() throws {
    let query = try SearchParser.parse(#"p:h t:"UI Design" -is:completed"#)
    #expect(query.tokens == [#"tag:"UI Design""#, "priority:high", "is:open"])
  }
}
