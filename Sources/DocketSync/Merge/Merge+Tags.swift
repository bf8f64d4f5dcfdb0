import Database
import DocketCore
import DocketTransfer
import Foundation

/// Tags in the merge: tags that bear the same name (ignoring case) are one tag, whichever
/// devices made them, and a rename takes a tag's id out of one and into another. Each id that
/// lives has its current name in `sync_tag_names` (from its latest create or rename); the tag
/// row of a name goes by the smallest id among those that bear it, is named by the latest name
/// among them, and has the links made through any of them. Every part of that follows from the
/// changes alone, so devices that have the same changes have the same tags, and a rename's
/// result is kept wherever it arrives.
extension Merger {
  func tagSeq(_ id: String) throws -> Int64? {
    try db.fetchOne("SELECT seq FROM tags WHERE id = ?", [id], as: Int64.self)
  }

  /// The id of the tag that `id` is one of now (itself when it does not live).
  func canonicalTag(_ id: String) throws -> String {
    try db.fetchOne(
      """
      SELECT coalesce(min(other.id), ?) FROM sync_tag_names one
        JOIN sync_tag_names other ON other.name_key = one.name_key
      WHERE one.id = ?
      """, [id, id], as: String.self) ?? id
  }

  /// Every id that lives and bears the name of the tag `canonical`.
  func liveMembers(of canonical: String) throws -> [String] {
    let members = try db.fetchAll(
      """
      SELECT other.id FROM sync_tag_names one
        JOIN sync_tag_names other ON other.name_key = one.name_key
      WHERE one.id = ? ORDER BY other.id
      """, [canonical]
    ) { try $0.get(0, as: String.self) }
    return members
  }

  mutating func applyToTag(_ change: Change, device: Int64) throws {
    switch change.field {
    case "create":
      try record(change, device: device, lost: try isDeleted(change.row))
    case "name":
      let deleted = try isDeleted(change.row)
      let current = try winner(row: change.row, fields: ["name", "create"])
      let lost =
        deleted
        || (current != nil && current!.stamp > change.stamp && current!.field == "name"
          && Self.conflicts(earlierNew: change.new, laterOld: current!.old))
      if !deleted, let current, current.field == "name", current.stamp < change.stamp,
        Self.conflicts(earlierNew: current.new, laterOld: change.old)
      {
        try markLost(current.seq)
      }
      try record(change, device: device, lost: lost)
    default:  // delete
      try record(change, device: device)
    }
    try settleTagID(change.row)
  }

  /// A tag create's name (nil when it has none a tag may bear).
  func tagCreateName(_ value: DatabaseValue) throws -> String? {
    guard case .text(let name)? = try createValues(value)["name"] else { return nil }
    return TagName.normalized(name)
  }

  /// Brings the tag id `id` to its changes: its current name (none once deleted or before it is
  /// made), and the tags of the name it bore and of the name it bears.
  mutating func settleTagID(_ id: String) throws {
    let before = try db.fetchOne(
      "SELECT name_key FROM sync_tag_names WHERE id = ?", [id], as: String.self)
    var now: (name: String, key: String)?
    if try !isDeleted(id), try winner(row: id, fields: ["create"]) != nil,
      let latest = try winner(row: id, fields: ["name", "create"])
    {
      let name: String? =
        latest.field == "create"
        ? try tagCreateName(latest.new)
        : { if case .text(let text) = latest.new { TagName.normalized(text) } else { nil } }()
      if let name {
        now = (name, TagName.key(name))
        try db.execute(
          """
          INSERT OR REPLACE INTO sync_tag_names (id, name, name_key, hlc, device)
          VALUES (?, ?, ?, ?, ?)
          """, [id, name, TagName.key(name), latest.stamp.hlc, latest.stamp.device])
      }
    }
    if now == nil { try db.execute("DELETE FROM sync_tag_names WHERE id = ?", [id]) }
    var keys = Set<String>()
    if let before { keys.insert(before) }
    if let now { keys.insert(now.key) }
    // A row of this id that stood for another name (or for none) is given up by that name.
    if let row = try db.fetchOne("SELECT name_key FROM tags WHERE id = ?", [id], as: String.self) {
      keys.insert(row)
    }
    for key in keys.sorted() { try regroup(key, changed: [id]) }
  }

