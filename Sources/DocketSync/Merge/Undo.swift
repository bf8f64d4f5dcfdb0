import Database
import DocketCore
import Foundation

/// What a step did, as its words name it: "close “Fix login”", "close 10 issues".
public struct StepSummary: Equatable, Sendable {
  public enum Verb: String, Sendable {
    case add, delete, restore, close, reopen, edit, tag, change
    case newTag, renameTag, deleteTag, changeTags
  }

  public var verb: Verb
  /// How many issues (or, for the tag verbs, tags) it touched.
  public var count: Int
  /// The title of the one issue (or the name of the one tag) it touched.
  public var name: String?

  public init(verb: Verb, count: Int, name: String? = nil) {
    self.verb = verb
    self.count = count
    self.name = name
  }
}

/// One of this device's steps that `undo` or `redo` can take.
public struct UndoStep: Equatable, Sendable {
  public enum Kind: String, Sendable {
    case action = "do"
    case undo, redo
  }

  public var id: Int64
  public var kind: Kind
  /// The action it goes back to (for an undo or a redo, the one first done).
  public var summary: StepSummary
  public var at: Date
}

/// A change an undo or redo left as it was, because it was made after the step it took back.
public struct KeptChange: Equatable, Sendable {
  public enum What: Equatable, Sendable {
    /// A field of the issue (`title`, `detail`, `priority`, `completed`, `created`).
    case field(String)
    /// The issue's tag of this name, put on or taken off since.
    case tag(String)
    /// The issue was deleted since: an undo does not bring it back.
    case deleted
    /// The issue the step made was changed since: an undo does not delete it.
    case changed
    /// A tag the step renamed was renamed since, or its old name is taken.
    case tagName(String)
    /// The issue the step deleted cannot come back: deleted for good, or more than 30 days ago.
    case gone
  }

  /// The issue's title (for `tagName`, the tag's name).
  public var title: String
  public var what: What
  /// The device whose change is kept; empty when not known.
  public var deviceName: String
  public var isThisDevice: Bool

  public init(title: String, what: What, deviceName: String, isThisDevice: Bool) {
    self.title = title
    self.what = what
    self.deviceName = deviceName
    self.isThisDevice = isThisDevice
  }
}

/// What an undo or redo did.
public struct UndoReport: Equatable, Sendable {
  public var isRedo: Bool
  /// The action it took back or made again.
  public var summary: StepSummary
  /// What it left, newest first as found; `keptCount` counts them all.
  public var kept: [KeptChange]
  public var keptCount: Int
  /// How many changes it recorded.
  public var changes: Int

  public init(
    isRedo: Bool, summary: StepSummary, kept: [KeptChange], keptCount: Int, changes: Int
  ) {
    self.isRedo = isRedo
    self.summary = summary
    self.kept = kept
    self.keptCount = keptCount
    self.changes = changes
  }
}

/// Undo and redo of this device's own steps (`undo_steps`, one a write). An undo puts back the
/// values a step replaced as new changes stamped now, so it syncs like any edit and reverts on
/// every device. It is safe: a field whose value is no longer the one the step left (another
/// device, or this one, changed it since) is kept as it is and reported, as is an issue the step
/// made that another device changed since, and an issue deleted since. A redo is the undo of an
/// undo, under the same rules.
extension Connection {
  /// How many kept changes a report names one by one.
  static let keptNamed = 5

  /// The steps `undo` would take, newest first.
  public func undoableSteps(limit: Int = 50) throws -> [UndoStep] {
    try steps(where: "s.kind != 'undo' AND s.undone = 0", limit: limit)
  }

  /// The steps `redo` would take (undos made since this device's latest action), newest first.
  public func redoableSteps(limit: Int = 50) throws -> [UndoStep] {
    try steps(where: Self.redoableSQL, limit: limit)
  }

