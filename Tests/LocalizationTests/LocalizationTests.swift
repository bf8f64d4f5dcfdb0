import Foundation
import Testing

@testable import Localization

@Suite struct LanguageDetectionTests {
  let supported = ["en", "de"]

  @Test(
    arguments: [
      (nil, ["LANG": "de_DE.UTF-8"], "de"),
      (nil, ["LANG": "en_GB.UTF-8"], "en"),
      (nil, ["LANG": "fr_FR.UTF-8"], "en"),
      (nil, [:], "en"),
      (nil, ["LC_ALL": "de_AT.UTF-8", "LANG": "en_US.UTF-8"], "de"),
      (nil, ["LC_MESSAGES": "de_CH", "LANG": "en_US.UTF-8"], "de"),
      (nil, ["LC_ALL": "", "LANG": "de_DE@euro"], "de"),
      (nil, ["LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"], "de"),
      (nil, ["LANGUAGE": "de", "LANG": "C"], "en"),
      (nil, ["LANGUAGE": "de", "LC_ALL": "POSIX.UTF-8"], "en"),
      ("de", ["LANG": "en_US.UTF-8"], "de"),
      ("DE", [:], "de"),
      ("en", ["LC_ALL": "de_DE.UTF-8"], "en"),
      ("xx", ["LANG": "de_DE.UTF-8"], "de"),
    ] as [(String?, [String: String], String)])
  func choosesTheLanguage(explicit: String?, environment: [String: String], expected: String) {
    let chosen = LanguageDetection.language(
      explicit: explicit, environment: environment, supported: supported, fallback: "en")
    #expect(chosen == expected)
  }
}

@Suite struct PluralRulesTests {
  @Test func englishAndGermanHaveOneAndOther() {
    for language in ["en", "de_DE.UTF-8"] {
      #expect(PluralRules.category(of: 0, in: language) == .other)
      #expect(PluralRules.category(of: 1, in: language) == .one)
      #expect(PluralRules.category(of: 2, in: language) == .other)
      #expect(PluralRules.category(of: 21, in: language) == .other)
    }
    #expect(PluralRules.category(of: 0, in: "fr") == .one)
  }
}

@Suite struct TemplateFormatterTests {
  @Test(
    arguments: [
      ("Hello %@", ["Ada"], "Hello Ada"),
      ("%lld issues", [3], "3 issues"),
      ("%2$@ before %1$@", ["one", "two"], "two before one"),
      ("100%% done", [], "100% done"),
      ("%.1f s", [FormatArgument.double(2.345)], "2.3 s"),
      ("%d of %ld", [1, 2], "1 of 2"),
      ("missing %@", [], "missing "),
      ("odd %y stays", [], "odd %y stays"),
      ("trailing %", [], "trailing %"),
    ] as [(String, [FormatArgument], String)])
  func fillsPlaceholders(template: String, arguments: [FormatArgument], expected: String) {
    #expect(TemplateFormatter.format(template, arguments) == expected)
  }
}

@Suite struct StringCatalogTests {
  static let json = """
    {
      "sourceLanguage" : "en",
      "version" : "1.0",
      "strings" : {
        "greeting" : {
          "localizations" : {
            "en" : { "stringUnit" : { "state" : "translated", "value" : "Hello, %@!" } },
            "de" : { "stringUnit" : { "state" : "translated", "value" : "Hallo, %@!" } }
          }
        },
        "issues.count" : {
          "localizations" : {
            "en" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld issue" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld issues" } }
            } } },
            "de" : { "variations" : { "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Vorgang" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld Vorgänge" } }
            } } }
          }
        },
        "English only" : { }
      }
    }
    """

  let catalog: StringCatalog

  init() throws { catalog = try StringCatalog(data: Data(Self.json.utf8)) }

  @Test func looksUpPlainStringsPerLanguage() {
    #expect(catalog.string("greeting", language: "en", ["Ada"]) == "Hello, Ada!")
    #expect(catalog.string("greeting", language: "de", ["Ada"]) == "Hallo, Ada!")
  }

  @Test func choosesPluralFormsByTheCount() {
    let localizer = Localizer(catalog: catalog, language: "de")
    #expect(localizer("issues.count", 1) == "1 Vorgang")
    #expect(localizer("issues.count", 0) == "0 Vorgänge")
    #expect(catalog.string("issues.count", language: "en", [1]) == "1 issue")
    #expect(catalog.string("issues.count", language: "en", [7]) == "7 issues")
  }

  @Test func fallsBackToTheSourceLanguageThenTheKey() {
    #expect(catalog.string("greeting", language: "fr", ["Ada"]) == "Hello, Ada!")
    #expect(catalog.string("English only", language: "de") == "English only")
    #expect(catalog.string("no.such.key", language: "de") == "no.such.key")
  }

