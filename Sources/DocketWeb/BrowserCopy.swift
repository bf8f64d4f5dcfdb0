import Database
import DocketCore
import DocketSync
import DocketTransfer
import Foundation
import HTTPServer
import JSONText

/// The copy a paired browser keeps of the tracker, so that the page works with the server out
/// of reach, and the changes it made meanwhile.
///
/// `GET /copy` answers with every issue (its tags' ids with it) and tag; `GET /copy?since=N`,
/// `N` the `seq` of an earlier answer, with the rows changed after it, and the ids of those gone.
/// An answer of the database's other identity (`database`, a copy put in its place) or a `since`
/// ahead of it says `"full":true`: the browser starts its copy again.
///
/// The browser is a device of this database: `POST /changes` carries the changes it made,
/// stamped by its own clock, as change lines (`Change`), and they merge by the same field rules
/// as any device's; the history names the browser.
extension Connection {
  /// The copy, or what changed in it after change row `since`, as JSON, for the browser
  /// `device` (told its own id, which its changes carry).
  func browserCopy(since: Int64?, device: String, now: Date) throws -> [UInt8] {
    let latest = try latestChangeSeq()
    let clock = try fetchOne("SELECT hlc FROM sync_clock", as: Int64.self) ?? 0
    let database =
      try fetchOne("SELECT value FROM settings WHERE key = 'device_id'", as: String.self) ?? ""
    // Rows changed in place, with no change of each row's own to name them, make the browser
    // take the whole copy again: a device retired since (its clock ran ahead; this database
    // recomputes issues), and a tag renamed, deleted or made one with another (its links leave
    // or move; tags that bear one name go by one id, which may change). A tag made anew is sent
    // as it is.
    let inPlace =
      try since.map {
        try fetchOne(
          """
          SELECT 1 FROM changes c WHERE c.seq > ? AND c.seq <= ? AND (c.entity = 'device'
            OR (c.entity = 'tag' AND (c.field != 'create'
              OR NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = c.row_id)
              OR EXISTS (
                SELECT 1 FROM sync_tag_names one JOIN sync_tag_names other
                  ON other.name_key = one.name_key AND other.id != one.id
                WHERE one.id = c.row_id))))
          LIMIT 1
          """, [$0, latest], as: Int.self) != nil
      } ?? false
    let full = since == nil || since! > latest || since! < 0 || inPlace
    var output = OutputBytes.record()
    output.append("{\"version\":1,\"database\":")
    JSONWriter.appendQuoted(database, to: &output)
    output.append(",\"device\":")
    JSONWriter.appendQuoted(device, to: &output)
    output.append(",\"seq\":\(latest),\"clock\":\"\(clock)\",\"full\":\(full)")
    // The server's time (milliseconds since 1970), by which the browser sets its clock.
    output.append(",\"now\":\(Int64((now.timeIntervalSince1970 * 1000).rounded()))")
    var issueIDs: [String] = []
    var tagIDs: [String] = []
    if !full, let since {
      try forEachRow(
        "SELECT DISTINCT entity, row_id FROM changes WHERE seq > ? AND seq <= ?", [since, latest]
      ) { row in
        let id = try row.get(1, as: String.self)
        switch try row.get(0, as: String.self) {
        case "tag": tagIDs.append(id)
        case "issue", "link": issueIDs.append(id)
        default: break
        }
      }
    }
    // Every row of `sql`, or those of the ids (in chunks a statement takes).
    func each(_ sql: String, ids: [String], _ body: (Row) throws -> Void) throws {
      if full { return try forEachRow(sql, [], body) }
      for start in stride(from: 0, to: ids.count, by: 500) {
        let chunk = Array(ids[start..<min(start + 500, ids.count)])
        let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
        try forEachRow(sql + " WHERE id IN (\(marks))", chunk, body)
      }
    }
    func list(_ name: String, _ ids: [String]) {
      output.append(",\"\(name)\":[")
      for (index, id) in ids.enumerated() {
        if index > 0 { output.append(",") }
        JSONWriter.appendQuoted(id, to: &output)
      }
      output.append("]")
    }
    /// `{"id":"…"`, after a comma unless it is the list's first.
    func open(_ id: String, first: Bool) {
      output.append(first ? "{\"id\":" : ",{\"id\":")
      JSONWriter.appendQuoted(id, to: &output)
    }
    /// `,"name":"…"`.
    func text(_ name: String, _ value: String) {
      output.append(",\"\(name)\":")
      JSONWriter.appendQuoted(value, to: &output)
    }
    // The issues, each with its tags' ids.
    output.append(",\"issues\":[")
    var found = Set<String>()
    try each(
      """
      SELECT id, title, detail, priority, completed, created, modified,
        (SELECT group_concat(t.id) FROM issue_tags it JOIN tags t ON t.seq = it.tag_seq
         WHERE it.issue_seq = issues.seq)
      FROM issues
      """, ids: issueIDs
    ) { row in
      let id = try row.get(0, as: String.self)
      open(id, first: found.isEmpty)
      found.insert(id)
      text("title", try row.get(1, as: String.self))
      text("detail", try row.get(2, as: String.self))
      output.append(",\"priority\":\(try row.get(3, as: Int.self))")
      output.append(",\"completed\":\(try row.get(4, as: Int.self) != 0)")
      output.append(",\"created\":")
      JSONWriter.append(.number(try row.get(5, as: Double.self)), to: &output)
      if let modified = try row.get(6, as: Double?.self) {
        output.append(",\"modified\":")
        JSONWriter.append(.number(modified), to: &output)
      }
      list("tags", (try row.get(7, as: String?.self)?.split(separator: ",") ?? []).map(String.init))
      output.append("}")
    }
    output.append("],\"tags\":[")
    var foundTags = Set<String>()
    try each("SELECT id, name FROM tags", ids: tagIDs) { row in
      let id = try row.get(0, as: String.self)
      open(id, first: foundTags.isEmpty)
      foundTags.insert(id)
      text("name", try row.get(1, as: String.self))
      output.append("}")
    }
    output.append("]")
    // What changed and is no longer there: deleted, or a tag merged into another.
    list("goneIssues", Set(issueIDs).subtracting(found).sorted())
    list("goneTags", Set(tagIDs).subtracting(foundTags).sorted())
    output.append("}")
    return output.bytes
  }
}