  static let redoableSQL = """
    s.kind = 'undo' AND s.undone = 0
      AND s.seq > (SELECT coalesce(max(seq), 0) FROM undo_steps WHERE kind = 'do')
    """

  private func steps(where condition: String, limit: Int) throws -> [UndoStep] {
    let rows = try fetchAll(
      """
      SELECT s.seq, s.kind, s.at, coalesce(r.first, s.first), coalesce(r.last, s.last)
      FROM undo_steps s LEFT JOIN undo_steps r ON r.seq = coalesce(s.root, s.seq)
      WHERE \(condition) ORDER BY s.seq DESC LIMIT ?
      """, [limit]
    ) { row in
      (
        id: try row.get(0, as: Int64.self), kind: try row.get(1, as: String.self),
        at: try row.get(2, as: Double.self), first: try row.get(3, as: Int64.self),
        last: try row.get(4, as: Int64.self)
      )
    }
    return try rows.map { row in
      UndoStep(
        id: row.id, kind: UndoStep.Kind(rawValue: row.kind) ?? .action,
        summary: try stepSummary(first: row.first, last: row.last),
        at: Date(timeIntervalSince1970: row.at))
    }
  }

  /// Takes back this device's latest step; nil when there is none. `makeID` names a tag made
  /// again (a tag the step deleted). Part of the write around it (`withinTransaction`): a
  /// savepoint would make each of a large step's statements walk every page written before.
  public func undo(makeID: () -> UUID = UUID.init) throws -> UndoReport? {
    try withinTransaction {
      guard
        let step = try nextStep(
          "SELECT seq FROM undo_steps s WHERE s.kind != 'undo' AND s.undone = 0 ORDER BY seq DESC")
      else { return nil }
      return try revert(step, as: .undo, makeID: makeID)
    }
  }

  /// Makes again the step the latest undo took back; nil when there is none (nothing was undone,
  /// or an action was made since).
  public func redo(makeID: () -> UUID = UUID.init) throws -> UndoReport? {
    try withinTransaction {
      guard
        let step = try nextStep(
          "SELECT seq FROM undo_steps s WHERE \(Self.redoableSQL) ORDER BY seq DESC")
      else { return nil }
      return try revert(step, as: .redo, makeID: makeID)
    }
  }

  private struct StoredStep {
    var id: Int64
    var first: Int64
    var last: Int64
    var root: Int64
  }

  private func nextStep(_ sql: String) throws -> StoredStep? {
    try fetchOne(
      """
      SELECT s.seq, s.first, s.last, coalesce(s.root, s.seq) FROM undo_steps s
      WHERE s.seq = (\(sql) LIMIT 1)
      """
    ) { row in
      StoredStep(
        id: try row.get(0), first: try row.get(1), last: try row.get(2), root: try row.get(3))
    }
  }

  private func revert(_ step: StoredStep, as kind: UndoStep.Kind, makeID: () -> UUID) throws
    -> UndoReport
  {
    // The action it goes back to names it; one trimmed away (`Schema.keptUndoSteps`) leaves
    // the step's own changes to name it.
    let root =
      try fetchOne(
        "SELECT first, last FROM undo_steps WHERE seq = ?", [step.root],
        { row in (first: try row.get(0, as: Int64.self), last: try row.get(1, as: Int64.self)) })
      ?? (first: step.first, last: step.last)
    let summary = try stepSummary(first: root.first, last: root.last)
    let mark = try latestChangeSeq()
    var kept = KeptList()
    try putBack(first: step.first, last: step.last, kept: &kept, makeID: makeID)
    let end = try latestChangeSeq()
    try execute("UPDATE undo_steps SET undone = 1 WHERE seq = ?", [step.id])
    try execute(
      """
      INSERT INTO undo_steps (kind, first, last, target, root, at)
      VALUES (?, ?, ?, ?, ?, docket_now())
      """, [kind.rawValue, mark + 1, max(end, mark), step.id, step.root])
    return UndoReport(
      isRedo: kind == .redo, summary: summary, kept: kept.named, keptCount: kept.count,
      changes: Int(end - mark))
  }

