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

  @Test func aParagraphStopsAtItsLimitAndCutsALongWordOnce() {
    // A pane of three lines wraps three lines of a megabyte, wherever the words break.
    let megabyte = String(repeating: "word ", count: 200_000)
    #expect(
      Paragraph.lines(megabyte, width: 12, limit: 3) == Array(repeating: "word word", count: 3))
    let oneWord = String(repeating: "x", count: 1_000_000)
    #expect(
      Paragraph.lines(oneWord, width: 40, limit: 2)
        == Array(repeating: String(repeating: "x", count: 40), count: 2))
    // Whole, the long word makes every line full but the last.
    let cut = Paragraph.lines(String(repeating: "x", count: 10_001) + " end", width: 64)
    #expect(cut.count == 10_001 / 64 + 1)
    #expect(cut.dropLast().allSatisfy { $0.count == 64 })
    #expect(cut.last == String(repeating: "x", count: 10_001 % 64) + " end")
    #expect(Paragraph.lines("one two", width: 3, limit: 0).isEmpty)
  }

  @Test func theScrollStateMovesTheLeastThatKeepsTheSelectionInView() {
    var scroll = ScrollState()
    scroll.reveal(4, height: 5, count: 100)
    #expect(scroll.first == 0)
    scroll.reveal(5, height: 5, count: 100)
    #expect(scroll.first == 1)
    scroll.reveal(99, height: 10, count: 100)
    #expect(scroll.first == 90)
    // Moving up within the window leaves it where it is; above it, the window follows.
    scroll.reveal(95, height: 10, count: 100)
    #expect(scroll.first == 90)
    scroll.reveal(42, height: 10, count: 100)
    #expect(scroll.first == 42)
    // Down within the window: still where it was (a list that jumped back to the top whenever
    // the selection moved inside it would move rows from under the pointer).
    scroll.reveal(50, height: 10, count: 100)
    #expect(scroll.first == 42)
    #expect(scroll.shown(height: 10, count: 100) == 42..<52)
    // Fewer rows than before: no empty rows at the end while rows above are hidden.
    scroll.reveal(nil, height: 10, count: 45)
    #expect(scroll.first == 35)
    #expect(scroll.shown(height: 10, count: 45) == 35..<45)
    // A taller window shows from the top; nothing to show, nothing scrolled.
    scroll.reveal(40, height: 50, count: 45)
    #expect(scroll.first == 0)
    scroll.reveal(3, height: 0, count: 10)
    #expect(scroll.first == 0)
    #expect(ScrollState(first: 7).shown(height: 5, count: 3) == 3..<3)
  }

  @Test func tableColumnsAreFixedFittedOrWhatIsLeft() {
    let rows = [
      [Table.Cell("●"), Table.Cell("A title"), Table.Cell("ui, bug"), Table.Cell("3d")],
      [Table.Cell("○"), Table.Cell("Another"), Table.Cell(""), Table.Cell("1h")],
    ]
    // One cell between columns: 2 + 1 + rest + 1 + 7 + 1 + 4 = 30.
    #expect(
      Table.widths([.fixed(2), .rest, .fit(max: 10), .fixed(4)], rows: rows, width: 30)
        == [2, 14, 7, 4])
    // A fitted column is never wider than its limit, and takes nothing when it is all empty.
    #expect(
      Table.widths([.fixed(2), .rest, .fit(max: 3), .fixed(4)], rows: rows, width: 30)
        == [2, 18, 3, 4])
    let empty = rows.map { [$0[0], $0[1], Table.Cell(""), $0[3]] }
    #expect(
      Table.widths([.fixed(2), .rest, .fit(max: 10), .fixed(4)], rows: empty, width: 30)
        == [2, 22, 0, 4])
    // Too narrow: what is left is nothing, never less.
    #expect(Table.widths([.fixed(8), .rest, .fixed(8)], rows: [], width: 10) == [8, 0, 8])

    var buffer = Buffer(width: 30, height: 3)
    let widths = Table.widths([.fixed(2), .rest, .fit(max: 10), .fixed(4)], rows: rows, width: 30)
    Table.draw(&buffer, Rect(x: 0, y: 0, width: 30, height: 3), widths: widths, rows: rows) {
      $0 == 1 ? CellStyle(attributes: .reverse) : nil
    }
    #expect(buffer.lines[0] == "●  A title        ui, bug 3d")
    #expect(buffer.lines[1] == "○  Another                1h")
    #expect(buffer.lines[2] == "")
    // The row styled whole is filled across, its cells in its style.
    #expect((0..<30).allSatisfy { buffer[$0, 1].style.attributes.contains(.reverse) })
    #expect(!buffer[0, 0].style.attributes.contains(.reverse))
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
