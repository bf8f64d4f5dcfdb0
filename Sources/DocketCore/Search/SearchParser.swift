import Foundation

/// Turns typed text into a `SearchQuery`.
///
/// Terms are separated by white space; double quotes group a term with spaces (`tag:"UI Design"`,
/// `"exact words"`), an unclosed quote running to the end. A term `key:value` with a known key is
/// a token (`tag`, `priority`/`p`, `is`), and a leading `-` negates it; an unknown key is plain
/// text. A leading `-` on text (`-crash`, `-"two words"`) excludes what matches it. Nothing a person types makes the parser fail except a known key with a bad value.
public enum SearchParser {
  public static func parse(_ input: String) throws(SearchSyntaxError) -> SearchQuery {
    var query = SearchQuery()
    for term in terms(of: input) {
      try apply(term, to: &query)
    }
    return query
  }

  struct Term: Equatable {
    /// The term as typed, quotes included.
    var raw: String
    /// Quotes removed.
    var unquoted: String
    /// Where the first quote stood in `unquoted`, if anywhere: a token key must come before it.
    var firstQuoteOffset: Int?
  }

  static func terms(of input: String) -> [Term] {
    var terms: [Term] = []
    var raw = ""
    var unquoted = ""
    var firstQuote: Int?
    var inQuotes = false
    func finish() {
      if !raw.isEmpty {
        terms.append(Term(raw: raw, unquoted: unquoted, firstQuoteOffset: firstQuote))
      }
      raw = ""
      unquoted = ""
      firstQuote = nil
    }
    for character in input {
      if character == "\"" {
        if firstQuote == nil { firstQuote = unquoted.count }
        inQuotes.toggle()
        raw.append(character)
      } else if character.isWhitespace, !inQuotes {
        finish()
      } else {
        raw.append(character)
        unquoted.append(character)
      }
    }
    finish()
    return terms
  }

  private static func apply(_ term: Term, to query: inout SearchQuery) throws(SearchSyntaxError) {
    var body = Substring(term.unquoted)
    var negated = false
    var keyLimit = term.firstQuoteOffset ?? Int.max
    if body.hasPrefix("-"), term.firstQuoteOffset != 0 {
      negated = true
      body = body.dropFirst()
      keyLimit -= 1
    }
    guard let colon = body.firstIndex(of: ":"),
      body.distance(from: body.startIndex, to: colon) <= keyLimit
    else {
      addText(String(body), negated: negated, to: &query)
      return
    }
    let key = body[..<colon].lowercased()
    let value = String(body[body.index(after: colon)...])
    switch key {
    case "tag", "t":
      guard let name = TagName.normalized(value) else {
        throw SearchSyntaxError(kind: .emptyValue(key: "tag"), token: term.raw)
      }
      if negated {
        if !query.excludedTags.contains(where: { TagName.key($0) == TagName.key(name) }) {
          query.excludedTags.append(name)
        }
      } else if !query.tags.contains(where: { TagName.key($0) == TagName.key(name) }) {
        query.tags.append(name)
      }
    case "priority", "p":
      guard let priority = Priority(name: try required(value, key: "priority", term)) else {
        throw SearchSyntaxError(kind: .badPriority(value), token: term.raw)
      }
      if negated {
        if !query.excludedPriorities.contains(priority) {
          query.excludedPriorities.append(priority)
        }
      } else if !query.priorities.contains(priority) {
        query.priorities.append(priority)
      }
    case "is", "status":
      guard var status = status(named: try required(value, key: "is", term)) else {
        throw SearchSyntaxError(kind: .badStatus(value), token: term.raw)
      }
      if negated { status = status == .open ? .completed : .open }
      if !query.statuses.contains(status) { query.statuses.append(status) }
    default:
      addText(String(body), negated: negated, to: &query)
    }
  }

  /// The value of `key:`, which may not be empty.
  private static func required(_ value: String, key: String, _ term: Term) throws(SearchSyntaxError)
    -> String
  {
    guard !value.isEmpty else {
      throw SearchSyntaxError(kind: .emptyValue(key: key), token: term.raw)
    }
    return value
  }

  static func status(named name: String) -> SearchQuery.Status? {
    switch name.lowercased() {
    case "open", "o": return .open
    case "completed", "closed", "done", "c": return .completed
    default: return nil
    }
  }

  /// Free text, or with a leading `-` text the issue must not match (a lone `-` is nothing).
  private static func addText(_ body: String, negated: Bool, to query: inout SearchQuery) {
    let text = body.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else { return }
    // An exclusion with no letters or digits (`--`, `-***`) would exclude nothing: it is dropped.
    if negated, FullTextExpression.words(of: text).isEmpty { return }
    if negated {
      query.excludedText.append(text)
    } else {
      query.text.append(text)
    }
  }
}
