import Foundation

/// What an issue, a tag and a device's name may hold, and the dates Docket keeps. The same rules
/// hold on every write (every face, an import, a migration) and for every change sync receives,
/// so that nothing a device may write is refused by another: a change that breaks them is
/// skipped on arrival as a hostile one. Lengths count Unicode scalars, as SQLite's `length()`.
public enum Limits {
  /// A title is one line of at most this many characters (GitHub's titles stop at 256).
  public static let titleCharacters = 1_000
  /// A detail: a long document, or a log pasted in (GitHub's issue bodies stop at 65 536
  /// characters). At four bytes a character this bounds a change's line to a few MiB.
  public static let detailCharacters = 1_000_000
  public static let tagNameCharacters = 200
  public static let deviceNameCharacters = 200

  /// Dates from the first moment of 1970 to the last second of 9999, in seconds since 1970.
  public static let earliestDate: Double = 0
  public static let latestDate: Double = 253_402_300_799

  /// Whether `seconds` since 1970 is a date Docket keeps: finite, in years 1970 to 9999.
  public static func isDate(_ seconds: Double) -> Bool {
    seconds >= earliestDate && seconds <= latestDate
  }

  /// The scalars that end a line, which a title may not hold: LF, VT, FF, CR, NEL, LS, PS.
  public static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }

  /// Whether `text` is at most `limit` scalars long, without counting past the limit.
  public static func fits(_ text: String, _ limit: Int) -> Bool {
    // Each scalar takes at least one byte: a short text is short without counting.
    if text.utf8.count <= limit { return true }
    var count = 0
    for _ in text.unicodeScalars {
      count += 1
      if count > limit { return false }
    }
    return true
  }

  /// A title as stored: each line break (a pair CR LF counts as one) made a space.
  public static func oneLine(_ title: String) -> String {
    guard title.unicodeScalars.contains(where: isLineBreak) else { return title }
    var scalars = String.UnicodeScalarView()
    var previousCR = false
    for scalar in title.unicodeScalars {
      if scalar == "\n", previousCR {
        previousCR = false
        continue
      }
      previousCR = scalar == "\r"
      scalars.append(isLineBreak(scalar) ? " " : scalar)
    }
    return String(scalars)
  }

  /// The first `limit` scalars of `text`.
  /// A device's name as another device gave it, made safe to show: a control character (an
  /// escape sequence that would work on the terminal that prints it, a line break) becomes a
  /// space, and it is cut to `deviceNameCharacters`.
  public static func deviceName(_ name: String) -> String {
    let control = { (scalar: Unicode.Scalar) in
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isLineBreak(scalar)
    }
    guard name.unicodeScalars.contains(where: control) || !fits(name, deviceNameCharacters) else {
      return name
    }
    var scalars = String.UnicodeScalarView()
    for scalar in name.unicodeScalars.prefix(deviceNameCharacters) {
      scalars.append(control(scalar) ? " " : scalar)
    }
    return String(scalars)
  }

  public static func cut(_ text: String, _ limit: Int) -> String {
    fits(text, limit) ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
  }

  /// A value an older version may have stored, brought within the limits the same way on every
  /// device (`kind`: `title`, `detail`, `tag`, `created`, or `created text`, a create's time as
  /// text): what the migration to them does to a database's history and its rows, so that no
  /// change of theirs is refused by another device.
  public static func within(_ kind: String, _ value: Any?) -> Any? {
    switch (kind, value) {
    case ("title", let text as String): return cut(oneLine(text), titleCharacters)
    case ("detail", let text as String): return cut(text, detailCharacters)
    case ("tag", let text as String):
      // Cut, then normalized again: a cut may end on a space, which no device takes.
      return TagName.normalized(text).map { TagName.normalized(cut($0, tagNameCharacters)) ?? $0 }
        ?? text
    case ("created", let seconds as Double): return clamp(seconds)
    case ("created text", let text as String):
      guard let seconds = Double(text), !isDate(seconds) else { return text }
      return String(clamp(seconds))
    default: return value
    }
  }

  /// A time brought into the years Docket keeps (no number at all, to 1970).
  static func clamp(_ seconds: Double) -> Double {
    seconds.isNaN ? earliestDate : min(max(seconds, earliestDate), latestDate)
  }

  /// Why `title` and `detail` cannot be stored, or nil when they can.
  public static func problem(title: String, detail: String) -> IssueError? {
    if title.unicodeScalars.contains(where: isLineBreak) { return .titleNotOneLine }
    if !fits(title, titleCharacters) { return .titleTooLong(limit: titleCharacters) }
    if !fits(detail, detailCharacters) { return .detailTooLong(limit: detailCharacters) }
    return nil
  }
}

extension Date {
  /// Whether this is a date Docket keeps (`Limits.isDate`): one outside, from an older version
  /// or a hand edit, is shown as a date that cannot be read, never trusted to arithmetic.
  public var isKept: Bool { Limits.isDate(timeIntervalSince1970) }
}
