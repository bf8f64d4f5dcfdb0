import Foundation

/// A label that issues carry. Names are unique ignoring case.
public struct Tag: Identifiable, Equatable, Hashable, Sendable {
  public var id: UUID
  public var name: String

  public init(id: UUID, name: String) {
    self.id = id
    self.name = name
  }
}

/// A tag with how many issues carry it.
public struct TagSummary: Identifiable, Equatable, Hashable, Sendable {
  public var tag: Tag
  /// Issues with this tag that are not completed.
  public var open: Int
  /// All issues with this tag.
  public var total: Int

  public var id: UUID { tag.id }

  /// The badge count: all issues when completed ones are shown, else the open ones.
  public func visibleCount(showCompleted: Bool) -> Int { showCompleted ? total : open }
}

/// The rules for tag names.
public enum TagName {
  /// The name as stored: white space trimmed at both ends, inner runs of white space and control
  /// characters collapsed to one space. Nil when nothing is left.
  public static func normalized(_ name: String) -> String? {
    let words = name.unicodeScalars.split { scalar in
      scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }
    let joined = words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    return joined.isEmpty ? nil : joined
  }

  /// The name as stored, or why it cannot be one: empty, or longer than the limit.
  public static func checked(_ name: String) throws(TagError) -> String {
    guard let normalized = normalized(name) else { throw .emptyName }
    guard Limits.fits(normalized, Limits.tagNameCharacters) else {
      throw .nameTooLong(limit: Limits.tagNameCharacters)
    }
    return normalized
  }

  /// The key two names are compared by: case folded, so `bug`, `Bug` and `BUG` are one tag.
  public static func key(_ name: String) -> String {
    (normalized(name) ?? "").folding(options: [.caseInsensitive], locale: nil)
  }
}

extension TagName {
  /// The id the tag made of `source` and `target` goes by, merged (`mergeTag`), as sync makes
  /// one tag of two that bear one name: the smaller id, as text.
  public static func keptID(merging source: UUID, into target: UUID) -> UUID {
    source.uuidString.lowercased() < target.uuidString.lowercased() ? source : target
  }
}

/// Folds text for sorting: case and diacritics ignored, so `Ärger` sorts among the A's.
public enum SortKey {
  public static func fold(_ text: String) -> String {
    // Plain ASCII (most titles) folds to its lower case, as Foundation's folding would make it,
    // without its cost, which every title of a large import pays.
    var ascii = text
    let isASCII = ascii.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
    if isASCII { return text.lowercased() }
    return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
