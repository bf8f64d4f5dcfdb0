import Database
import DocketCore
import Foundation

/// One line of an issue's history: a change to one field, who made it and when.
public struct HistoryEntry: Equatable, Sendable {
  public enum What: Equatable, Sendable {
    /// The issue was made (its first title).
    case created(title: String)
    case deleted
    /// Deleted for good: nothing brings it back.
    case purged
    /// Brought back after a delete (an import asked to restore it), with the title it came
    /// back with.
    case restored(title: String)
    case title, detail, priority, completed, createdDate
    /// A conflict of this field looked at: its lost value dismissed, or used.
    case dismissed(field: String)
    /// A tag put on (true) or taken off.
    case tag(name: String, on: Bool)
  }

  public var when: Date
  /// The clock stamp, which orders the entries.
  public var stamp: Int64
  public var deviceID: String
  /// The device's name as last heard (empty when never heard).
  public var deviceName: String
  public var isThisDevice: Bool
  public var what: What
  public var old: DatabaseValue
  public var new: DatabaseValue
  /// A value that lost a conflict to another device's: kept here, not applied. Also a change
  /// of a device that was retired for a clock that ran ahead, made again since by the device it
  /// became.
  public var lost: Bool
  /// Stamped further ahead of this device's clock than sync allows: not applied yet.
  public var waiting: Bool
  /// Made by an undo or a redo on this device (which alone keeps its steps); nil otherwise.
  public var step: UndoStep.Kind? = nil
}

extension Connection {
  /// The history of the issue `id`, oldest first.
  public func history(ofIssue id: UUID) throws -> [HistoryEntry] {
    var entries: [HistoryEntry] = []
    let local = try localDeviceID()
    // This device before its first sync has no name recorded yet: its name now.
    let localName =
      try storedDeviceIdentity(hostName: HostName.current)?.name ?? HostName.current
    try forEachRow(
      """
      SELECT c.hlc, d.id, d.name, c.entity, c.field, c.old_value, c.new_value, c.lost, c.held,
        (SELECT u.kind FROM undo_steps u
          WHERE c.seq BETWEEN u.first AND u.last AND u.kind != 'do' LIMIT 1)
      FROM changes c JOIN sync_devices d ON d.seq = c.device
      WHERE c.row_id = ? ORDER BY c.hlc, d.id, c.seq
      """, [id.lowercasedText]
    ) { row in
      let hlc = try row.get(0, as: Int64.self)
      let device = try row.get(1, as: String.self)
      let recorded = try row.get(2, as: String.self)
      let field = try row.get(4, as: String.self)
      let old = try row.get(5, as: DatabaseValue.self)
      let new = try row.get(6, as: DatabaseValue.self)
      let what: HistoryEntry.What
      if try row.get(3, as: String.self) == "link" {
        what = .tag(name: try tagName(field), on: new == .integer(1))
      } else {
        switch field {
        case "create": what = .created(title: try jsonField(new, "title") ?? "")
        case "delete": what = .deleted
        case "purge": what = .purged
        case "restore": what = .restored(title: try jsonField(new, "title") ?? "")
        case "title": what = .title
        case "detail": what = .detail
        case "priority": what = .priority
        case "completed": what = .completed
        case "dismiss":
          var named = ""
          if case .text(let text) = new {
            named = text.split(separator: " ").last.map(String.init) ?? ""
          }
          what = .dismissed(field: named)
        default: what = .createdDate
        }
      }
      entries.append(
        HistoryEntry(
          when: HybridClock.date(hlc), stamp: hlc, deviceID: device,
          deviceName: device == local && recorded.isEmpty ? localName : recorded,
          isThisDevice: device == local, what: what,
          old: old, new: new, lost: try row.get(7, as: Bool.self),
          waiting: try row.get(8, as: Int.self) == 1,
          step: (try row.get(9, as: String?.self)).flatMap(UndoStep.Kind.init(rawValue:))))
    }
    return entries
  }

  /// A tag's name now, or (deleted) the last name it had.
  func tagName(_ id: String) throws -> String {
    let canonical =
      try fetchOne(
        """
        SELECT coalesce(min(other.id), ?) FROM sync_tag_names one
          JOIN sync_tag_names other ON other.name_key = one.name_key
        WHERE one.id = ?
        """, [id, id], as: String.self) ?? id
    if let name = try fetchOne("SELECT name FROM tags WHERE id = ?", [canonical], as: String.self) {
      return name
    }
    return try fetchOne(
      """
      SELECT CASE field WHEN 'create' THEN json_extract(new_value, '$.name')
        WHEN 'name' THEN new_value ELSE old_value END
      FROM changes WHERE row_id = ? AND held = 0 ORDER BY hlc DESC LIMIT 1
      """, [id], as: String.self) ?? id
  }

  private func jsonField(_ value: DatabaseValue, _ key: String) throws -> String? {
    guard case .text(let json) = value else { return nil }
    return try fetchOne("SELECT json_extract(?, ?)", [json, "$." + key], as: String.self)
  }
}

extension Connection {
  /// The ids of deleted issues (a delete in the history, and no issue) whose id begins with
  /// `prefix` (lower-case hex and dashes, as `IssueReference.canonicalPrefix` gives it).
  public func deletedIssueIDs(withPrefix prefix: String, limit: Int) throws -> [UUID] {
    try fetchAll(
      """
      SELECT DISTINCT c.row_id FROM changes c
      WHERE c.row_id >= ? AND c.row_id < ? AND c.entity = 'issue' AND c.field = 'delete'
        AND NOT EXISTS (SELECT 1 FROM issues WHERE id = c.row_id)
      ORDER BY c.row_id LIMIT ?
      """, [prefix, prefix + "\u{7F}", limit]
    ) { try $0.get(0, as: UUID.self) }
  }

  /// The title a deleted issue had when it was deleted (its latest delete's record of it), or,
  /// failing that, its latest title in the history.
  public func deletedTitle(of id: UUID) throws -> String? {
    if let title = try fetchOne(
      """
      SELECT json_extract(old_value, '$.title') FROM changes
      WHERE row_id = ? AND field = 'delete' AND json_valid(old_value)
      ORDER BY hlc DESC LIMIT 1
      """, [id.lowercasedText], as: String?.self) ?? nil
    {
      return title
    }
    return try fetchOne(
      """
      SELECT CASE field WHEN 'title' THEN new_value
        ELSE json_extract(new_value, '$.title') END FROM changes
      WHERE row_id = ? AND field IN ('title', 'create', 'restore') AND held = 0
      ORDER BY hlc DESC LIMIT 1
      """, [id.lowercasedText], as: String?.self) ?? nil
  }
}
