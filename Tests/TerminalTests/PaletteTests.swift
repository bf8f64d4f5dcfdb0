import Testing

@testable import Terminal

@Suite struct PaletteTests {
  let coloured = CellStyle(foreground: .red, background: .blue, attributes: [.bold, .dim])
  let underlined = CellStyle(attributes: [.underline, .italic])

  @Test func noColorKeepsAttributesOnly() {
    #expect(coloured.adapted(to: .noColor) == CellStyle(attributes: [.bold, .dim]))
    #expect(underlined.adapted(to: .noColor) == underlined)
    #expect(coloured.adapted(to: .full) == coloured)
  }

  @Test func highContrastUsesOnlyBoldAndReverse() {
    #expect(coloured.adapted(to: .highContrast) == CellStyle(attributes: .bold))
    #expect(underlined.adapted(to: .highContrast) == CellStyle(attributes: .reverse))
    #expect(CellStyle(attributes: .dim).adapted(to: .highContrast) == .plain)
    #expect(CellStyle(foreground: .cyan).adapted(to: .highContrast) == CellStyle(attributes: .bold))
  }

  @Test func theEnvironmentAndThemeChooseThePalette() {
    #expect(Palette.chosen(theme: nil, environment: [:]) == .full)
    #expect(Palette.chosen(theme: nil, environment: ["NO_COLOR": "1"]) == .noColor)
    #expect(Palette.chosen(theme: nil, environment: ["NO_COLOR": ""]) == .full)
    #expect(Palette.chosen(theme: .highContrast, environment: ["NO_COLOR": "1"]) == .highContrast)
    #expect(Palette.chosen(theme: .standard, environment: [:]) == .full)
  }

  @Test func aFrameAdaptedHasNoColourLeft() {
    var buffer = Buffer(width: 4, height: 1)
    buffer.draw("ab", x: 0, y: 0, style: coloured)
    let plain = buffer.adapted(to: .noColor)
    #expect(
      plain.cells.allSatisfy { $0.style.foreground == .default && $0.style.background == .default })
    #expect(plain.lines == buffer.lines)
    #expect(!Renderer().frameText(plain).contains("31"))
  }
}

extension Renderer {
  /// A first frame's output, for tests.
  func frameText(_ buffer: Buffer) -> String {
    var copy = self
    return copy.frame(buffer)
  }
}