  /// The kept changes a report names, and how many there were.
  struct KeptList {
    var named: [KeptChange] = []
    var count = 0

    mutating func add(_ change: @autoclosure () throws -> KeptChange) rethrows {
      count += 1
      if named.count < Connection.keptNamed { named.append(try change()) }
    }
  }

  /// Puts back what this device's changes in rows `first`...`last` replaced, where nothing made
  /// since stands in the way.
  private func putBack(
    first: Int64, last: Int64, kept: inout KeptList, makeID: () -> UUID
  ) throws {
    guard first <= last else { return }
    let local = try fetchOne("SELECT device FROM sync_clock", as: Int64.self) ?? 0
    var made: [String] = []
    var madeSet = Set<String>()
    var deleted: [String] = []
    var fields: [String: (old: DatabaseValue, new: DatabaseValue)] = [:]
    var fieldOrder: [(row: String, field: String)] = []
    var links: [String: (old: DatabaseValue, new: DatabaseValue)] = [:]
    var linkOrder: [(row: String, tag: String)] = []
    var tags: [String: TagSteps] = [:]
    var tagOrder: [String] = []
    try forEachRow(
      """
      SELECT entity, row_id, field, old_value, new_value FROM changes
      WHERE seq BETWEEN ? AND ? AND device = ? AND held = 0 ORDER BY seq
      """, [first, last, local]
    ) { row in
      let entity = try row.get(0, as: String.self)
      let id = try row.get(1, as: String.self)
      let field = try row.get(2, as: String.self)
      let old = try row.get(3, as: DatabaseValue.self)
      let new = try row.get(4, as: DatabaseValue.self)
      switch entity {
      case "issue":
        switch field {
        case "create", "restore":
          if madeSet.insert(id).inserted { made.append(id) }
        case "delete":
          deleted.append(id)
        case _ where Schema.syncedIssueFields.contains(field):
          let key = id + " " + field
          if let earlier = fields[key] {
            fields[key] = (earlier.old, new)
          } else {
            fields[key] = (old, new)
            fieldOrder.append((id, field))
          }
        default:
          break
        }
      case "link":
        let key = id + " " + field
        if let earlier = links[key] {
          links[key] = (earlier.old, new)
        } else {
          links[key] = (old, new)
          linkOrder.append((id, field))
        }
      case "tag":
        if tags[id] == nil { tagOrder.append(id) }
        var steps = tags[id] ?? TagSteps()
        switch field {
        case "create": steps.created = true
        case "name":
          if steps.firstName == nil { steps.firstName = old }
          steps.lastName = new
        case "delete": steps.deletedName = old
        default: break
        }
        tags[id] = steps
      default:
        break
      }
    }
    let deletedSet = Set(deleted)
    // Tags first: a tag the step deleted is made again before its issues' links come back.
    for id in tagOrder {
      try putBackTag(id, tags[id]!, before: first, kept: &kept, makeID: makeID)
    }
    // What the step made (or brought back) goes again, unless another device changed it since.
    for id in made where !deletedSet.contains(id) {
      guard let uuid = UUID(text: id), try issueExists(id) else { continue }
      if let other = try otherDeviceChange(of: id, after: last, local: local) {
        try kept.add(
          KeptChange(
            title: try issueTitle(id), what: .changed, deviceName: other,
            isThisDevice: false))
        continue
      }
      try deleteIssues([uuid])
    }
    // What the step deleted comes back, while it can.
    for id in deleted where !madeSet.contains(id) {
      guard let uuid = UUID(text: id), !(try issueExists(id)) else { continue }
      if try restoreDeletedIssue(id: uuid) == nil {
        try kept.add(
          KeptChange(title: try issueTitle(id), what: .gone, deviceName: "", isThisDevice: true))
      }
    }
    var reportedDeleted = Set<String>()
    for (id, field) in fieldOrder where !madeSet.contains(id) && !deletedSet.contains(id) {
      let values = fields[id + " " + field]!
      // Put back where the value is still the step's; only where it is not is more asked. The
      // time is set here, as the capture trigger would, so that it does not write the row twice.
      let stamp = field == "created" ? "" : ", modified = docket_now()"
      try execute(
        "UPDATE issues SET \(field) = ?\(stamp) WHERE id = ? AND \(field) IS ?",
        [values.old, id, values.new])
      guard changedRowCount == 0 else { continue }
      guard try issueExists(id) else {
        if reportedDeleted.insert(id).inserted {
          try kept.add(try deletedSince(id))
        }
        continue
      }
      if try fetchOne(
        "SELECT 1 FROM issues WHERE id = ? AND \(field) IS ?", [id, values.old], as: Int.self)
        == nil
      {
        let by = try latestDevice(row: id, fields: [field, "create", "restore"], local: local)
        try kept.add(
          KeptChange(
            title: try issueTitle(id), what: .field(field), deviceName: by.name,
            isThisDevice: by.isLocal))
      }
    }
    for (id, tag) in linkOrder where !madeSet.contains(id) && !deletedSet.contains(id) {
      let values = links[id + " " + tag]!
      guard try issueExists(id) else {
        if reportedDeleted.insert(id).inserted { try kept.add(try deletedSince(id)) }
        continue
      }
      guard let tagRow = try liveTagRow(tag) else { continue }
      let wanted = values.old == .integer(1)
      let left = values.new == .integer(1)
      let now =
        try fetchOne(
          """
          SELECT 1 FROM issue_tags WHERE issue_seq = (SELECT seq FROM issues WHERE id = ?)
            AND tag_seq = ?
          """, [id, tagRow], as: Int.self) != nil
      if now == wanted { continue }
      guard now == left else { continue }
      if wanted {
        try execute(
          """
          INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq)
          SELECT seq, ? FROM issues WHERE id = ?
          """, [tagRow, id])
      } else {
        try execute(
          """
          DELETE FROM issue_tags WHERE issue_seq = (SELECT seq FROM issues WHERE id = ?)
            AND tag_seq = ?
          """, [id, tagRow])
      }
    }
  }

