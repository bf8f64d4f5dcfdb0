import Localization

/// Docket's texts: the `Localizable.xcstrings` catalog, embedded in the binary
/// (`Generated/EmbeddedCatalog.swift`, written by `make catalog`).
public enum DocketStrings {
  public static let supportedLanguages = ["en", "de"]

  /// Read once, on the first text asked for: a run that prints none never reads it.
  public static let catalog: StringCatalog = {
    do {
      return try StringCatalog.outlined(bytes: Array(embeddedCatalogJSON.utf8))
    } catch {
      fatalError("the embedded string catalog cannot be read: \(error)")
    }
  }()

  /// The embedded catalog's text, for the test that keeps it equal to the catalog file.
  public static var embeddedCatalogText: String { embeddedCatalogJSON }

  /// The language from `--lang` or the environment, and a localizer for it.
  public static func localizer(explicit: String? = nil, environment: [String: String]) -> Localizer
  {
    let language = LanguageDetection.language(
      explicit: explicit, environment: environment, supported: supportedLanguages, fallback: "en")
    return Localizer(language: language) { catalog }
  }

  public static func localizer(language: String) -> Localizer {
    Localizer(language: supportedLanguages.contains(language) ? language : "en") { catalog }
  }
}
