import Foundation

/// What is wrong with a string catalog for the languages an app ships: a key the code looks up
/// that the catalog lacks, a language without a value (or with an empty one), a plural without a
/// form its language needs, placeholders that differ between languages, and a key no code uses.
/// `make test` runs it over Docket's catalog and sources.
public enum CatalogCheck {
  public struct Problem: Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String

    public var description: String { "\(key): \(message)" }
  }

  /// What the code asks of the catalog.
  public struct Usage: Sendable {
    /// Keys looked up by name (`l10n("list.summary", …)`).
    public var lookedUp: Set<String> = []
    /// Every string literal that could be a key, and the starts of keys made by interpolation
    /// (`"month.short.\(month)"` gives `month.short.`): a catalog key none of them names is
    /// unused.
    public var literals: Set<String> = []
    public var prefixes: Set<String> = []

    public init(lookedUp: Set<String> = [], literals: Set<String> = [], prefixes: Set<String> = [])
    {
      self.lookedUp = lookedUp
      self.literals = literals
      self.prefixes = prefixes
    }

    /// Adds what one Swift source file asks: keys passed to a localizer by name (`localizer`,
    /// `l10n`, `tr`, `self` called with a literal), every literal, and interpolated key starts.
    public mutating func add(swiftSource source: String) {
      // Comments name keys too (in examples); only code counts.
      let text = source.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        .joined(separator: "\n")
      func matches(_ pattern: String) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap
        {
          Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
      }
      lookedUp.formUnion(matches(#"(?:localizer|self|tr|l10n)\("([a-z][A-Za-z0-9_.-]+)""#))
      literals.formUnion(matches(#""([A-Za-z][A-Za-z0-9_.-]*)""#))
      prefixes.formUnion(matches(#""([A-Za-z][A-Za-z0-9_-]*\.(?:[A-Za-z0-9_-]+\.)*)\\\("#))
    }

    func uses(_ key: String) -> Bool {
      literals.contains(key) || lookedUp.contains(key) || prefixes.contains { key.hasPrefix($0) }
    }
  }

  /// The problems of `catalog` for `languages` (the first is the one placeholders are compared
  /// with), sorted by key.
  public static func problems(
    in catalog: StringCatalog, languages: [String], usage: Usage
  ) -> [Problem] {
    var problems: [Problem] = []
    for key in usage.lookedUp.subtracting(catalog.entries.keys).sorted() {
      problems.append(Problem(key: key, message: "looked up in the code but not in the catalog"))
    }
    for (key, values) in catalog.entries.sorted(by: { $0.key < $1.key }) {
      if !usage.uses(key) {
        problems.append(Problem(key: key, message: "in the catalog but used nowhere in the code"))
      }
      var reference: (language: String, entry: StringCatalog.Entry)?
      for language in languages {
        guard let entry = values[language] else {
          problems.append(Problem(key: key, message: "no \(language) value"))
          continue
        }
        switch entry {
        case .plain(let text):
          if text.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append(Problem(key: key, message: "the \(language) value is empty"))
          }
        case .plural(let forms):
          for category in PluralRules.categories(in: language)
          where forms[category].map({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? true {
            problems.append(
              Problem(key: key, message: "the \(language) plural lacks its “\(category)” form"))
          }
        }
        if let reference {
          if placeholders(reference.entry) != placeholders(entry) {
            problems.append(
              Problem(
                key: key,
                message: "placeholders differ between \(reference.language) and \(language)"))
          }
        } else {
          reference = (language, entry)
        }
      }
    }
    return problems
  }

  /// The placeholders of a value (of a plural's `other` form), in order of their positions:
  /// `%@`, `%lld` and `%d` count as one kind of each.
  static func placeholders(_ entry: StringCatalog.Entry) -> [String] {
    let text: String
    switch entry {
    case .plain(let plain): text = plain
    case .plural(let forms): text = forms[.other] ?? ""
    }
    let expression = try! NSRegularExpression(pattern: #"%(\d+\$)?(l{0,2}d|@|\.\d+f)"#)
    return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
      String(text[Range($0.range, in: text)!]).replacingOccurrences(of: "lld", with: "d")
        .replacingOccurrences(of: "ld", with: "d")
    }.sorted()
  }
}
