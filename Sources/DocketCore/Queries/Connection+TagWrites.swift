import Database
import Foundation

/// Why a tag could not be written.
public enum TagError: Error, Equatable, Sendable {
  /// The name is empty or only white space.
  case emptyName
  /// Another tag already has this name (ignoring case).
  case nameTaken(String)
  case notFound
  /// Longer than `Limits.tagNameCharacters`.
  case nameTooLong(limit: Int)
}

/// Writing tags. Names are unique ignoring case; this code, not a constraint, keeps them so.
extension Connection {
  /// The tag named `name` (ignoring case) if there is one, else a new one with `id`.
  /// `created` says which happened.
  public func createTag(named name: String, id: UUID) throws -> (tag: Tag, created: Bool) {
    let normalized = try TagName.checked(name)
    return try transaction {
      if let existing = try fetchTag(named: normalized) { return (existing, false) }
      try execute("INSERT INTO tags (id, name) VALUES (?, ?)", [id, normalized])
      return (Tag(id: id, name: normalized), true)
    }
  }

  /// Renames a tag; a change of case alone is allowed, another tag's name is not.
  @discardableResult
  public func renameTag(id: UUID, to name: String) throws -> Tag {
    let normalized = try TagName.checked(name)
    return try transaction {
      guard try fetchTag(id: id) != nil else { throw TagError.notFound }
      if let other = try fetchTag(named: normalized), other.id != id {
        throw TagError.nameTaken(other.name)
      }
      try execute("UPDATE tags SET name = ? WHERE id = ?", [normalized, id])
      return Tag(id: id, name: normalized)
    }
  }

  /// Merges the tag `source` into `target`: every issue that carried `source` carries `target`
  /// (as ordinary edits, which sync carries), and `source` is deleted. Returns `target`.
  @discardableResult
  public func mergeTag(id source: UUID, into target: UUID) throws -> Tag {
    try transaction {
      guard source != target, try fetchTag(id: source) != nil, let kept = try fetchTag(id: target)
      else { throw TagError.notFound }
      try execute(
        """
        INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq)
        SELECT l.issue_seq, (SELECT seq FROM tags WHERE id = ?) FROM issue_tags l
        WHERE l.tag_seq = (SELECT seq FROM tags WHERE id = ?)
        """, [target, source])
      try execute("DELETE FROM tags WHERE id = ?", [source])
      return kept
    }
  }

  /// Deletes a tag and its links; the issues stay. Returns false when there was no such tag.
  @discardableResult
  public func deleteTag(id: UUID) throws -> Bool {
    try transaction {
      try execute("DELETE FROM tags WHERE id = ?", [id])
      return changedRowCount > 0
    }
  }
}
