import Database
import DocketCore
import DocketTransfer
import Foundation

/// Tags in the merge: made with the same name key on several devices, they are one tag, going by
/// the smallest of their ids that was not deleted, named by the latest name among them, with the
/// links made through any of them.
extension Merger {
  func tagSeq(_ id: String) throws -> Int64? {
    try db.fetchOne("SELECT seq FROM tags WHERE id = ?", [id], as: Int64.self)
  }

  /// The id a tag goes by now (itself, unless merged into another).
  func canonicalTag(_ id: String) throws -> String {
    try db.fetchOne(
      "SELECT canonical FROM sync_tag_aliases WHERE id = ?", [id], as: String.self) ?? id
  }

  /// Every id of a tag that has not been deleted.
  func liveMembers(of canonical: String) throws -> [String] {
    var members = [canonical]
    try db.forEachRow(
      "SELECT id FROM sync_tag_aliases WHERE canonical = ? AND id != ?", [canonical, canonical]
    ) { row in members.append(try row.get(0, as: String.self)) }
    return try members.filter { try !isDeleted($0) }
  }

  mutating func applyToTag(_ change: Change, device: Int64) throws {
    switch change.field {
    case "create":
      if try isDeleted(change.row) {
        try record(change, device: device, lost: true)
        return
      }
      try record(change, device: device)
      let canonical = try canonicalTag(change.row)
      if try tagSeq(canonical) != nil {
        try settleTag(canonical)
        return
      }
      let (name, key) = try tagCreate(change.new)
      if let group = try db.fetchOne(
        "SELECT id FROM tags WHERE sync_key = ?", [key], as: String.self)
      {
        try join(change.row, group: group)
      } else {
        try db.execute(
          "INSERT INTO tags (id, name, sync_key) VALUES (?, ?, ?)", [change.row, name, key])
        try settleTag(change.row)
        try settlePendingLinks(of: change.row, group: change.row)
      }
    case "name":
      let deleted = try isDeleted(change.row)
      let canonical = try canonicalTag(change.row)
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
      if !deleted, try tagSeq(canonical) != nil { try settleTag(canonical) }
    default:  // delete
      try record(change, device: device)
      let canonical = try canonicalTag(change.row)
      guard try tagSeq(canonical) != nil else { return }
      try settleTag(canonical)
    }
  }

  /// A create's name and merge key.
  func tagCreate(_ value: DatabaseValue) throws -> (name: String, key: String) {
    let values = try createValues(value)
    let name: String
    if case .text(let text)? = values["name"], let normalized = TagName.normalized(text) {
      name = normalized
    } else {
      name = "?"
    }
    if case .text(let key)? = values["key"], !key.isEmpty { return (name, key) }
    return (name, TagName.key(name))
  }

  /// Merges the tag `id` into the tag row `group`: one tag, which goes by the smaller id.
  mutating func join(_ id: String, group: String) throws {
    let canonical = min(id, group)
    try db.execute(
      "INSERT OR REPLACE INTO sync_tag_aliases (id, canonical) VALUES (?, ?)", [id, canonical])
    if canonical != group {
      try db.execute(
        "UPDATE sync_tag_aliases SET canonical = ? WHERE canonical = ?", [canonical, group])
      try db.execute(
        "INSERT OR REPLACE INTO sync_tag_aliases (id, canonical) VALUES (?, ?)", [group, canonical])
      try db.execute("UPDATE tags SET id = ? WHERE id = ?", [canonical, group])
    }
    try settleTag(canonical)
    try settlePendingLinks(of: id, group: canonical)
  }

  /// Brings a tag row to what its changes say: gone when every id it has was deleted, else named
  /// by the latest name among its live ids and going by the smallest of them, with the links
  /// those ids make.
  mutating func settleTag(_ canonical: String) throws {
    let members = try liveMembers(of: canonical)
    guard let first = members.min() else {
      try db.execute("DELETE FROM tags WHERE id = ?", [canonical])
      return
    }
    if first != canonical {
      // The id the tag went by was deleted: it goes by the smallest live one now.
      try db.execute(
        "UPDATE sync_tag_aliases SET canonical = ? WHERE canonical = ?", [first, canonical])
      try db.execute("UPDATE tags SET id = ? WHERE id = ?", [first, canonical])
      // The id it went by stays one of its ids: its links still count until they are settled.
      for member in members + [canonical] where member != first {
        try db.execute(
          "INSERT OR REPLACE INTO sync_tag_aliases (id, canonical) VALUES (?, ?)", [member, first])
      }
    }
    var latest: (Stamp, String)?
    for member in members {
      guard let current = try winner(row: member, fields: ["name", "create"]) else { continue }
      let name: String
      if current.field == "create" {
        name = try tagCreate(current.new).name
      } else if case .text(let text) = current.new, let normalized = TagName.normalized(text) {
        name = normalized
      } else {
        continue
      }
      if latest == nil || current.stamp > latest!.0 { latest = (current.stamp, name) }
    }
    if let latest {
      try db.execute(
        "UPDATE tags SET name = ? WHERE id = ? AND name IS NOT ?", [latest.1, first, latest.1])
    }
    let allIDs = try allMembers(of: first)
    if allIDs.count > 1 {
      // Links made through an id that was deleted go with it; the others stay.
      var issues: Set<String> = []
      for id in allIDs {
        try db.forEachRow(
          "SELECT DISTINCT row_id FROM changes WHERE entity = 'link' AND field = ?", [id]
        ) { row in issues.insert(try row.get(0, as: String.self)) }
      }
      for issue in issues { try settleLink(issue: issue, tag: first) }
    }
  }

  func allMembers(of canonical: String) throws -> [String] {
    var members = [canonical]
    try db.forEachRow(
      "SELECT id FROM sync_tag_aliases WHERE canonical = ? AND id != ?", [canonical, canonical]
    ) { row in members.append(try row.get(0, as: String.self)) }
    return members
  }

  /// The links that waited for the tag `id` to arrive.
  mutating func settlePendingLinks(of id: String, group: String) throws {
    var issues: [String] = []
    try db.forEachRow(
      "SELECT DISTINCT row_id FROM changes WHERE entity = 'link' AND field = ?", [id]
    ) { row in issues.append(try row.get(0, as: String.self)) }
    for issue in issues { try settleLink(issue: issue, tag: group) }
  }
}
