import Localization

/// A string catalog, read two ways: whole (as its tests and checks read it) and by outline (as a
/// run reads it, one entry when first asked for). Every text is looked up and formatted, with
/// counts that choose each plural form. When the whole reading succeeds, the outline must give
/// the same texts; when the outline finds the JSON broken, so must the whole reading.
enum CatalogFuzz {
  static let arguments: [[FormatArgument]] = [
    [], [.integer(1)], [.integer(0), .string("x")], [.string("%@ %d %%"), .integer(-7)],
  ]

  static func run(_ bytes: [UInt8]) {
    let whole = try? StringCatalog(bytes: bytes)
    let outlined: StringCatalog
    do {
      outlined = try StringCatalog.outlined(bytes: bytes)
    } catch {
      require(whole == nil, "the outline refused a catalog the whole reading took")
      return
    }
    guard let whole else { return }
    for (key, languages) in whole.entries {
      for language in Array(languages.keys) + ["en", "de", "fr"] {
        for values in arguments {
          let text = whole.string(key, language: language, values)
          require(
            text == outlined.string(key, language: language, values),
            "the outline reads \(key.debugDescription) in \(language) differently")
        }
      }
    }
  }
}
