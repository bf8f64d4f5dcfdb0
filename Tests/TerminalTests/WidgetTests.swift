import Testing

@testable import Terminal

@Suite struct WidgetTests {
  @Test func paragraphsBreakBetweenWordsAndKeepTheirLines() {
    #expect(Paragraph.lines("one two three four", width: 9) == ["one two", "three", "four"])
    #expect(Paragraph.lines("first\n\nthird line", width: 20) == ["first", "", "third line"])
    // A word wider than the line is cut across lines, or stands alone when words are kept whole.
    #expect(Paragraph.lines("a abcdefghij b", width: 4) == ["a", "abcd", "efgh", "ij b"])
    #expect(
      Paragraph.lines("a abcdefghij b", width: 4, breakingWords: false) == ["a", "abcdefghij", "b"])
    // Wide characters count two columns.
    #expect(Paragraph.lines("日本語 テキスト", width: 7) == ["日本語", "テキス", "ト"])
    #expect(Paragraph.lines("anything", width: 0).isEmpty)
    // A wide character on a line one column wide still moves on, a character a line.
    #expect(Paragraph.lines("日本", width: 1) == ["日", "本"])
    #expect(Paragraph.lines("", width: 5) == [""])
  }

  @Test func theScrollWindowFollowsTheSelection() {
    #expect(ScrollWindow.first(selected: 0, height: 5) == 0)
    #expect(ScrollWindow.first(selected: 4, height: 5) == 0)
    #expect(ScrollWindow.first(selected: 5, height: 5) == 1)
    #expect(ScrollWindow.first(selected: 99, height: 10) == 90)
    #expect(ScrollWindow.first(selected: 3, height: 0) == 0)
  }

  @Test func centredBoxesStayInside() {
    let area = Rect(x: 2, y: 1, width: 40, height: 12)
    #expect(area.centred(width: 20, height: 4) == Rect(x: 12, y: 5, width: 20, height: 4))
    #expect(
      area.centred(width: 20, height: 4, third: true) == Rect(x: 12, y: 5, width: 20, height: 4))
    #expect(
      area.centred(width: 10, height: 2, third: true) == Rect(x: 17, y: 5, width: 10, height: 2))
    // Larger than the area: the area itself.
    #expect(area.centred(width: 100, height: 50) == area)
    // A tall box a third of the way down is moved up to stay inside.
    #expect(
      area.centred(width: 10, height: 10, third: true) == Rect(x: 17, y: 3, width: 10, height: 10))
  }
}
