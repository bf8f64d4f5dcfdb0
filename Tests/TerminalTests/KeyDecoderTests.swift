import Testing

@testable import Terminal

@Suite struct KeyDecoderTests {
  static let table: [(String, [UInt8], [Key])] = [
    ("letters", Array("ab".utf8), [.character("a"), .character("b")]),
    ("umlaut", Array("ü".utf8), [.character("ü")]),
    ("emoji", Array("🐛".utf8), [.character("🐛")]),
    ("enter", [0x0D], [.enter]),
    ("tab", [0x09], [.tab]),
    ("shift-tab", Array("\u{1B}[Z".utf8), [.backTab]),
    ("backspace", [0x7F], [.backspace]),
    ("ctrl-c", [0x03], [.control("c")]),
    ("arrows", Array("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D".utf8), [.up, .down, .right, .left]),
    ("application arrows", Array("\u{1B}OA".utf8), [.up]),
    ("home end", Array("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~".utf8), [.home, .end, .home, .end]),
    ("pages", Array("\u{1B}[5~\u{1B}[6~".utf8), [.pageUp, .pageDown]),
    ("delete", Array("\u{1B}[3~".utf8), [.delete]),
    (
      "f1 f5 f12", Array("\u{1B}OP\u{1B}[15~\u{1B}[24~".utf8),
      [.function(1), .function(5), .function(12)]
    ),
    ("ctrl-right", Array("\u{1B}[1;5C".utf8), [.right]),
    ("alt-b", Array("\u{1B}b".utf8), [.alt("b")]),
    (
      "paste", Array("\u{1B}[200~hello\nworld\u{1B}[201~x".utf8),
      [.paste("hello\nworld"), .character("x")]
    ),
    (
      "mouse click", Array("\u{1B}[<0;10;5M\u{1B}[<0;10;5m".utf8),
      [
        .mouse(MouseEvent(kind: .press(button: 0), x: 9, y: 4)),
        .mouse(MouseEvent(kind: .release, x: 9, y: 4)),
      ]
    ),
    (
      "wheel", Array("\u{1B}[<64;1;1M\u{1B}[<65;1;1M".utf8),
      [
        .mouse(MouseEvent(kind: .wheelUp, x: 0, y: 0)),
        .mouse(MouseEvent(kind: .wheelDown, x: 0, y: 0)),
      ]
    ),
    (
      "unknown sequence", Array("\u{1B}[99zq".utf8),
      [.unknown(Array("\u{1B}[99z".utf8)), .character("q")]
    ),
  ]

  @Test(arguments: table)
  func decodes(name: String, bytes: [UInt8], keys: [Key]) {
    var decoder = KeyDecoder()
    #expect(decoder.decode(bytes) == keys, "\(name)")
    #expect(!decoder.hasPending)
  }

  @Test(arguments: table)
  func decodesTheSameWhenEveryByteArrivesAlone(name: String, bytes: [UInt8], keys: [Key]) {
    var decoder = KeyDecoder()
    var decoded: [Key] = []
    for byte in bytes { decoded += decoder.decode([byte]) }
    #expect(decoded == keys, "\(name)")
  }

  @Test func aLoneEscapeWaitsThenIsEscape() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]) == [])
    #expect(decoder.hasPending)
    #expect(decoder.flushPendingEscape() == [.escape])
    #expect(!decoder.hasPending)
    #expect(decoder.decode([0x1B, 0x1B]) == [.escape])
    #expect(decoder.flushPendingEscape() == [.escape])
  }

  @Test func halfACharacterWaitsForTheRest() {
    var decoder = KeyDecoder()
    let bytes = Array("ß".utf8)
    #expect(decoder.decode([bytes[0]]) == [])
    #expect(decoder.decode([bytes[1]]) == [.character("ß")])
  }

  @Test func invalidBytesAreUnknownNotACrash() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0xFF, 0x61]) == [.unknown([0xFF]), .character("a")])
    #expect(decoder.decode([0xC3, 0x28]) == [.unknown([0xC3, 0x28])])
  }
}

@Suite struct RendererTests {
  @Test func theFirstFrameIsDrawnInFull() {
    var renderer = Renderer()
    var buffer = Buffer(width: 3, height: 1)
    buffer.draw("ab", x: 0, y: 0)
    let output = renderer.frame(buffer)
    #expect(output.hasPrefix("\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0mab "))
  }

  @Test func laterFramesWriteOnlyWhatChanged() {
    var renderer = Renderer()
    var buffer = Buffer(width: 10, height: 3)
    buffer.draw("unchanged", x: 0, y: 0)
    buffer.draw("old", x: 2, y: 2)
    _ = renderer.frame(buffer)
    buffer.draw("new", x: 2, y: 2)
    #expect(renderer.frame(buffer) == "\u{1B}[3;3H\u{1B}[0mnew")
    #expect(renderer.frame(buffer) == "")
  }

  @Test func styleCodesOnlyWhenTheStyleChanges() {
    var renderer = Renderer()
    var buffer = Buffer(width: 6, height: 1)
    _ = renderer.frame(buffer)
    let bold = CellStyle(foreground: .red, attributes: .bold)
    buffer.draw("ab", x: 0, y: 0, style: bold)
    buffer.draw("cd", x: 4, y: 0, style: bold)
    #expect(renderer.frame(buffer) == "\u{1B}[1;1H\u{1B}[0;1;31mab\u{1B}[1;5Hcd\u{1B}[0m")
  }

  @Test func aResizeRedrawsEverything() {
    var renderer = Renderer()
    _ = renderer.frame(Buffer(width: 2, height: 1))
    #expect(renderer.frame(Buffer(width: 3, height: 1)).hasPrefix("\u{1B}[0m\u{1B}[2J"))
  }

  @Test func theCursorGoesWhereTheFocusIs() {
    var renderer = Renderer()
    var buffer = Buffer(width: 4, height: 2)
    buffer.cursor = (2, 1)
    #expect(renderer.frame(buffer).hasSuffix("\u{1B}[2;3H\u{1B}[?25h"))
  }

  /// Shift, Alt and Ctrl with the wheel are still the wheel; with a click, still a click; motion
  /// with a button held is no click.
  @Test func mouseReportsWithModifiers() {
    var decoder = KeyDecoder()
    #expect(
      decoder.decode(Array("\u{1B}[<72;5;6M\u{1B}[<81;5;6M\u{1B}[<4;2;3M".utf8)) == [
        .mouse(MouseEvent(kind: .wheelUp, x: 4, y: 5)),
        .mouse(MouseEvent(kind: .wheelDown, x: 4, y: 5)),
        .mouse(MouseEvent(kind: .press(button: 0), x: 1, y: 2)),
      ])
    // The sideways wheel (66, 67) is not read as up or down.
    for code in [66, 67] {
      if case .mouse = decoder.decode(Array("\u{1B}[<\(code);5;6M".utf8)).first {
        Testing.Issue.record("sideways wheel \(code) read as a mouse event")
      }
    }
    let motion = decoder.decode(Array("\u{1B}[<32;5;6M".utf8))
    #expect(motion.count == 1)
    if case .mouse = motion.first { Testing.Issue.record("motion was read as a click") }
  }
}
