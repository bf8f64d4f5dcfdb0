import Foundation
import Localization

/// Docket's texts: the `Localizable.xcstrings` catalog shipped with this module.
public enum DocketStrings {
  public static let supportedLanguages = ["en", "de"]

  /// Read once, on first use.
  public static let catalog: StringCatalog = {
    guard let url = Bundle.module.url(forResource: "Localizable", withExtension: "xcstrings") else {
      fatalError("Localizable.xcstrings is missing from Docket's resources: the build is broken")
    }
    do {
      return try StringCatalog(data: Data(contentsOf: url))
    } catch {
      fatalError("Localizable.xcstrings cannot be read: \(error)")
    }
  }()

  /// The language from `--lang` or the environment, and a localizer for it.
  public static func localizer(explicit: String? = nil, environment: [String: String]) -> Localizer
  {
    let language = LanguageDetection.language(
      explicit: explicit, environment: environment, supported: supportedLanguages, fallback: "en")
    return Localizer(catalog: catalog, language: language)
  }

  public static func localizer(language: String) -> Localizer {
    Localizer(catalog: catalog, language: supportedLanguages.contains(language) ? language : "en")
  }
}