  private struct TagSteps {
    var created = false
    var firstName: DatabaseValue?
    var lastName: DatabaseValue?
    var deletedName: DatabaseValue?
  }

  private func putBackTag(
    _ id: String, _ steps: TagSteps, before first: Int64, kept: inout KeptList,
    makeID: () -> UUID
  ) throws {
    guard let uuid = UUID(text: id) else { return }
    let exists = try fetchOne("SELECT 1 FROM tags WHERE id = ?", [id], as: Int.self) != nil
    if steps.created, steps.deletedName == nil {
      if exists { _ = try deleteTag(id: uuid) }
      return
    }
    if case .text(let name)? = steps.deletedName, !steps.created, !exists {
      // A deleted tag cannot come back under its id (a delete wins on every device): it is
      // made again by its name, and put back on the issues that had it then.
      let tag = try fetchTag(named: name) ?? createTag(named: name, id: makeID()).tag
      guard let tagRow = try fetchOne("SELECT seq FROM tags WHERE id = ?", [tag.id], as: Int64.self)
      else { return }
      try execute(
        """
        INSERT OR IGNORE INTO issue_tags (issue_seq, tag_seq)
        SELECT i.seq, ? FROM issues i WHERE i.id IN (
          SELECT l.row_id FROM changes l
          WHERE l.entity = 'link' AND l.field = ? AND l.seq < ? AND l.held = 0 AND l.lost = 0
            AND l.seq = (
              SELECT max(o.seq) FROM changes o
              WHERE o.entity = 'link' AND o.field = l.field AND o.row_id = l.row_id
                AND o.seq < ? AND o.held = 0 AND o.lost = 0)
            AND CAST(l.new_value AS INTEGER) = 1)
        """, [tagRow, id, first, first])
      return
    }
    if case .text(let old)? = steps.firstName, case .text(let new)? = steps.lastName, exists {
      let current = try fetchOne("SELECT name FROM tags WHERE id = ?", [id], as: String.self)
      if current == old { return }
      if current == new, (try? renameTag(id: uuid, to: old)) != nil { return }
      kept.add(
        KeptChange(title: current ?? new, what: .tagName(old), deviceName: "", isThisDevice: true))
    }
  }

