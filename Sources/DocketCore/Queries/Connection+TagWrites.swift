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

  /// Merges the tag `source` into `target`: every issue that carried either carries the one tag
  /// that is left, named as `target` is. Recorded as what it is to sync, a rename of `source`
  /// to `target`'s name: tags of one name are one tag on every device (the row goes by the
  /// smaller id, with the links made through either), so a link another device made to `source`
  /// meanwhile joins the merged tag there and here alike. Returns the tag that is left.
  @discardableResult
  public func mergeTag(id source: UUID, into target: UUID) throws -> Tag {
    try transaction {
      guard source != target, let merged = try fetchTag(id: source),
        let kept = try fetchTag(id: target)
      else { throw TagError.notFound }
      // Every issue of either tag gets `target` anew, recorded, so that on every device the
      // latest link change of the one tag the two become says linked (an older removal through
      // either id must not win there). A link through `target` is taken away and made again.
      let linked = try fetchAll(
        """
        SELECT DISTINCT issue_seq FROM issue_tags
        WHERE tag_seq IN (SELECT seq FROM tags WHERE id IN (?, ?))
        """, [source, target]
      ) { try $0.get(0, as: Int64.self) }
      try execute(
        "DELETE FROM issue_tags WHERE tag_seq = (SELECT seq FROM tags WHERE id = ?)", [target])
      for issue in linked {
        try execute(
          "INSERT INTO issue_tags (issue_seq, tag_seq) SELECT ?, seq FROM tags WHERE id = ?",
          [issue, target])
      }
      // The rename, recorded as every rename is (for `source` and the ids that bear its name).
      try execute("UPDATE tags SET name = ? WHERE id = ?", [kept.name, source])
      // Then the two rows made one as the sync rules make them, without recording it again:
      // every device that receives the rename does the same.
      let canonical = TagName.keptID(merging: source, into: target) == source ? merged : kept
      let other = canonical.id == source ? kept : merged
      try execute("UPDATE sync_clock SET applying = 1")
      try execute(
        """
        INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq)
        SELECT l.issue_seq, (SELECT seq FROM tags WHERE id = ?) FROM issue_tags l
        WHERE l.tag_seq = (SELECT seq FROM tags WHERE id = ?)
        """, [canonical.id, other.id])
      try execute("DELETE FROM tags WHERE id = ?", [other.id])
      try execute("UPDATE tags SET name = ? WHERE id = ?", [kept.name, canonical.id])
      try execute("UPDATE sync_clock SET applying = 0")
      return Tag(id: canonical.id, name: kept.name)
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
