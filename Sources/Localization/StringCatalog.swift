import Foundation
import JSONText
import Locking

/// The strings of a `Localizable.xcstrings` file (Apple's String Catalog JSON), read by the
/// project's own code: plain strings and plural variations, per language.
///
/// Foundation's own lookup (`NSLocalizedString`) is not used: on Linux it cannot read String
/// Catalogs and crashes on plural dictionaries.
public struct StringCatalog: Sendable {
  public enum Entry: Sendable, Equatable {
    case plain(String)
    case plural([PluralCategory: String])
  }

  public let sourceLanguage: String
  private let storage: Storage

  /// Every entry read up front, or the text and where each key's value lies, read on first use.
  private enum Storage: Sendable {
    case read([String: [String: Entry]])
    case outlined(LazyEntries)
  }

  /// key → language → entry (a catalog read lazily reads every entry for this).
  public var entries: [String: [String: Entry]] {
    switch storage {
    case .read(let entries): return entries
    case .outlined(let lazy):
      var all: [String: [String: Entry]] = [:]
      for key in lazy.ranges.keys { all[key] = languages(of: key) }
      return all
    }
  }

  /// The values of `key` per language, nil when the catalog has no such key.
  func languages(of key: String) -> [String: Entry]? {
    switch storage {
    case .read(let entries): return entries[key]
    case .outlined(let lazy): return lazy.languages(of: key, source: sourceLanguage)
    }
  }

  public struct FormatError: Error, CustomStringConvertible {
    public var description: String
  }

  public init(sourceLanguage: String, entries: [String: [String: Entry]]) {
    self.sourceLanguage = sourceLanguage
    self.storage = .read(entries)
  }

  /// Reads a catalog's outline only: each entry is read the first time it is asked for, so a run
  /// that needs ten texts reads ten entries. The JSON is checked whole at once; an entry that
  /// turns out to be malformed when read counts as missing (the catalog's tests read every one).
  public static func outlined(bytes: [UInt8]) throws -> StringCatalog {
    let outline = try outline(of: bytes)
    return outlined(bytes: bytes, sourceLanguage: outline.sourceLanguage, ranges: outline.ranges)
  }

  /// A catalog whose outline was worked out before, as `outline(of:)` gives it: nothing of the
  /// text is read until a text is asked for (an outline made when the program was built, kept
  /// equal to what `outline(of:)` reads by a test). A range outside the text, or one that holds
  /// no entry, counts as missing.
  public static func outlined(
    bytes: [UInt8], sourceLanguage: String, ranges: [String: Range<Int>]
  ) -> StringCatalog {
    StringCatalog(
      sourceLanguage: sourceLanguage,
      storage: .outlined(LazyEntries(bytes: bytes, ranges: ranges)))
  }

  /// The source language (`en` when the catalog names none) and where in the text the value of
  /// each key of `strings` lies. The whole text is checked: malformed JSON is refused here.
  public static func outline(of bytes: [UInt8]) throws -> (
    sourceLanguage: String, ranges: [String: Range<Int>]
  ) {
    var reader = JSONReader(bytes: bytes)
    var source = "en"
    var ranges: [String: Range<Int>] = [:]
    do {
      try reader.forEachMember { name, reader in
        guard name == "strings", reader.peek() == UInt8(ascii: "{") else {
          let value = try reader.readValue()
          // As the whole reading does: the last member of a repeated key counts.
          if name == "sourceLanguage" { source = value.string ?? "en" }
          return
        }
        // The entries are found, not kept: each is read again when first asked for.
        try reader.forEachMember { key, reader in
          _ = reader.peek()
          let start = reader.byteOffset
          _ = try reader.readValue()
          ranges[key] = start..<reader.byteOffset
        }
      }
      guard reader.isAtEnd else { throw reader.unexpected("the end of the file") }
    } catch {
      throw FormatError(description: "the string catalog is not valid JSON: \(error)")
    }
    return (source, ranges)
  }

  private init(sourceLanguage: String, storage: Storage) {
    self.sourceLanguage = sourceLanguage
    self.storage = storage
  }

  /// The entry of one key from its JSON value.
  static func languages(_ value: JSON, key: String, source: String) throws -> [String: Entry] {
    guard case .object = value else {
      throw FormatError(description: "the entry for \"\(key)\" is not an object")
    }
    var languages: [String: Entry] = [:]
    if case .object(let localizations)? = value["localizations"] {
      for member in localizations {
        let (language, localization) = member
        guard case .object = localization else { continue }
        if let entry = try Self.entry(localization, key: key, language: language) {
          languages[language] = entry
        }
      }
    }
    // A key with no source-language value is its own text, as Xcode treats it.
    if languages[source] == nil { languages[source] = .plain(key) }
    return languages
  }

  /// Reads a catalog from its JSON text.
  public init(data: Data) throws {
    try self.init(bytes: Array(data))
  }

