import Localization

/// Docket's texts: the `Localizable.xcstrings` catalog, embedded in the binary
/// (`embeddedCatalogJSON`, written into the build folder by the EmbedResources plugin).
public enum DocketStrings {
  public static let supportedLanguages = ["en", "de"]

  /// Made on the first text asked for, from the outline worked out at build time: a run reads
  /// only the entries of the texts it shows (working the outline out from the text at every
  /// start would be a large part of a short command's time).
  public static let catalog: StringCatalog = {
    let outline = embeddedOutline
    return StringCatalog.outlined(
      bytes: Array(embeddedCatalogJSON.utf8), sourceLanguage: outline.sourceLanguage,
      ranges: outline.ranges)
  }()

  /// The embedded catalog's text, for the test that keeps it equal to the catalog file.
  public static var embeddedCatalogText: String { embeddedCatalogJSON }

  /// The outline worked out at build time; a test keeps it equal to the one read from the text.
  public static var embeddedOutline: (sourceLanguage: String, ranges: [String: Range<Int>]) {
    var ranges: [String: Range<Int>] = [:]
    ranges.reserveCapacity(embeddedCatalogOutline.count)
    for entry in embeddedCatalogOutline { ranges[entry.key] = entry.start..<entry.end }
    return (embeddedCatalogSourceLanguage, ranges)
  }

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
