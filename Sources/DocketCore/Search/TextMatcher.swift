import Database

/// Tells whether an issue's title and detail match the text of a search exactly as the full-text
/// index would (see `FullTextExpression`): every term's words appear in a row of one column, in
/// order, the last one as a prefix; no excluded term does. Words and text are cut and folded by
/// the index's own tokenizer, so the two never disagree; text of plain ASCII is searched where
/// it lies, by the rules that tokenizer has for it (words are letters and digits, lowercased).
final class TextMatcher {
  /// Each term's folded words.
  private let required: [[[UInt8]]]
  private let excluded: [[[UInt8]]]
  private let tokenizer: FullTextTokenizer
  private var words: [UInt8] = []
  private var titleWords: [Range<Int>] = []
  private var detailWords: [Range<Int>] = []

  /// The arguments `issue_fts` is declared with.
  static let tokenizerArguments = ["unicode61", "remove_diacritics", "2"]

  /// Nil when the search has no text, or when a term has words the tokenizer does not keep
  /// (then only the index can say what matches).
  init?(search: SearchQuery, db: Connection) {
    guard let tokenizer = FullTextTokenizer(db, arguments: Self.tokenizerArguments) else {
      return nil
    }
    func phrases(_ terms: [String]) -> [[[UInt8]]]? {
      var phrases: [[[UInt8]]] = []
      for term in terms {
        let termWords = FullTextExpression.words(of: term)
        if termWords.isEmpty { continue }
        var phrase: [[UInt8]] = []
        var text = Array(termWords.joined(separator: " ").utf8)
        text.withUnsafeMutableBufferPointer { buffer in
          tokenizer.forEachToken(in: UnsafeBufferPointer(buffer)) { phrase.append(Array($0)) }
        }
        if phrase.isEmpty { return nil }
        phrases.append(phrase)
      }
      return phrases
    }
    guard let required = phrases(search.text), let excluded = phrases(search.excludedText),
      !(required.isEmpty && excluded.isEmpty)
    else { return nil }
    self.tokenizer = tokenizer
    self.required = required
    self.excluded = excluded
  }

  func matches(title: UnsafeBufferPointer<UInt8>, detail: UnsafeBufferPointer<UInt8>) -> Bool {
    // Text of plain ASCII (most titles and details) is searched where it lies; other text is
    // cut into words by the tokenizer first.
    let titleIsASCII = title.allSatisfy { $0 < 0x80 }
    let detailIsASCII = detail.allSatisfy { $0 < 0x80 }
    words.removeAll(keepingCapacity: true)
    if !titleIsASCII { cut(title, into: &titleWords) }
    if !detailIsASCII { cut(detail, into: &detailWords) }
    func contains(_ phrase: [[UInt8]]) -> Bool {
      (titleIsASCII
        ? Self.asciiText(title, contains: phrase) : self.contains(phrase, in: titleWords))
        || (detailIsASCII
          ? Self.asciiText(detail, contains: phrase) : self.contains(phrase, in: detailWords))
    }
    for phrase in required where !contains(phrase) { return false }
    for phrase in excluded where contains(phrase) { return false }
    return true
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x61 && byte <= 0x7A)
  }

  private static func folded(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }

  /// Whether ASCII `text` holds the phrase's words in a row, the last as a prefix: its words are
  /// runs of letters and digits, compared lowercased, without cutting the text first.
  static func asciiText(_ text: UnsafeBufferPointer<UInt8>, contains phrase: [[UInt8]]) -> Bool {
    let count = text.count
    var start = 0
    while start < count {
      // The next word start.
      guard isWordByte(text[start]), start == 0 || !isWordByte(text[start - 1]) else {
        start += 1
        continue
      }
      var position = start
      var matched = true
      for (index, word) in phrase.enumerated() {
        // Skip to the start of the next word of the text.
        while position < count, !isWordByte(text[position]) { position += 1 }
        guard position + word.count <= count else {
          matched = false
          break
        }
        for offset in 0..<word.count where folded(text[position + offset]) != word[offset] {
          matched = false
          break
        }
        if !matched { break }
        position += word.count
        // Every word but the last must be the whole word of the text.
        if index < phrase.count - 1 {
          guard position == count || !isWordByte(text[position]) else {
            matched = false
            break
          }
        }
      }
      if matched { return true }
      start += 1
    }
    return false
  }

  private func contains(_ phrase: [[UInt8]], in column: [Range<Int>]) -> Bool {
    guard column.count >= phrase.count else { return false }
    let last = phrase.count - 1
    return words.withUnsafeBufferPointer { words in
      start: for start in 0...(column.count - phrase.count) {
        for (offset, word) in phrase.enumerated() {
          let token = words[column[start + offset]]
          if offset == last {
            guard token.count >= word.count, token.starts(with: word) else { continue start }
          } else {
            guard token.elementsEqual(word) else { continue start }
          }
        }
        return true
      }
      return false
    }
  }

  /// Appends the words of `text` (not plain ASCII: that is searched where it lies) to `words`,
  /// their places to `ranges`, cut and folded by the index's tokenizer.
  private func cut(_ text: UnsafeBufferPointer<UInt8>, into ranges: inout [Range<Int>]) {
    ranges.removeAll(keepingCapacity: true)
    var found: [Range<Int>] = []
    var collected: [UInt8] = []
    swap(&collected, &words)
    tokenizer.forEachToken(in: text) { token in
      let start = collected.count
      collected.append(contentsOf: token)
      found.append(start..<collected.count)
    }
    swap(&collected, &words)
    ranges = found
  }
}