/// Why the changes a browser sent were refused, as it is told.
struct RefusedChanges: Error {
  var reason: String
}

enum BrowserChanges {
  /// The most changes one request carries: the page sends what waits in batches of fewer.
  static let mostChanges = 2_000

  /// The changes of `text` (one JSON object a line), checked: well formed, each of the browser
  /// `device` itself, of issues, tags and links only, stamped no further ahead of `now` than a
  /// device's clock may run. A line that fails is refused alone (`refused`, why, by line): the
  /// others are kept, so that one bad change never costs the page the rest it waited with.
  static func parse(_ text: String, device: String, now: Date) throws
    -> (changes: [Change], refused: [String], ahead: [Int])
  {
    var changes: [Change] = []
    var refused: [String] = []
    var ahead: [Int] = []
    let bound = HybridClock.bound(wall: now)
    // Lines end at LF alone (by byte: CR LF is one Character), as U+2028 and the like may
    // stand unescaped inside a JSON string.
    let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
    guard lines.count <= mostChanges else {
      throw RefusedChanges(reason: "more than \(mostChanges) changes")
    }
    for (index, raw) in lines.enumerated() {
      let line = raw.last == 0x0D ? raw.dropLast() : raw
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let number = index + 1
      let change: Change
      do {
        change = try Change(json: try JSONReader.document(Array(line)), line: number)
      } catch is JSONSyntaxError {
        refused.append("line \(number): not JSON")
        continue
      } catch {
        refused.append(String(describing: error))
        continue
      }
      // A browser speaks for itself alone, and of what a person edits.
      if change.stamp.device != device {
        refused.append("line \(number): a change of another device")
      } else if !browserMakes(change) {
        refused.append("line \(number): not a change a browser makes")
      } else if change.stamp.hlc > bound {
        // Its clock is wrong: taken, it would wait unseen until the time came.
        refused.append("line \(number): stamped ahead of this server's clock")
        ahead.append(number)
      } else if let modified = change.modified,
        modified > now.timeIntervalSince1970 + HybridClock.maxDrift
      {
        // Taken, it would stand first in every list by date for as long as it said.
        refused.append("line \(number): modified ahead of this server's clock")
        ahead.append(number)
      } else {
        changes.append(change)
      }
    }
    return (changes, refused, ahead)
  }

