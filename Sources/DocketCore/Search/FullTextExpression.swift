/// Builds the FTS5 MATCH expression for the text of a search.
///
/// Nothing a person types reaches FTS5's syntax: each term is cut into words of letters and
/// digits (what the `unicode61` tokenizer indexes), the words of one term become one quoted
/// phrase, and the phrase's last word matches as a prefix. `20.04` becomes `"20 04"*`, `C++`
/// becomes `"C"*`, and a term with no letters or digits (`***`, `🙂`) narrows nothing.
public enum FullTextExpression {
  /// Nil when no term has a word to search for.
  public static func expression(for terms: [String]) -> String? {
    let phrases = terms.compactMap { term -> String? in
      let words = words(of: term)
      guard !words.isEmpty else { return nil }
      return "\"" + words.joined(separator: " ") + "\"*"
    }
    return phrases.isEmpty ? nil : phrases.joined(separator: " AND ")
  }

  /// The searchable words of a term; combining marks stay with the letter they follow.
  static func words(of term: String) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    var hasLetterOrDigit = false
    func finish() {
      if hasLetterOrDigit { words.append(String(current)) }
      current = String.UnicodeScalarView()
      hasLetterOrDigit = false
    }
    for scalar in term.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .decimalNumber, .letterNumber, .otherNumber, .privateUse:
        current.append(scalar)
        hasLetterOrDigit = true
      case .nonspacingMark, .spacingMark, .enclosingMark:
        if hasLetterOrDigit { current.append(scalar) }
      default:
        finish()
      }
    }
    finish()
    return words
  }
}
