/// A terminal colour: the terminal's own, one of the 16 named ones, or one of the 256.
public enum TerminalColor: Equatable, Hashable, Sendable {
  case `default`
  case black, red, green, yellow, blue, magenta, cyan, white
  case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan,
    brightWhite
  case indexed(UInt8)

  /// The SGR parameters that select this colour as foreground (or background).
  func sgr(background: Bool) -> String {
    let named: [TerminalColor] = [
      .black, .red, .green, .yellow, .blue, .magenta, .cyan, .white, .brightBlack, .brightRed,
      .brightGreen,
      .brightYellow, .brightBlue, .brightMagenta, .brightCyan, .brightWhite,
    ]
    switch self {
    case .default: return background ? "49" : "39"
    case .indexed(let index): return (background ? "48;5;" : "38;5;") + String(index)
    default:
      let index = named.firstIndex(of: self)!
      let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
      return String(base + index % 8)
    }
  }
}

/// Bold, dim, underline and the like.
public struct TextAttributes: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let bold = TextAttributes(rawValue: 1 << 0)
  public static let dim = TextAttributes(rawValue: 1 << 1)
  public static let italic = TextAttributes(rawValue: 1 << 2)
  public static let underline = TextAttributes(rawValue: 1 << 3)
  public static let reverse = TextAttributes(rawValue: 1 << 4)
}

/// How a cell looks.
public struct CellStyle: Equatable, Hashable, Sendable {
  public var foreground: TerminalColor
  public var background: TerminalColor
  public var attributes: TextAttributes

  public init(
    foreground: TerminalColor = .default, background: TerminalColor = .default,
    attributes: TextAttributes = []
  ) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  public static let plain = CellStyle()

  /// The full SGR sequence that sets this style from a reset.
  var sgr: String {
    var parameters = ["0"]
    if attributes.contains(.bold) { parameters.append("1") }
    if attributes.contains(.dim) { parameters.append("2") }
    if attributes.contains(.italic) { parameters.append("3") }
    if attributes.contains(.underline) { parameters.append("4") }
    if attributes.contains(.reverse) { parameters.append("7") }
    if foreground != .default { parameters.append(foreground.sgr(background: false)) }
    if background != .default { parameters.append(background.sgr(background: true)) }
    return "\u{1B}[" + parameters.joined(separator: ";") + "m"
  }
}
