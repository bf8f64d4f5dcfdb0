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
      "the embedded catalog is out of date: run `make catalog`")
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

  @Test func placeholdersAgreeBetweenLanguages() {
    let pattern = try! NSRegularExpression(pattern: "%(\\d+\\$)?(l{0,2}d|@|\\.\\df)")
    func placeholders(_ text: String) -> [String] {
      pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
        String(text[Range($0.range, in: text)!]).replacingOccurrences(of: "lld", with: "d")
      }.sorted()
    }
    for (key, languages) in DocketStrings.catalog.entries {
      guard case .plain(let english)? = languages["en"], case .plain(let german)? = languages["de"]
      else { continue }
      #expect(placeholders(english) == placeholders(german), "\(key) differs in placeholders")
    }
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
