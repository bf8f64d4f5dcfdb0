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

  /// The language code of a locale name: `de_DE.UTF-8@euro` → `de`.
  public static func languageCode(of locale: String) -> String {
    let end =
      locale.firstIndex { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" } ?? locale.endIndex
    return locale[..<end].lowercased()
  }

  private static func match(_ candidate: String, in supported: [String]) -> String? {
    let code = languageCode(of: candidate)
    return supported.first { $0.lowercased() == code }
  }

  private static func isCLocale(_ locale: String) -> Bool {
    let code = languageCode(of: locale)
    return code == "c" || code == "posix"
  }
}