  /// Makes the tag row of the name `key` what its ids say: one row, going by the smallest of
  /// them, named by the latest name among them, with the links made through any of them; none
  /// when no id bears the name. `changed`: the ids whose name changed, whose links are settled.
  mutating func regroup(_ key: String, changed: Set<String>) throws {
    struct Member {
      var id: String
      var name: String
      var stamp: Stamp
    }
    let members = try db.fetchAll(
      "SELECT id, name, hlc, device FROM sync_tag_names WHERE name_key = ? ORDER BY id", [key]
    ) { row in
      Member(
        id: try row.get(0, as: String.self), name: try row.get(1, as: String.self),
        stamp: Stamp(hlc: try row.get(2, as: Int64.self), device: try row.get(3, as: String.self)))
    }
    let ids = Set(members.map(\.id))
    // The rows that stand, or stood, for this name: an id of it, or this name with an id that
    // no longer bears it (deleted, or renamed away and not yet given its own row).
    struct Row {
      var seq: Int64
      var id: String
      var key: String
      var lives: Bool
    }
    let rows = try db.fetchAll(
      """
      SELECT t.seq, t.id, t.name_key, n.id IS NOT NULL FROM tags t
        LEFT JOIN sync_tag_names n ON n.id = t.id
      WHERE t.name_key = ? OR t.id IN (SELECT id FROM sync_tag_names WHERE name_key = ?)
      ORDER BY t.id
      """, [key, key]
    ) { row in
      Row(
        seq: try row.get(0, as: Int64.self), id: try row.get(1, as: String.self),
        key: try row.get(2, as: String.self), lives: try row.get(3, as: Bool.self))
    }
    // A row whose id lives under another name is that name's, settled by its own regroup.
    let ours = rows.filter { ids.contains($0.id) || !$0.lives }
    guard let canonical = members.first?.id,
      let latest = members.max(by: { $0.stamp < $1.stamp })
    else {
      for row in ours { try db.execute("DELETE FROM tags WHERE seq = ?", [row.seq]) }
      return
    }
    let kept = ours.first { $0.id == canonical } ?? ours.first { ids.contains($0.id) } ?? ours.first
    var settleAll = false
    if let kept {
      if kept.id != canonical {
        try db.execute("UPDATE tags SET id = ? WHERE seq = ?", [canonical, kept.seq])
      }
      try db.execute(
        "UPDATE tags SET name = ? WHERE seq = ? AND name IS NOT ?",
        [latest.name, kept.seq, latest.name])
      // A row that stood for another name holds that name's links.
      settleAll = kept.key != key
    } else {
      try db.execute("INSERT INTO tags (id, name) VALUES (?, ?)", [canonical, latest.name])
      settleAll = true
    }
    for row in ours where row.seq != kept?.seq {
      try db.execute("DELETE FROM tags WHERE seq = ?", [row.seq])
      settleAll = true
    }
    // The issues whose link to this tag may have changed: those linked through an id that came
    // or went, or (the row new, or others' links dropped with a row) through any of its ids.
    var through = changed
    if settleAll { through.formUnion(ids) }
    var issues = Set<String>()
    for id in through {
      try db.forEachRow(
        """
        SELECT DISTINCT row_id FROM changes
        WHERE entity = 'link' AND entity != 'issue' AND field = ? AND held = 0
        """,
        [id]
      ) { row in issues.insert(try row.get(0, as: String.self)) }
    }
    if settleAll, let tagRow = try tagSeq(canonical) {
      try db.forEachRow(
        "SELECT i.id FROM issue_tags l JOIN issues i ON i.seq = l.issue_seq WHERE l.tag_seq = ?",
        [tagRow]
      ) { row in issues.insert(try row.get(0, as: String.self)) }
    }
    for issue in issues.sorted() { try settleLink(issue: issue, tag: canonical) }
  }
}
