import CQRCode

/// A QR code drawn in a terminal with half blocks: each line holds two rows of modules, inside
/// the quiet zone of four modules a scanner needs.
struct QRCodeText {
  /// `width` × `width` modules, row by row, true for dark.
  let modules: [Bool]
  let width: Int
  static let quietZone = 4

  /// The code of `text`; nil with the reason when libqrencode is missing or the text too long.
  static func encode(_ text: String) -> Result<QRCodeText, QRCodeFailure> {
    var width: Int32 = 0
    var failure = [CChar](repeating: 0, count: 512)
    guard let data = docket_qr_encode(text, &width, &failure, failure.count) else {
      let reason = failure.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      return .failure(QRCodeFailure(reason: reason))
    }
    defer { docket_qr_free(data) }
    let count = Int(width) * Int(width)
    let modules = (0..<count).map { data[$0] != 0 }
    return .success(QRCodeText(modules: modules, width: Int(width)))
  }

  func isDark(row: Int, column: Int) -> Bool {
    guard (0..<width).contains(row), (0..<width).contains(column) else { return false }
    return modules[row * width + column]
  }

  /// Columns the drawing takes.
  var columns: Int { width + 2 * Self.quietZone }

  /// The lines to print. With `colors`, dark on light whatever the terminal's own colours;
  /// without, the terminal's text colour stands for light (most terminals are light on dark, and
  /// a scanner reads a code whose light and dark are the right way round).
  func lines(colors: Bool) -> [String] {
    let side = width + 2 * Self.quietZone
    var lines: [String] = []
    for top in stride(from: 0, to: side, by: 2) {
      var line = ""
      for column in 0..<side {
        let upper = isDark(row: top - Self.quietZone, column: column - Self.quietZone)
        let lower = isDark(row: top + 1 - Self.quietZone, column: column - Self.quietZone)
        // With colours the foreground is dark; without, it is the light.
        let (inkUp, inkDown) = colors ? (upper, lower) : (!upper, !lower)
        switch (inkUp, inkDown) {
        case (true, true): line += "█"
        case (true, false): line += "▀"
        case (false, true): line += "▄"
        case (false, false): line += " "
        }
      }
      lines.append(colors ? "\u{1B}[30;107m" + line + "\u{1B}[0m" : line)
    }
    return lines
  }
}

struct QRCodeFailure: Error, Equatable {
  var reason: String
}
