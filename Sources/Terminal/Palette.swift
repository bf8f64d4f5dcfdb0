/// How styles may look on this terminal: in full colour, without colour (`NO_COLOR`: the
/// attributes stay), or in high contrast (the terminal's own colours, with bold and reverse only).
/// Views draw with their usual styles; the palette turns them into what may be shown.
public enum Palette: String, Sendable, CaseIterable {
  case full
  case noColor
  case highContrast

  /// The looks a person can ask for (`--theme`), by the names they are asked for with.
  public enum Theme: String, Sendable, CaseIterable {
    case standard = "default"
    case highContrast = "high-contrast"
  }

  /// The palette the environment and the chosen theme ask for: `NO_COLOR` set to anything but
  /// an empty string turns colour off, as no-color.org asks.
  public static func chosen(theme: Theme?, environment: [String: String]) -> Palette {
    if theme == .highContrast { return .highContrast }
    if let value = environment["NO_COLOR"], !value.isEmpty { return .noColor }
    return .full
  }
}

extension CellStyle {
  /// This style as `palette` allows it.
  public func adapted(to palette: Palette) -> CellStyle {
    switch palette {
    case .full:
      return self
    case .noColor:
      return CellStyle(attributes: attributes)
    case .highContrast:
      // Colour carried emphasis: it becomes bold. Dim and italic fade text: dropped. An
      // underlined field becomes reversed, so it still stands out.
      var kept = attributes.intersection([.bold, .reverse])
      if foreground != .default || background != .default { kept.insert(.bold) }
      if attributes.contains(.underline) { kept.insert(.reverse) }
      return CellStyle(attributes: kept)
    }
  }
}

extension Buffer {
  /// The same frame with every cell's style as `palette` allows it.
  public func adapted(to palette: Palette) -> Buffer {
    guard palette != .full else { return self }
    var copy = self
    copy.mapStyles { $0.adapted(to: palette) }
    return copy
  }
}
