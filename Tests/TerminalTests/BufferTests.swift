import Testing

@testable import Terminal

@Suite struct BufferTests {
  @Test func drawsTextClippedAndCutWithAnEllipsis() {
    var buffer = Buffer(width: 12, height: 3)
    buffer.draw("Hello, world and more", x: 0, y: 0)
    buffer.draw("right edge", x: 8, y: 1)
    buffer.draw("clipped", x: 2, y: 2, clip: Rect(x: 0, y: 0, width: 5, height: 3))
    #expect(buffer.lines == ["Hello, worl…", "        rig…", "  cl…"])
  }

  @Test func wideCharactersTakeTwoCellsAndAreNeverSplit() {
    var buffer = Buffer(width: 7, height: 2)
    let used = buffer.draw("日本語です", x: 0, y: 0)
    #expect(used == 7)
    #expect(buffer.lines[0] == "日本語…")
    #expect(buffer[1, 0].text == "")
    buffer.draw("a🐛b", x: 0, y: 1)
    #expect(buffer.lines[1] == "a🐛b")
    #expect(DisplayWidth.of(buffer.lines[1]) == 4)
  }

  @Test func combiningMarksJoinTheirCharacter() {
    var buffer = Buffer(width: 5, height: 1)
    buffer.draw("e\u{301}te\u{301}", x: 0, y: 0)
    #expect(buffer[0, 0].text == "e\u{301}")
    #expect(buffer.lines == ["e\u{301}te\u{301}"])
  }

  @Test func controlCharactersNeverReachTheScreen() {
    var buffer = Buffer(width: 10, height: 1)
    buffer.draw("a\tb\nc\u{1B}[2J", x: 0, y: 0)
    #expect(buffer.lines == ["a b c␛[2J"])
  }

  @Test func boxesWithTitles() {
    var buffer = Buffer(width: 12, height: 4)
    buffer.drawBox(Rect(x: 0, y: 0, width: 12, height: 4), title: "Filters and more")
    #expect(
      buffer.lines == [
        "┌ Filters …┐",
        "│          │",
        "│          │",
        "└──────────┘",
      ])
  }

  @Test func drawingOutsideDoesNothing() {
    var buffer = Buffer(width: 3, height: 1)
    #expect(buffer.draw("x", x: 5, y: 0) == 0)
    #expect(buffer.draw("x", x: 0, y: 3) == 0)
    buffer.fill(Rect(x: 2, y: 0, width: 10, height: 10), style: CellStyle(attributes: .reverse))
    #expect(buffer[2, 0].style.attributes == .reverse)
    #expect(buffer[1, 0].style == .plain)
  }
}

@Suite struct LayoutTests {
  /// The rectangles written as a picture: each part filled with its index.
  func picture(_ rects: [Rect], width: Int, height: Int) -> [String] {
    var rows = Array(repeating: Array(repeating: Character("."), count: width), count: height)
    for (index, rect) in rects.enumerated() {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { rows[y][x] = Character(String(index)) }
      }
    }
    return rows.map { String($0) }
  }

  @Test func fixedAndWeightedColumns() {
    let parts = Layout.split(
      Rect(x: 0, y: 0, width: 20, height: 2), .horizontal, [.fixed(4), .weight(1), .weight(2)])
    #expect(
      picture(parts, width: 20, height: 2) == ["00001111122222222222", "00001111122222222222"])
  }

  @Test func rowsAndTheRemainderGoesToTheLastWeightedPart() {
    let parts = Layout.split(
      Rect(x: 0, y: 0, width: 3, height: 7), .vertical, [.weight(1), .fixed(1), .weight(1)])
    #expect(
      picture(parts, width: 3, height: 7) == ["000", "000", "000", "111", "222", "222", "222"])
  }

  @Test func fixedPartsGiveWayWhenThereIsNoRoom() {
    let parts = Layout.split(
      Rect(x: 0, y: 0, width: 5, height: 1), .horizontal, [.fixed(4), .fixed(4), .weight(1)])
    #expect(parts.map(\.width) == [4, 1, 0])
    let atLeast = Layout.split(
      Rect(x: 0, y: 0, width: 10, height: 1), .horizontal, [.atLeast(6), .weight(1)])
    #expect(atLeast.map(\.width) == [8, 2])
  }
}
