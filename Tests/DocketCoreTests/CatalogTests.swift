import Foundation
import Localization
import Testing

@testable import DocketCore

@Suite struct CatalogTests {
  static let sourcesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// The binary carries the catalog as text; it must be the catalog file as it is now.
  @Test func theEmbeddedCatalogIsTheCatalogFile() throws {
    let file = Self.sourcesFolder.appendingPathComponent(
      "DocketCore/Resources/Localizable.xcstrings")
    var text = try String(contentsOf: file, encoding: .utf8)
    if text.hasSuffix("\n") { text.removeLast() }
    #expect(
      DocketStrings.embeddedCatalogText == text,
      "the embedded catalog is not the catalog file")
  }

  /// A run finds its texts through the outline worked out at build time. Checked against
  /// Foundation's own JSON reader, not the one that made it: every key of the catalog has a
  /// range, and the bytes there are that key's value; and the texts are the ones read whole.
  @Test func theEmbeddedOutlineLeadsToEachKeysValue() throws {
    let bytes = Array(DocketStrings.embeddedCatalogText.utf8)
    let whole = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    let strings = try #require(whole?["strings"] as? [String: Any])
    let embedded = DocketStrings.embeddedOutline
    #expect(embedded.sourceLanguage == whole?["sourceLanguage"] as? String)
    #expect(Set(embedded.ranges.keys) == Set(strings.keys))
    for (key, range) in embedded.ranges {
      let value = try JSONSerialization.jsonObject(
        with: Data(bytes[range]), options: [.fragmentsAllowed])
      #expect(
        (value as? NSDictionary) == (strings[key] as? NSDictionary),
        "the outline of \(key) is wrong")
    }
    #expect(DocketStrings.catalog.entries == (try StringCatalog(bytes: bytes)).entries)
  }

  /// A range outside the text, or over something that is not an entry, counts as missing.
  @Test func anOutlineThatMissesTheTextFindsNothing() {
    let text = #"{"strings": {"a": {"localizations": {"en": {"stringUnit": {"value": "A!"}}}}}}"#
    let catalog = StringCatalog.outlined(
      bytes: Array(text.utf8), sourceLanguage: "en",
      ranges: ["a": 18..<76, "b": 18..<76, "far": 30..<400, "broken": 3..<9])
    #expect(catalog.string("a", language: "de") == "A!")
    #expect(catalog.string("b", language: "en") == "A!")
    #expect(catalog.string("far", language: "en") == "far")
    #expect(catalog.string("broken", language: "en") == "broken")
  }

  /// The app reads the catalog lazily, entry by entry; read so, it holds exactly what reading it
  /// whole gives.
  @Test func readingLazilyGivesTheSameEntries() throws {
    let bytes = Array(DocketStrings.embeddedCatalogText.utf8)
    let whole = try StringCatalog(bytes: bytes)
    let outlined = try StringCatalog.outlined(bytes: bytes)
    #expect(outlined.entries == whole.entries)
    #expect(outlined.sourceLanguage == whole.sourceLanguage)
    for key in ["list.summary", "award.closed.description", "no such key"] {
      for language in ["en", "de", "fr"] {
        for count in [0, 1, 2] {
          #expect(
            outlined.string(key, language: language, [.integer(count)])
              == whole.string(key, language: language, [.integer(count)]))
        }
      }
    }
  }

  @Test func everyKeyHasEnglishAndGerman() {
    let catalog = DocketStrings.catalog
    #expect(!catalog.entries.isEmpty)
    for (key, languages) in catalog.entries {
      for language in DocketStrings.supportedLanguages {
        #expect(languages[language] != nil, "\(key) has no \(language) value")
      }
      if case .plural(let english)? = languages["en"], case .plural(let german)? = languages["de"] {
        #expect(english[.one] != nil && german[.one] != nil, "\(key) lacks a singular form")
      }
    }
  }

  /// What the sources ask of the catalog: every Swift file, and the keys made from data.
  static func usage() throws -> CatalogCheck.Usage {
    var usage = CatalogCheck.Usage()
    let files = FileManager.default.enumerator(
      at: sourcesFolder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      usage.add(swiftSource: try String(contentsOf: file, encoding: .utf8))
    }
    for award in Award.all {
      usage.lookedUp.insert(award.nameKey)
      usage.lookedUp.insert(award.descriptionKey)
    }
    for priority in Priority.allCases { usage.lookedUp.insert("priority.\(priority.name)") }
    for status in SearchQuery.Status.allCases { usage.lookedUp.insert("status.\(status.rawValue)") }
    return usage
  }

  /// The catalog check of `make test`: every key the code looks up is there with English and
  /// German values, every plural has the forms its language needs, placeholders agree, and no
  /// key is left that nothing uses.
  @Test func theCatalogPassesItsCheck() throws {
    let problems = CatalogCheck.problems(
      in: DocketStrings.catalog, languages: DocketStrings.supportedLanguages,
      usage: try Self.usage())
    #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
  }

  /// The check fails where it should: on a fixture with a German value missing, an empty one, a
  /// plural without its singular, a placeholder lost in translation, a key used nowhere and a
  /// key the code asks for that is not there.
  @Test func theCheckFindsWhatIsWrongInAFixture() throws {
    let fixture = try StringCatalog(
      bytes: Array(
        #"""
        {
          "sourceLanguage": "en",
          "strings": {
            "fine": {"localizations": {
              "en": {"stringUnit": {"value": "Fine %@"}},
              "de": {"stringUnit": {"value": "Gut %@"}}}},
            "german.missing": {"localizations": {
              "en": {"stringUnit": {"value": "Only English"}}}},
            "german.empty": {"localizations": {
              "en": {"stringUnit": {"value": "Something"}},
              "de": {"stringUnit": {"value": " "}}}},
            "count": {"localizations": {
              "en": {"variations": {"plural": {
                "one": {"stringUnit": {"value": "%lld issue"}},
                "other": {"stringUnit": {"value": "%lld issues"}}}}},
              "de": {"variations": {"plural": {
                "other": {"stringUnit": {"value": "%lld Vorgänge"}}}}}}},
            "lost.placeholder": {"localizations": {
              "en": {"stringUnit": {"value": "Tag %@ renamed"}},
              "de": {"stringUnit": {"value": "Tag umbenannt"}}}},
            "unused": {"localizations": {
              "en": {"stringUnit": {"value": "Nobody"}},
              "de": {"stringUnit": {"value": "Niemand"}}}}
          }
        }
        """#.utf8))
    var usage = CatalogCheck.Usage()
    usage.add(
      swiftSource: """
        let a = l10n("fine", .string(name))
        let b = l10n("german.missing")
        let c = localizer("german.empty")
        let d = l10n("count", .integer(3))
        let e = l10n("lost.placeholder", .string(name))
        let f = l10n("not.in.catalog")
        """)
    let problems = CatalogCheck.problems(in: fixture, languages: ["en", "de"], usage: usage)
    #expect(
      problems.map(\.description) == [
        "not.in.catalog: looked up in the code but not in the catalog",
        "count: the de plural lacks its “one” form",
        "german.empty: the de value is empty",
        "german.missing: no de value",
        "lost.placeholder: placeholders differ between en and de",
        "unused: in the catalog but used nowhere in the code",
      ])
    // Keys made by interpolation (with a dot before it) count as used.
    var prefixed = CatalogCheck.Usage()
    prefixed.add(swiftSource: #"let month = l10n("month.short.\(index)")"#)
    #expect(prefixed.prefixes == ["month.short."])
    usage.add(swiftSource: #"let g = l10n("unused\(suffix)")"#)
    #expect(
      CatalogCheck.problems(in: fixture, languages: ["en"], usage: usage).contains {
        $0.key == "unused"
      })
    usage.prefixes.insert("unu")
    #expect(
      !CatalogCheck.problems(in: fixture, languages: ["en"], usage: usage).contains {
        $0.key == "unused"
      })
  }

  /// Every literal key looked up in the sources (`localizer("key"`, `self("key"`, `tr("key"`)
  /// and every computed award key is in the catalog.
  @Test func everyUsedKeyIsInTheCatalog() throws {
    let pattern = try NSRegularExpression(
      pattern: #"(?:localizer|self|tr|l10n)\("([a-z][A-Za-z0-9_.-]+)""#)
    var used: Set<String> = []
    let files = FileManager.default.enumerator(
      at: Self.sourcesFolder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        used.insert(String(text[Range(match.range(at: 1), in: text)!]))
      }
    }
    for award in Award.all {
      used.insert(award.nameKey)
      used.insert(award.descriptionKey)
    }
    for priority in Priority.allCases { used.insert("priority.\(priority.name)") }
    for status in SearchQuery.Status.allCases { used.insert("status.\(status.rawValue)") }
    #expect(used.count > 20)
    let missing = used.subtracting(DocketStrings.catalog.entries.keys)
    #expect(missing.isEmpty, "keys missing from Localizable.xcstrings: \(missing.sorted())")
  }

  @Test func errorsReadWellInBothLanguages() {
    let english = DocketStrings.localizer(language: "en")
    let german = DocketStrings.localizer(language: "de")
    let error = SearchSyntaxError(kind: .badPriority("urgent"), token: "priority:urgent")
    #expect(
      english.message(for: error)
        == "Unknown priority “urgent” in priority:urgent: use low, medium or high.")
    #expect(german.message(for: error).hasPrefix("Unbekannte Priorität „urgent“"))
    #expect(
      english.message(for: SampleData.Failure.databaseNotEmpty(issues: 1, tags: 0)).contains(
        "1 issue;"))
    #expect(
      german.message(for: SampleData.Failure.databaseNotEmpty(issues: 3, tags: 0)).contains(
        "3 Vorgänge"))
    #expect(german.name(of: Priority.high) == "Hoch")
  }
}
