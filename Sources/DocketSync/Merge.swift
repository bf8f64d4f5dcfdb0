import Database
import DocketCore
import DocketTransfer
import Foundation

/// What applying a set of changes did.
public struct ApplySummary: Equatable, Sendable {
  /// Changes new to this database (recorded in its history).
  public var received = 0
  /// Changes it had already: applying a change twice changes nothing.
  public var duplicates = 0
  /// Received changes that lost a conflict (kept in the history, marked, not applied).
  public var lost = 0
  /// The latest stamp among them, which the clock moves up to.
  public var latest: Int64 = 0

  public init() {}

  /// Adds what applying another part of the same package did.
  public mutating func add(_ other: ApplySummary) {
    received += other.received
    duplicates += other.duplicates
    lost += other.lost
    latest = max(latest, other.latest)
  }
}

/// Applying other devices' changes (SPEC §10). Each change is recorded in the history and merged:
/// field by field the later stamp wins, a delete wins over everything stamped on that row, a link
/// is on or off by its latest change, tags made with the same name on several devices are one
/// tag. Every decision depends only on which changes a database has, never on the order they came
/// in, so every device that has the same changes holds the same data.
///
/// The triggers record nothing while this runs (`sync_clock.applying`), and the issue's `modified`
/// is the one carried by its latest change: an edit that arrives keeps the sender's time.
extension Connection {
  /// `bulkFrom`: from how many new issues they are made at once (`insertNew`).
  public func applyChanges(
    _ changes: [Change], deviceNames: [String: String] = [:], bulkFrom: Int = Merger.bulkThreshold
  ) throws -> ApplySummary {
    // Inside a pull's write, a part of it: a failure fails the whole write.
    try withinTransaction {
      try execute("UPDATE sync_clock SET applying = 1")
      var merger = Merger(db: self)
      for (device, name) in deviceNames { try merger.device(device, name: name) }
      let (new, rest) = try merger.partitionNew(changes)
      // Many changes: the full-text index is kept once after them, not for each edit.
      if new.count >= bulkFrom {
        // Tags first, so that the new issues' links find them; the merge does not depend on the
        // order changes come in.
        for change in rest where change.entity == .tag { try merger.apply(change) }
        try merger.insertNew(new)
        try deferringTextIndex(for: rest.count) {
          for change in rest where change.entity != .tag { try merger.apply(change) }
        }
      } else {
        try deferringTextIndex(for: changes.count) {
          for change in changes { try merger.apply(change) }
        }
      }
      try execute(
        "UPDATE sync_clock SET applying = 0, hlc = max(hlc, ?)", [merger.summary.latest])
      return merger.summary
    }
  }
}

/// The rules, one change at a time, inside `applyChanges`'s transaction.
public struct Merger {
  let db: Connection
  var summary = ApplySummary()
  private var devices: [String: Int64] = [:]

  init(db: Connection) { self.db = db }

  /// The local row number of a device, recorded (and named) the first time it is met.
  @discardableResult
  mutating func device(_ id: String, name: String? = nil) throws -> Int64 {
    if let name {
      try db.execute(
        """
        INSERT INTO sync_devices (id, name) VALUES (?, ?)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name
        """, [id, name])
      devices[id] = nil
    }
    if let known = devices[id] { return known }
    try db.execute("INSERT OR IGNORE INTO sync_devices (id) VALUES (?)", [id])
    let seq = try db.fetchOne("SELECT seq FROM sync_devices WHERE id = ?", [id], as: Int64.self)!
    devices[id] = seq
    return seq
  }

  mutating func apply(_ change: Change) throws {
    let device = try device(change.stamp.device)
    let known = try db.fetchOne(
      "SELECT 1 FROM changes WHERE row_id = ? AND field = ? AND hlc = ? AND device = ?",
      [change.row, change.field, change.stamp.hlc, device], as: Int.self)
    if known != nil {
      summary.duplicates += 1
      return
    }
    summary.received += 1
    summary.latest = max(summary.latest, change.stamp.hlc)
    switch change.entity {
    case .issue: try applyToIssue(change, device: device)
    case .link: try applyToLink(change, device: device)
    case .tag: try applyToTag(change, device: device)
    }
  }

  // MARK: - The history

