import Testing

@testable import Terminal

/// Text from data never reaches a terminal raw: each control becomes a visible placeholder.
@Suite struct SafeTextTests {
  /// The hostile samples of every output test: OSC 52 (writes the clipboard), CSI, a C1 CSI,
  /// BEL, DEL and a right-to-left override.
  static let hostile =
    "Evil \u{1B}]52;c;aGVsbG8=\u{07} title \u{1B}[31mred\u{9B}2J bell\u{07} del\u{7F} \u{202E}txet"

  @Test func everyControlBecomesAPlaceholderAndTheTextStaysRecognisable() {
    let safe = SafeText.sanitized(Self.hostile)
    #expect(safe == "Evil ␛]52;c;aGVsbG8=␇ title ␛[31mred�2J bell␇ del␡ �txet")
    #expect(SafeText.isSafe(safe))
    #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
  }

  @Test func eachKindOfControl() {
    let cases: [(String, String)] = [
      ("\u{0}", "␀"), ("\u{1B}", "␛"), ("\u{7}", "␇"), ("\r", "␍"), ("\u{1F}", "␟"),
      ("\u{7F}", "␡"), ("\u{80}", "�"), ("\u{9F}", "�"), ("\u{9B}", "�"),
      ("\u{202A}", "�"), ("\u{202E}", "�"), ("\u{2066}", "�"), ("\u{2069}", "�"),
      ("\t", "␉"), ("\n", "␊"),
    ]
    for (raw, shown) in cases {
      #expect(SafeText.sanitized("a\(raw)b") == "a\(shown)b", "\(raw.unicodeScalars.first!.value)")
    }
  }

  @Test func ordinaryTextIsUntouched() {
    for text in [
      "Fix login", "Übersetzung für „Tags“", "日本語のタイトル", "emoji 🚀👩‍💻", "e\u{301}",
      "\u{200F}right-to-left mark", "\u{202F}narrow space", "",
    ] {
      #expect(SafeText.sanitized(text) == text)
      #expect(SafeText.isSafe(text))
    }
  }

  @Test func layoutCharactersStayWhereTheLayoutHandlesThem() {
    #expect(SafeText.sanitized("a\tb\nc", keeping: [.tabs, .lineBreaks]) == "a\tb\nc")
    #expect(SafeText.sanitized("a\tb\nc\u{1B}", keeping: .lineBreaks) == "a␉b\nc␛")
  }

  @Test func typedTextDropsControlsAndKeepsLinesOnlyWhenAsked() {
    #expect(SafeText.typed("pasted\u{1B}[31m red\u{9B}\u{202E}") == "pasted[31m red")
    #expect(SafeText.typed("one\r\ntwo\tthree") == "one two three")
    #expect(SafeText.typed("one\r\ntwo\rthree", keeping: .lineBreaks) == "one\ntwo\nthree")
  }

  @Test func textFieldsAndAreasKeepNoControlFromTypingOrPasting() {
    var field = TextField()
    field.apply(.insert(Self.hostile))
    #expect(SafeText.isSafe(field.text))
    #expect(field.text.hasPrefix("Evil ]52;c;aGVsbG8= title [31mred2J"))
    var area = TextArea()
    area.apply(TextArea.edit(for: .paste("line one\u{1B}[2J\r\nline two"))!)
    #expect(area.text == "line one[2J\nline two")
  }

  @Test func theBufferShowsPlaceholders() {
    var buffer = Buffer(width: 80, height: 1)
    buffer.draw(Self.hostile, x: 0, y: 0)
    #expect(buffer.lines[0].hasPrefix("Evil ␛]52;c;aGVsbG8=␇ title ␛[31mred�2J bell␇ del␡ �txet"))
  }
}
