/// A plural category of the Unicode CLDR rules, as String Catalogs name them.
public enum PluralCategory: String, Sendable, CaseIterable {
  case zero, one, two, few, many, other
}

/// The plural rules for whole numbers of the languages that have them here.
public enum PluralRules {
  /// The category of `count` in `language`; `other` for a language without rules here.
  public static func category(of count: Int, in language: String) -> PluralCategory {
    switch LanguageDetection.languageCode(of: language) {
    case "en", "de", "nl", "sv", "da", "no", "nb", "it", "es":
      // One is singular; zero and everything else are plural ("0 issues", "0 Vorgänge").
      return count == 1 ? .one : .other
    case "fr", "pt":
      return count == 0 || count == 1 ? .one : .other
    case "ja", "zh", "ko":
      return .other
    default:
      return count == 1 ? .one : .other
    }
  }

  /// The categories whole numbers fall into in `language`: the forms a plural needs there.
  public static func categories(in language: String) -> Set<PluralCategory> {
    Set((0...1_000).map { category(of: $0, in: language) })
  }
}