  /// Records a change; `lost` marks a value that lost a conflict.
  mutating func record(_ change: Change, device: Int64, lost: Bool = false) throws {
    if lost { summary.lost += 1 }
    try db.execute(
      """
      INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value, modified, lost)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        change.stamp.hlc, device, change.entity.rawValue, change.row, change.field, change.old,
        change.new, change.modified, lost,
      ])
  }

  /// A recorded change that won, for a row and any of `fields`.
  struct Winner {
    var seq: Int64
    var stamp: Stamp
    var field: String
    var old: DatabaseValue
    var new: DatabaseValue
    var modified: Double?
  }

  /// The latest recorded change of `row` among `fields` (all of the row's when nil).
  func winner(row: String, fields: [String]?) throws -> Winner? {
    var sql = """
      SELECT c.seq, c.hlc, d.id, c.field, c.old_value, c.new_value, c.modified
      FROM changes c JOIN sync_devices d ON d.seq = c.device WHERE c.row_id = ?
      """
    var arguments: [any DatabaseValueConvertible] = [row]
    if let fields {
      sql += " AND c.field IN (\(fields.map { _ in "?" }.joined(separator: ", ")))"
      arguments += fields
    } else {
      sql += " AND c.field != 'delete'"
    }
    sql += " ORDER BY c.hlc DESC, d.id DESC LIMIT 1"
    return try db.fetchOne(sql, arguments) { row in
      Winner(
        seq: try row.get(0, as: Int64.self),
        stamp: Stamp(hlc: try row.get(1, as: Int64.self), device: try row.get(2, as: String.self)),
        field: try row.get(3, as: String.self), old: try row.get(4, as: DatabaseValue.self),
        new: try row.get(5, as: DatabaseValue.self), modified: try row.get(6, as: Double?.self))
    }
  }

  func isDeleted(_ row: String) throws -> Bool {
    try db.fetchOne(
      "SELECT 1 FROM changes WHERE row_id = ? AND field = 'delete' LIMIT 1", [row], as: Int.self)
      != nil
  }

  /// Marks a recorded change as having lost a conflict.
  mutating func markLost(_ seq: Int64) throws {
    try db.execute("UPDATE changes SET lost = 1 WHERE seq = ?", [seq])
  }

  /// Whether the later of two changes of one field was made without seeing the earlier one's
  /// value: then the earlier value lost a conflict; else it was simply edited after.
  static func conflicts(earlierNew: DatabaseValue, laterOld: DatabaseValue) -> Bool {
    earlierNew != laterOld
  }

  // MARK: - Issues

  private mutating func applyToIssue(_ change: Change, device: Int64) throws {
    let exists = try issueSeq(change.row) != nil
    if change.field == "delete" {
      // Edits the deleting device had not seen (their values are not the ones it deleted) lost.
      let deleted = try createValues(change.old)
      if exists, !deleted.isEmpty {
        for field in Schema.syncedIssueFields {
          if let current = try winner(row: change.row, fields: [field]),
            current.new != deleted[field]
          {
            try markLost(current.seq)
          }
        }
      }
      try record(change, device: device)
      if exists { try db.execute("DELETE FROM issues WHERE id = ?", [change.row]) }
      return
    }
    if try isDeleted(change.row) {
      try record(change, device: device, lost: true)
      return
    }
    if change.field == "create" {
      if exists {
        // The same issue made on two devices (an import of the same file): each field merges.
        let values = try createValues(change.new)
        let rowLatest = try winner(row: change.row, fields: nil)?.stamp
        try record(change, device: device)
        for field in Schema.syncedIssueFields {
          guard let value = values[field] else { continue }
          try writeField(field, value: value, of: change.row, ifLaterThan: change.stamp)
        }
        try touch(change, rowLatest: rowLatest)
      } else {
        try record(change, device: device)
        try materializeIssue(change.row)
      }
      return
    }
    guard exists else {
      // An edit of an issue whose create has not arrived: kept until it does.
      try record(change, device: device)
      return
    }
    let current = try winner(row: change.row, fields: [change.field, "create"])
    let rowLatest = try winner(row: change.row, fields: nil)?.stamp
    if let current, current.stamp > change.stamp {
      let lost =
        current.field == change.field
        && Self.conflicts(earlierNew: change.new, laterOld: current.old)
      try record(change, device: device, lost: lost)
      return
    }
    if let current, current.field == change.field,
      Self.conflicts(earlierNew: current.new, laterOld: change.old)
    {
      try markLost(current.seq)
    }
    try record(change, device: device)
    try db.execute("UPDATE issues SET \(change.field) = ? WHERE id = ?", [change.new, change.row])
    try touch(change, rowLatest: rowLatest)
  }

  /// The issue's `modified` follows its latest change.
  private func touch(_ change: Change, rowLatest: Stamp?) throws {
    if rowLatest == nil || change.stamp > rowLatest! {
      try db.execute(
        "UPDATE issues SET modified = ? WHERE id = ?", [change.modified, change.row])
    }
  }

  /// Writes a field if no recorded change of it (other than at `stamp`) is later.
  private func writeField(
    _ field: String, value: DatabaseValue, of row: String, ifLaterThan stamp: Stamp
  ) throws {
    let current = try winner(row: row, fields: [field, "create"])
    guard current == nil || current!.stamp <= stamp else { return }
    try db.execute("UPDATE issues SET \(field) = ? WHERE id = ?", [value, row])
  }

  private func issueSeq(_ id: String) throws -> Int64? {
    try db.fetchOne("SELECT seq FROM issues WHERE id = ?", [id], as: Int64.self)
  }

  /// A create's fields, from its JSON: text as text, numbers as whole numbers, and the time
  /// (written as text there: SQLite writes a real in JSON with 15 digits, which loses the last
  /// bits of a time) read back exactly.
  func createValues(_ value: DatabaseValue) throws -> [String: DatabaseValue] {
    guard case .text(let json) = value,
      let members = (try? JSONReader.document(Array(json.utf8)))?.members
    else { return [:] }
    var values: [String: DatabaseValue] = [:]
    for (key, member) in members {
      switch member {
      case .string(let text):
        values[key] = key == "created" ? Double(text).map { .real($0) } ?? .null : .text(text)
      case .number(let number) where key == "created":
        values[key] = number.isFinite ? .real(number) : .null
      case .number(let number):
        values[key] = abs(number) < 1e15 ? .integer(Int64(number)) : .null
      default:
        values[key] = .null
      }
    }
    // A field whose value it cannot take (a priority of 7) is left out: the issue keeps its
    // default there, as the device that made it could never have had otherwise.
    return values.filter { key, value in
      !Schema.syncedIssueFields.contains(key) || Change.isValid(value, field: key, entity: .issue)
    }
  }

  /// Makes an issue from every change recorded for it: each field from its latest change, its
  /// links from theirs.
  private mutating func materializeIssue(_ id: String) throws {
    var values: [String: DatabaseValue] = [:]
    for field in Schema.syncedIssueFields {
      guard let current = try winner(row: id, fields: [field, "create"]) else { continue }
      values[field] = current.field == "create" ? try createValues(current.new)[field] : current.new
    }
    let modified = try winner(row: id, fields: nil)?.modified
    try db.execute(
      """
      INSERT INTO issues (id, title, detail, priority, completed, created, modified)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """,
      [
        id, values["title"] ?? .text(""), values["detail"] ?? .text(""),
        values["priority"] ?? .integer(0), values["completed"] ?? .integer(0),
        values["created"] ?? .real(0), modified,
      ])
    var tagFields: Set<String> = []
    try db.forEachRow(
      "SELECT DISTINCT field FROM changes WHERE row_id = ? AND entity = 'link'", [id]
    ) { row in tagFields.insert(try row.get(0, as: String.self)) }
    var groups: Set<String> = []
    for field in tagFields { groups.insert(try canonicalTag(field)) }
    for group in groups { try settleLink(issue: id, tag: group) }
  }

  // MARK: - Links

  private mutating func applyToLink(_ change: Change, device: Int64) throws {
    let rowLatest = try winner(row: change.row, fields: nil)?.stamp
    if try isDeleted(change.row) || isDeleted(change.field) {
      try record(change, device: device, lost: true)
      // The issue's time follows its latest change, applied or not, as on the device that made it.
      if try issueSeq(change.row) != nil { try touch(change, rowLatest: rowLatest) }
      return
    }
    try record(change, device: device)
    guard try issueSeq(change.row) != nil else { return }
    try touch(change, rowLatest: rowLatest)
    // A link to a tag that has not arrived waits for it (`settlePendingLinks`).
    let group = try canonicalTag(change.field)
    guard try tagSeq(group) != nil else { return }
    try settleLink(issue: change.row, tag: group)
  }

  /// Puts the link between an issue and a tag as its latest change says, the changes made through
  /// any of the tag's live ids counting.
  mutating func settleLink(issue: String, tag canonical: String) throws {
    guard let issueRow = try issueSeq(issue), let tagRow = try tagSeq(canonical) else { return }
    let members = try liveMembers(of: canonical)
    let current = try winner(row: issue, fields: members)
    if current?.new == .integer(1) {
      try db.execute(
        "INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq) VALUES (?, ?)", [issueRow, tagRow])
    } else {
      try db.execute(
        "DELETE FROM issue_tags WHERE issue_seq = ? AND tag_seq = ?", [issueRow, tagRow])
    }
  }
}
