/// What a person typed into search, understood: free text and tokens.
///
/// Text words match word prefixes in title or detail; tokens narrow by tag, priority and status.
/// Everything combines with AND, except that several priorities or several statuses are any-of.
public struct SearchQuery: Equatable, Hashable, Sendable {
  public enum Status: String, Sendable, CaseIterable {
    case open
    case completed
  }

  /// Words and quoted phrases, in the order typed.
  public var text: [String]
  /// Words and phrases the issue must not match (`-word`, `-"two words"`).
  public var excludedText: [String]
  /// Tag names the issue must all carry.
  public var tags: [String]
  /// Tag names the issue must not carry.
  public var excludedTags: [String]
  /// Any of these priorities (empty: any priority).
  public var priorities: [Priority]
  public var excludedPriorities: [Priority]
  /// Any of these statuses (empty: as the filter decides).
  public var statuses: [Status]

  public init(
    text: [String] = [], excludedText: [String] = [], tags: [String] = [],
    excludedTags: [String] = [], priorities: [Priority] = [],
    excludedPriorities: [Priority] = [], statuses: [Status] = []
  ) {
    self.text = text
    self.excludedText = excludedText
    self.tags = tags
    self.excludedTags = excludedTags
    self.priorities = priorities
    self.excludedPriorities = excludedPriorities
    self.statuses = statuses
  }

  public static let empty = SearchQuery()

  public var isEmpty: Bool { self == .empty }

  /// True when words are searched for or excluded (the full-text part of a search).
  public var hasText: Bool { !text.isEmpty || !excludedText.isEmpty }

  /// True when a status token decides completion instead of the filter's rule.
  public var overridesCompletion: Bool { !statuses.isEmpty }

  /// The tokens as chips would show them, in canonical form (`tag:"UI Design"`, `priority:high`).
  public var tokens: [String] {
    tags.map { "tag:" + Self.quotedIfNeeded($0) }
      + excludedTags.map { "-tag:" + Self.quotedIfNeeded($0) }
      + priorities.map { "priority:" + $0.name }
      + excludedPriorities.map { "-priority:" + $0.name }
      + statuses.map { "is:" + $0.rawValue }
  }

  /// Everything but the plain words, as chips show it: the tokens, then the exclusions
  /// (`-crash`, `-"two words"`).
  public var chips: [String] {
    tokens + excludedText.map { "-" + Self.quotedIfNeeded($0) }
  }

  /// The plain words, written back as text that parses to them.
  public var plainText: String {
    text.map(Self.quotedIfNeeded).joined(separator: " ")
  }

  /// The query written back as text that parses to the same query.
  public var description: String {
    (text.map(Self.quotedIfNeeded) + excludedText.map { "-" + Self.quotedIfNeeded($0) } + tokens)
      .joined(separator: " ")
  }

  static func quotedIfNeeded(_ value: String) -> String {
    let needsQuotes =
      value.isEmpty || value.contains { $0.isWhitespace || $0 == "\"" || $0 == ":" }
      || value.hasPrefix("-")
    guard needsQuotes else { return value }
    return "\"" + value.replacingOccurrences(of: "\"", with: "") + "\""
  }
}

/// A search token with a known key but a value that means nothing (`priority:urgent`).
public struct SearchSyntaxError: Error, Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case badPriority(String)
    case badStatus(String)
    case emptyValue(key: String)
  }

  public var kind: Kind
  /// The token as typed.
  public var token: String
}
