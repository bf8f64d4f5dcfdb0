import Testing

@testable import Terminal

@Suite struct TextFieldTests {
  func typed(_ text: String) -> TextField {
    var field = TextField()
    field.apply(.insert(text))
    return field
  }

  @Test func insertsAtTheCursorAndMovesByCharacter() {
    var field = typed("fix bild")
    field.apply(.left)
    field.apply(.left)
    field.apply(.left)
    #expect(field.cursor == 5)
    field.apply(.insert("u"))
    #expect(field.text == "fix build")
    field.apply(.backspace)
    field.apply(.deleteForward)
    #expect(field.text == "fix bld")
    field.apply(.insert("ui"))
    #expect(field.text == "fix build")
    #expect(field.cursor == 7)
    #expect(!field.apply(.right) || field.cursor == 8)
  }

  @Test func wordMovementAndDeletion() {
    var field = typed("tag:Bug fix the build")
    field.apply(.wordLeft)
    #expect(field.cursor == 16)
    field.apply(.wordLeft)
    field.apply(.wordLeft)
    #expect(field.cursor == 8)
    field.apply(.wordRight)
    #expect(field.cursor == 11)
    field.apply(.end)
    field.apply(.deleteWordBackward)
    #expect(field.text == "tag:Bug fix the ")
    field.apply(.home)
    field.apply(.deleteToEnd)
    #expect(field.text == "")
  }

  @Test func deleteToStartAndPasteOnOneLine() {
    var field = typed("abc def")
    field.apply(.left)
    field.apply(.deleteToStart)
    #expect(field.text == "f")
    #expect(field.cursor == 0)
    field.apply(.insert("pasted\nlines\t"))
    #expect(field.text == "pasted lines f")
  }

  @Test func theCursorNeverSplitsACharacter() {
    var field = typed("e\u{301}🐛x")
    field.apply(.left)
    field.apply(.left)
    field.apply(.backspace)
    #expect(field.text == "🐛x")
  }

  @Test func keysMapToEdits() {
    #expect(TextField.edit(for: .control("w")) == .deleteWordBackward)
    #expect(TextField.edit(for: .character("x")) == .insert("x"))
    #expect(TextField.edit(for: .alt("b")) == .wordLeft)
    #expect(TextField.edit(for: .up) == nil)
  }

  @Test func theVisiblePartFollowsTheCursor() {
    let field = TextField("0123456789abcdef")
    let shown = field.visible(width: 6)
    #expect(shown.text == "bcdef")
    #expect(shown.cursorColumn == 5)
    let start = TextField("0123456789", cursor: 0).visible(width: 4)
    #expect(start.text == "0123")
    #expect(start.cursorColumn == 0)
  }
}

@Suite struct TextAreaTests {
  @Test func enterStartsALineAndArrowsMoveBetweenLinesKeepingTheColumn() {
    var area = TextArea()
    area.apply(.field(.insert("first line")))
    area.apply(.newline)
    area.apply(.field(.insert("two")))
    #expect(area.text == "first line\ntwo")
    #expect(area.cursorPosition == (1, 3))
    area.apply(.up)
    #expect(area.cursorPosition == (0, 3))
    area.apply(.field(.end))
    area.apply(.down)
    #expect(area.cursorPosition == (1, 3))
    area.apply(.field(.home))
    area.apply(.field(.insert("line ")))
    #expect(area.text == "first line\nline two")
    area.apply(.down)
    #expect(area.cursor == area.text.count)
  }

  @Test func deletingToTheEndsStaysOnTheLine() {
    var area = TextArea("alpha\nbravo charlie\ndelta", cursor: 12)
    area.apply(.field(.deleteToEnd))
    #expect(area.text == "alpha\nbravo \ndelta")
    area.apply(.field(.deleteToStart))
    #expect(area.text == "alpha\n\ndelta")
    area.apply(.field(.backspace))
    #expect(area.text == "alpha\ndelta")
  }

  @Test func keysAndTheVisibleWindow() {
    #expect(TextArea.edit(for: .enter) == .newline)
    #expect(TextArea.edit(for: .up) == .up)
    #expect(TextArea.edit(for: .character("x")) == .field(.insert("x")))
    let area = TextArea("1\n2\n3\n4 is a long line", cursor: 20)
    let shown = area.visible(width: 8, height: 2)
    #expect(shown.lines == ["3", "long lin"])
    #expect(shown.cursor.x == 7)
    #expect(shown.cursor.y == 1)
  }
}

@Suite struct SelectedTextFieldTests {
  /// A placeholder shown selected gives way to what is typed over it.
  @Test func typingReplacesASelectedText() {
    var field = TextField("New issue", selected: true)
    #expect(field.selected)
    field.apply(.insert("F"))
    field.apply(.insert("ix"))
    #expect(field.text == "Fix" && field.cursor == 3 && !field.selected)
  }

  @Test func deletingClearsASelectedText() {
    var field = TextField("New issue", selected: true)
    let changed = field.apply(.backspace)
    #expect(changed)
    #expect(field.text.isEmpty && !field.selected)
  }

  /// A move ends the selection and keeps the text, the cursor at the side it moved to.
  @Test func aMoveKeepsTheText() {
    var field = TextField("New issue", selected: true)
    let changed = field.apply(.left)
    #expect(!changed)
    #expect(field.text == "New issue" && field.cursor == 0 && !field.selected)
    field.apply(.insert("A "))
    #expect(field.text == "A New issue")
    var end = TextField("New issue", selected: true)
    end.apply(.end)
    end.apply(.insert("!"))
    #expect(end.text == "New issue!")
  }
}
