/// Chooses the language to speak from an explicit choice and the POSIX locale variables.
///
/// Foundation's `Locale.preferredLanguages` ignores `LANG` on Linux, so the environment is read
/// here, in gettext's order: `LANGUAGE` (a colon-separated priority list, ignored when the locale
/// is `C` or `POSIX`), then `LC_ALL`, `LC_MESSAGES`, `LANG`.
public enum LanguageDetection {
  /// The first of `supported` that the user asked for, else `fallback`.
  /// - Parameters:
  ///   - explicit: a choice made on the command line (`--lang de`), which wins when supported.
  public static func language(
    explicit: String? = nil, environment: [String: String], supported: [String], fallback: String
  ) -> String {
    if let explicit, let match = match(explicit, in: supported) { return match }
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
      .lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    var candidates: [String] = []
    if locale.map({ !isCLocale($0) }) ?? true, let list = environment["LANGUAGE"] {
      candidates += list.split(separator: ":").map(String.init)
    }
    if let locale { candidates.append(locale) }
    for candidate in candidates {
      if let match = match(candidate, in: supported) { return match }
    }
    return fallback
  }

  /// The first supported language of an HTTP `Accept-Language` header (`de-CH, de;q=0.9,
  /// en;q=0.8`), by weight and then by order; nil when none is supported or the header is empty.
  public static func language(acceptLanguage header: String, supported: [String]) -> String? {
    var ranked: [(code: String, weight: Double, order: Int)] = []
    for (order, part) in header.split(separator: ",").enumerated() {
      let pieces = part.split(separator: ";").map {
        String(
          $0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        )
      }
      guard let tag = pieces.first, !tag.isEmpty else { continue }
      var weight = 1.0
      for piece in pieces.dropFirst() where piece.hasPrefix("q=") {
        weight = Double(piece.dropFirst(2)) ?? 0
      }
      guard weight > 0 else { continue }
      ranked.append((tag, weight, order))
    }
    ranked.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }
    for candidate in ranked {
      if let match = match(candidate.code, in: supported) { return match }
    }
    return nil
  }

  /// The language code of a locale name: `de_DE.UTF-8@euro` → `de`.
  public static func languageCode(of locale: String) -> String {
    let end =
      locale.firstIndex { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" } ?? locale.endIndex
    return locale[..<end].lowercased()
  }

  /// The supported language a language or locale names (`de`, `de_DE.UTF-8`, `de-CH`), if any.
  public static func match(_ candidate: String, in supported: [String]) -> String? {
    let code = languageCode(of: candidate)
    return supported.first { $0.lowercased() == code }
  }

  private static func isCLocale(_ locale: String) -> Bool {
    let code = languageCode(of: locale)
    return code == "c" || code == "posix"
  }
}
