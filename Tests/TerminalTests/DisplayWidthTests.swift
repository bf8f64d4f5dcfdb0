import Testing

@testable import Terminal

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("abc", 3), ("", 0), ("Übersetzung", 11), ("e\u{301}", 1), ("日本語", 6), ("한국", 4), ("🐛", 2),
    ("👩‍👩‍👧", 2), ("❤️", 2), ("a\u{200B}b", 2), ("ｆｕｌｌ", 8), ("\u{301}", 0),
  ])
  func measuresColumns(text: String, width: Int) {
    #expect(DisplayWidth.of(text) == width)
  }

  @Test func truncatesWithAnEllipsisWithoutSplittingWideCharacters() {
    #expect(DisplayWidth.truncate("Fix login layout", to: 8) == "Fix log…")
    #expect(DisplayWidth.truncate("short", to: 8) == "short")
    #expect(DisplayWidth.truncate("日本語テキスト", to: 6) == "日本…")
    #expect(DisplayWidth.of(DisplayWidth.truncate("日本語テキスト", to: 6)) == 5)
    #expect(DisplayWidth.truncate("abc", to: 1) == "…")
    #expect(DisplayWidth.truncate("abc", to: 0) == "")
  }

  @Test func padsToColumnsNotCharacters() {
    #expect(DisplayWidth.pad("日本", to: 6) == "日本  ")
    #expect(DisplayWidth.pad("toolong", to: 3) == "toolong")
  }
}