  /// The fields of an issue the page changes: it makes, edits, completes and deletes issues and
  /// tags them; tags themselves, restoring and the time an issue was made are the server's.
  static let browserIssueFields: Set<String> = [
    "create", "delete", "title", "detail", "priority", "completed",
  ]

  /// Whether the page makes changes like `change`.
  static func browserMakes(_ change: Change) -> Bool {
    switch change.entity {
    case .issue: browserIssueFields.contains(change.field)
    case .link: true
    case .tag, .device: false
    }
  }
}

extension WebApp {
  /// Merges the changes a paired browser made (offline, most often) as its own device's; the
  /// answer says how many were taken, or why none was.
  func receiveChanges(_ request: HTTPRequest, from browser: PairedBrowser) -> HTTPResponse {
    let device = browser.id.lowercasedText
    func answer(_ status: Int, _ members: [(String, JSON)]) -> HTTPResponse {
      HTTPResponse(
        status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
        body: .bytes(Array(JSONWriter.text(.object(members)).utf8)))
    }
    let now = now()
    // Lines refused only for a clock ahead (the page's clock put right since): the page stamps
    // them again by `now` and sends them again.
    // With them: the stamp the new ones must pass (this server's clock, which has passed every
    // change it holds, this browser's among them, within the bound), and the bound itself, past
    // which the page's waiting changes were stamped by the same wrong clock.
    // A clock that cannot be read fails the answer (500): the page keeps every line waiting, and
    // sends them again later (the changes taken meanwhile are taken once).
    func timing(_ ahead: [Int]) throws -> [(String, JSON)] {
      guard !ahead.isEmpty else { return [] }
      let bound = HybridClock.bound(wall: now)
      let clock: Int64? = try database.read { db in
        try db.fetchOne(
          """
          SELECT max(coalesce((SELECT hlc FROM sync_clock), 0), coalesce((
            SELECT max(hlc) FROM changes
            WHERE device = (SELECT seq FROM sync_devices WHERE id = ?) AND hlc <= ?), 0))
          """, [device, bound], as: Int64.self)
      }
      return [
        ("ahead", .array(ahead.map { .number(Double($0)) })),
        ("now", .number(now.timeIntervalSince1970)),
        ("after", .string(String(min(clock ?? 0, bound)))),
        ("bound", .string(String(bound))),
      ]
    }
    do {
      let (changes, refused, ahead) = try BrowserChanges.parse(
        request.formValue("changes") ?? "", device: device, now: now)
      if changes.isEmpty {
        return answer(
          refused.isEmpty ? 200 : 422,
          [("received", .number(0)), ("refused", .array(refused.map { .string($0) }))]
            + (try timing(ahead)))
      }
      let summary = try database.write { db in
        // Its changes go on to the other devices with this one's next sync.
        try db.noteRelayed(device: device)
        // The server's own id, which no browser may speak for.
        return try db.applyChanges(
          changes, deviceNames: [device: browser.name], local: try db.localDeviceID())
      }
      live.changed()
      return answer(
        200,
        [
          ("received", .number(Double(changes.count))),
          ("refused", .array(refused.map { .string($0) })),
          ("latest", .string(String(summary.latest))),
        ] + (try timing(ahead)))
    } catch let refused as RefusedChanges {
      return answer(422, [("error", .string(refused.reason))])
    } catch {
      return answer(500, [("error", .string(String(describing: error)))])
    }
  }
}