  private func issueExists(_ id: String) throws -> Bool {
    try fetchOne("SELECT 1 FROM issues WHERE id = ?", [id], as: Int.self) != nil
  }

  /// The issue's title now, or the one it had when deleted.
  private func issueTitle(_ id: String) throws -> String {
    if let title = try fetchOne("SELECT title FROM issues WHERE id = ?", [id], as: String.self) {
      return title
    }
    return try UUID(text: id).flatMap { try deletedTitle(of: $0) } ?? ""
  }

  private func deletedSince(_ id: String) throws -> KeptChange {
    let by = try latestDevice(row: id, fields: ["delete"], local: nil)
    return KeptChange(
      title: try issueTitle(id), what: .deleted, deviceName: by.name, isThisDevice: by.isLocal)
  }

  /// A tag's row here, by its id or the id of a tag of the same name (tags of one name are one).
  private func liveTagRow(_ id: String) throws -> Int64? {
    try fetchOne(
      """
      SELECT t.seq FROM tags t WHERE t.id = ?1
        OR t.id IN (
          SELECT other.id FROM sync_tag_names one
            JOIN sync_tag_names other ON other.name_key = one.name_key WHERE one.id = ?1)
      ORDER BY t.id = ?1 DESC LIMIT 1
      """, [id], as: Int64.self)
  }

  /// Another device's change of the issue recorded here after row `after`.
  private func otherDeviceChange(of id: String, after: Int64, local: Int64) throws -> String? {
    try fetchOne(
      """
      SELECT d.name, d.id FROM changes c JOIN sync_devices d ON d.seq = c.device
      WHERE c.row_id = ? AND c.seq > ? AND c.device != ? AND c.held = 0 AND c.lost = 0
      ORDER BY c.seq DESC LIMIT 1
      """, [id, after, local]
    ) { row in try Self.deviceLabel(name: row.get(0), id: row.get(1)) }
  }

  /// The device of the latest change among `fields` of row `id`, and whether it is this one.
  private func latestDevice(row id: String, fields: [String], local: Int64?) throws -> (
    name: String, isLocal: Bool
  ) {
    let local = try local ?? fetchOne("SELECT device FROM sync_clock", as: Int64.self) ?? 0
    return try fetchOne(
      """
      SELECT d.name, d.id, c.device FROM changes c JOIN sync_devices d ON d.seq = c.device
      WHERE c.row_id = ? AND c.field IN (\(fields.map { _ in "?" }.joined(separator: ", ")))
        AND c.held = 0 AND c.lost = 0
      ORDER BY c.hlc DESC, d.id DESC LIMIT 1
      """, [id] + fields
    ) { row in
      (
        try Self.deviceLabel(name: row.get(0), id: row.get(1)),
        try row.get(2, as: Int64.self) == local
      )
    } ?? ("", true)
  }

  /// A device as a person knows it: its name, or the start of its id when it sent none.
  static func deviceLabel(name: String, id: String) -> String {
    name.isEmpty ? String(id.prefix(8)) : name
  }

