import Foundation
import Localization

/// What is typed in the search field: chips (tokens chosen from suggestions) and free text,
/// which may hold tokens typed by hand.
public struct SearchField: Equatable, Sendable {
  public var chips: [String] = []
  public var text: String = ""

  public init(chips: [String] = [], text: String = "") {
    self.chips = chips
    self.text = text
  }

  /// The whole search as one line of the search syntax.
  public var fullText: String { (chips + [text]).filter { !$0.isEmpty }.joined(separator: " ") }

  public var isEmpty: Bool { chips.isEmpty && text.trimmingCharacters(in: .whitespaces).isEmpty }

  /// The search understood, or the error of a known key with a bad value. A `#word` still being
  /// typed is a suggestion in the making, not text to search for.
  public func parse() -> Result<SearchQuery, SearchSyntaxError> {
    let line = SearchField(chips: chips, text: textWithoutFragment).fullText
    return Result { () throws(SearchSyntaxError) in try SearchParser.parse(line) }
  }

  /// The word after the last `#`, when the text ends in one being typed: what suggestions narrow by.
  public var suggestionFragment: String? {
    guard let hash = text.lastIndex(of: "#") else { return nil }
    let fragment = text[text.index(after: hash)...]
    guard !fragment.contains(where: \.isWhitespace) else { return nil }
    let before = text[..<hash]
    guard before.isEmpty || before.last?.isWhitespace == true else { return nil }
    return String(fragment)
  }

  /// The text without the `#fragment` being typed (and the spaces before it).
  public var textWithoutFragment: String {
    guard suggestionFragment != nil, let hash = text.lastIndex(of: "#") else { return text }
    var kept = String(text[..<hash])
    while kept.last?.isWhitespace == true { kept.removeLast() }
    return kept
  }

  /// The field once Enter is pressed: what the typed text holds besides plain words (tokens
  /// typed by hand, exclusions) joins the chips, and the plain words stay text. Text that does
  /// not parse stays as it is, for its message to be read.
  public func submitted() -> SearchField {
    guard suggestionFragment == nil, let query = try? SearchParser.parse(text) else { return self }
    var field = SearchField(chips: chips, text: query.plainText)
    for chip in query.chips where !field.chips.contains(chip) { field.chips.append(chip) }
    return field
  }

  /// Turns the `#fragment` being typed into a chip for `token`.
  public mutating func choose(_ token: String) {
    text = textWithoutFragment
    if !chips.contains(token) { chips.append(token) }
  }
}