  @Test func refusesMalformedCatalogsWithAClearMessage() {
    let notJSON = #expect(throws: StringCatalog.FormatError.self) {
      _ = try StringCatalog(data: Data("{ nope".utf8))
    }
    #expect(notJSON?.description.contains("not valid JSON") == true)
    let noOther = #expect(throws: StringCatalog.FormatError.self) {
      _ = try StringCatalog(
        data: Data(
          #"{"strings":{"k":{"localizations":{"en":{"variations":{"plural":{"one":{"stringUnit":{"value":"x"}}}}}}}}}"#
            .utf8))
    }
    #expect(noOther?.description.contains("no \"other\"") == true)
  }
}

@Suite struct CatalogReadingTests {
  /// The catalog, read by Docket's own JSON reader, holds what Foundation's reader finds.
  @Test func readsWhatFoundationReads() throws {
    let text = #"""
      {"sourceLanguage": "en", "version": 1.0, "flag": true, "none": null,
       "strings": {"a\"b": {"localizations": {"en": {"stringUnit": {"value": "tab\there \u00fc \ud83d\ude00 \/ \\"}}}},
                   "list": {"localizations": {"de": {"stringUnit": {"value": "Übersetzung"}}}, "tags": [1, "x", []]}}}
      """#
    let catalog = try StringCatalog(bytes: Array(text.utf8))
    #expect(catalog.entries["a\"b"]?["en"] == .plain("tab\there ü 😀 / \\"))
    #expect(catalog.entries["list"]?["de"] == .plain("Übersetzung"))
    // A key without an English value is its own text.
    #expect(catalog.entries["list"]?["en"] == .plain("list"))
    let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    let strings = foundation?["strings"] as? [String: Any]
    #expect(Set(strings?.keys ?? [:].keys) == Set(catalog.entries.keys))
  }

  /// The outline and the whole reading take a repeated key the same way: the last one counts.
  @Test func bothReadingsAgreeOnARepeatedSourceLanguage() throws {
    for text in [
      #"{"sourceLanguage":"de","sourceLanguage":0,"strings":{"k":{"localizations":{"de":{"stringUnit":{"value":"D"}}}}}}"#,
      #"{"sourceLanguage":0,"sourceLanguage":"de","strings":{"k":{"localizations":{"de":{"stringUnit":{"value":"D"}}}}}}"#,
    ] {
      let whole = try StringCatalog(bytes: Array(text.utf8))
      let outlined = try StringCatalog.outlined(bytes: Array(text.utf8))
      #expect(whole.sourceLanguage == outlined.sourceLanguage, "\(text)")
      #expect(
        whole.string("k", language: "fr") == outlined.string("k", language: "fr"), "\(text)")
    }
  }

  @Test func malformedTextIsAClearErrorNamingWhere() {
    let cases: [(String, String)] = [
      ("", "the text ends too soon at line 1, column 1"),
      ("{\"strings\": {", "the text ends too soon at line 1, column 14"),
      ("[1, ", "the text ends too soon"),
      ("{\"strings\": {}} x", "expected the end of the file, found “x” at line 1, column 17"),
      ("{\"strings\" {}}", "expected ':', found “{”"),
      ("{\"a\": 1 \"b\": 2}", "expected ',' or '}', found “\"”"),
      ("{\"a\": [1 2]}", "expected ',' or ']', found “2”"),
      ("{\"a\": [], \"b\": {}, \"c\": [[], {}] ]", "expected ',' or '}', found “]”"),
      ("{\"a\": \"\\q\"}", "an unknown escape"),
      ("{\"a\": \"\\ud800\"}", "a lone surrogate"),
      ("{\"a\": \"line\nbreak\"}", "a control character inside a string at line 1, column 12"),
      (String(repeating: "[", count: 600), "nested too deeply"),
    ]
    for (text, reason) in cases {
      #expect(throws: StringCatalog.FormatError.self, "\(text.debugDescription)") {
        try StringCatalog(bytes: Array(text.utf8))
      }
      do {
        _ = try StringCatalog(bytes: Array(text.utf8))
      } catch {
        #expect("\(error)".contains(reason), "\(text.debugDescription): \(error)")
      }
    }
    // The outline, which reads values only when asked, refuses malformed structure at once.
    for text in ["", "{\"strings\": {", "{\"strings\": {}} x", "{\"strings\" {}}", "[1, "] {
      #expect(throws: StringCatalog.FormatError.self, "\(text.debugDescription)") {
        try StringCatalog.outlined(bytes: Array(text.utf8))
      }
    }
    // Bytes that are not UTF-8 inside a string.
    #expect(throws: StringCatalog.FormatError.self) {
      try StringCatalog(bytes: Array("{\"a\": \"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8))
    }
  }
}