  /// What the changes in rows `first`...`last` of this device did, in a few words.
  func stepSummary(first: Int64, last: Int64) throws -> StepSummary {
    var fields: [String: (rows: Int, least: DatabaseValue, most: DatabaseValue)] = [:]
    try forEachRow(
      """
      SELECT entity || ' ' || CASE entity WHEN 'link' THEN '' ELSE field END,
        count(DISTINCT row_id), min(new_value), max(new_value)
      FROM changes WHERE seq BETWEEN ? AND ? AND device = (SELECT device FROM sync_clock)
      GROUP BY 1
      """, [first, last]
    ) { row in
      fields[try row.get(0, as: String.self)] = (
        try row.get(1, as: Int.self), try row.get(2, as: DatabaseValue.self),
        try row.get(3, as: DatabaseValue.self)
      )
    }
    let issueKinds = Set(
      fields.keys.filter { $0.hasPrefix("issue ") }.map { String($0.dropFirst(6)) })
    let linked = fields["link "] != nil
    let tagKinds = Set(fields.keys.filter { $0.hasPrefix("tag ") }.map { String($0.dropFirst(4)) })
    guard !issueKinds.isEmpty || linked else {
      let rows =
        try fetchOne(
          """
          SELECT count(DISTINCT row_id) FROM changes
          WHERE seq BETWEEN ? AND ? AND entity = 'tag' AND device = (SELECT device FROM sync_clock)
          """, [first, last], as: Int.self) ?? 0
      let verb: StepSummary.Verb =
        switch tagKinds {
        case ["create"]: .newTag
        case ["name"]: .renameTag
        case ["delete"]: .deleteTag
        default: .changeTags
        }
      var name: String?
      if rows == 1 {
        name =
          try fetchOne(
            """
            SELECT CASE field WHEN 'create' THEN json_extract(new_value, '$.name')
              WHEN 'name' THEN new_value ELSE old_value END
            FROM changes WHERE seq BETWEEN ? AND ? AND entity = 'tag' ORDER BY seq LIMIT 1
            """, [first, last], as: String?.self) ?? nil
      }
      return StepSummary(verb: verb, count: rows, name: name)
    }
    let rows =
      try fetchAll(
        """
        SELECT DISTINCT row_id FROM changes
        WHERE seq BETWEEN ? AND ? AND entity IN ('issue', 'link')
          AND device = (SELECT device FROM sync_clock) LIMIT 2
        """, [first, last]
      ) { try $0.get(0, as: String.self) }
    let count =
      rows.count < 2
      ? rows.count
      : try fetchOne(
        """
        SELECT count(DISTINCT row_id) FROM changes
        WHERE seq BETWEEN ? AND ? AND entity IN ('issue', 'link')
          AND device = (SELECT device FROM sync_clock)
        """, [first, last], as: Int.self) ?? 0
    let edits: Set<String> = Set(Schema.syncedIssueFields)
    let verb: StepSummary.Verb
    if issueKinds == ["create"] {
      verb = .add
    } else if issueKinds == ["delete"] {
      verb = .delete
    } else if issueKinds == ["restore"] {
      verb = .restore
    } else if issueKinds == ["completed"], !linked, let done = fields["issue completed"],
      done.least == done.most
    {
      verb = done.most == .integer(1) ? .close : .reopen
    } else if issueKinds.isEmpty {
      verb = .tag
    } else if issueKinds.isSubset(of: edits) {
      verb = .edit
    } else {
      verb = .change
    }
    var name: String?
    if count == 1, let id = rows.first {
      name = try issueTitle(id)
      if name?.isEmpty ?? true {
        name =
          try fetchOne(
            """
            SELECT CASE field WHEN 'title' THEN new_value WHEN 'delete'
              THEN json_extract(old_value, '$.title') ELSE json_extract(new_value, '$.title') END
            FROM changes WHERE seq BETWEEN ? AND ? AND row_id = ?
              AND field IN ('title', 'create', 'restore', 'delete') ORDER BY seq DESC LIMIT 1
            """, [first, last, id], as: String?.self) ?? nil
      }
    }
    return StepSummary(verb: verb, count: count, name: name)
  }
}