  /// Reads a catalog from its JSON text, as UTF-8 bytes.
  public init(bytes: [UInt8]) throws {
    let root: JSON
    do {
      root = try JSONReader.document(bytes)
    } catch {
      throw FormatError(description: "the string catalog is not valid JSON: \(error)")
    }
    guard case .object(let strings)? = root["strings"] else {
      throw FormatError(description: "the string catalog has no \"strings\" object")
    }
    let source = root["sourceLanguage"]?.string ?? "en"
    var entries: [String: [String: Entry]] = [:]
    entries.reserveCapacity(strings.count)
    for member in strings {
      entries[member.0] = try Self.languages(member.1, key: member.0, source: source)
    }
    self.init(sourceLanguage: source, entries: entries)
  }

  static func entry(_ localization: JSON, key: String, language: String) throws
    -> Entry?
  {
    if let unit = localization["stringUnit"] {
      guard let value = unit["value"]?.string else {
        throw FormatError(
          description: "\"\(key)\" in \(language) has a string unit without a value")
      }
      return .plain(value)
    }
    if case .object(let plural)? = localization["variations"]?["plural"] {
      var forms: [PluralCategory: String] = [:]
      for member in plural {
        let (name, form) = member
        guard let category = PluralCategory(rawValue: name),
          let value = form["stringUnit"]?["value"]?.string
        else {
          throw FormatError(
            description: "\"\(key)\" in \(language) has a malformed plural form \"\(name)\"")
        }
        forms[category] = value
      }
      guard forms[.other] != nil else {
        throw FormatError(
          description: "\"\(key)\" in \(language) has plural forms but no \"other\"")
      }
      return .plural(forms)
    }
    return nil
  }

  /// The languages that have at least one value.
  public var languages: Set<String> {
    Set(entries.values.flatMap { $0.keys })
  }

  /// The template for `key` in `language` (falling back to the source language, then the key),
  /// choosing a plural form by the first integer argument.
  public func template(_ key: String, language: String, arguments: [FormatArgument]) -> String {
    guard let languages = languages(of: key) else { return key }
    guard let entry = languages[language] ?? languages[sourceLanguage] else { return key }
    let chosenLanguage = languages[language] != nil ? language : sourceLanguage
    switch entry {
    case .plain(let text):
      return text
    case .plural(let forms):
      let count =
        arguments.lazy.compactMap { argument -> Int? in
          if case .integer(let number) = argument { return number }
          return nil
        }.first ?? 0
      let category = PluralRules.category(of: count, in: chosenLanguage)
      return forms[category] ?? forms[.other] ?? key
    }
  }

  /// The text for `key` in `language` with its arguments filled in.
  public func string(_ key: String, language: String, _ arguments: [FormatArgument] = []) -> String
  {
    TemplateFormatter.format(template(key, language: language, arguments: arguments), arguments)
  }
}

/// A catalog and the language chosen for this run: what every piece of text is asked from.
///
/// The catalog may be handed over lazily, so that a run that prints no text (`--version`)
/// never reads it.
public struct Localizer: Sendable {
  private let load: @Sendable () -> StringCatalog
  public let language: String
  /// Applied to every text argument before it is put in a string (see `filteringArguments`).
  private var argumentFilter: (@Sendable (String) -> String)?

  public init(catalog: StringCatalog, language: String) {
    self.load = { catalog }
    self.language = language
  }

  /// A localizer that reads its catalog from `catalog` on first use.
  public init(language: String, catalog: @escaping @Sendable () -> StringCatalog) {
    self.load = catalog
    self.language = language
  }

  public var catalog: StringCatalog { load() }

  /// The same localizer, passing every text argument through `filter` first: a program that
  /// shows messages on a terminal makes the data in them safe this way, in one place.
  public func filteringArguments(_ filter: @escaping @Sendable (String) -> String) -> Localizer {
    var copy = self
    copy.argumentFilter = filter
    return copy
  }

  public func callAsFunction(_ key: String, _ arguments: FormatArgument...) -> String {
    string(key, arguments)
  }

  public func string(_ key: String, _ arguments: [FormatArgument]) -> String {
    guard let argumentFilter else { return catalog.string(key, language: language, arguments) }
    let filtered = arguments.map { argument -> FormatArgument in
      if case .string(let text) = argument { return .string(argumentFilter(text)) }
      return argument
    }
    return catalog.string(key, language: language, filtered)
  }
}

/// The entries of an outlined catalog, each read from the text on first use and kept.
final class LazyEntries: Sendable {
  let bytes: [UInt8]
  let ranges: [String: Range<Int>]
  private let read = Locked<[String: [String: StringCatalog.Entry]]>([:])

  init(bytes: [UInt8], ranges: [String: Range<Int>]) {
    self.bytes = bytes
    self.ranges = ranges
  }

  func languages(of key: String, source: String) -> [String: StringCatalog.Entry]? {
    if let known = read.withLock({ $0[key] }) { return known }
    guard let range = ranges[key], range.lowerBound >= 0, range.upperBound <= bytes.count,
      let value = try? JSONReader.document(Array(bytes[range])),
      let languages = try? StringCatalog.languages(value, key: key, source: source)
    else { return nil }
    read.withLock { $0[key] = languages }
    return languages
  }
}
