import Database
import DocketCore
import DocketSync
import Foundation

/// The Conflicts count and an undo of a large step, on a copy of the benchmark's database (the
/// undo touches 10 000 issues, which the timings after it would see).
@MainActor
func undoTimings(of queue: DatabaseQueue, at path: String, size: Int, sidebarBudget: Double?)
  throws
{
  let copy = path + ".undo.sqlite"
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
  defer {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: copy + suffix)
    }
  }
  try queue.withConnection { try $0.execute("VACUUM INTO ?", [copy]) }
  let database = try DocketDatabase.open(path: copy, now: { now })
  // A thousand values that lost a merge to another device, for the count to find among the
  // history of every issue.
  try database.write { db in
    let phone = "0b000000-0000-4000-8000-000000000001"
    try db.execute("INSERT OR IGNORE INTO sync_devices (id, name) VALUES (?, 'Phone')", [phone])
    try db.execute(
      """
      INSERT INTO changes (hlc, device, entity, row_id, field, old_value, new_value, lost)
      SELECT 1000 + seq, (SELECT seq FROM sync_devices WHERE id = ?), 'issue', id, 'title',
        title, 'lost: ' || title, 1
      FROM issues ORDER BY seq LIMIT 1000
      """, [phone])
  }
  var samples: [Double] = []
  for run in 0..<(runs + 3) {
    let start = ContinuousClock.now
    let count = try database.read { try $0.conflictCount() }
    let elapsed = ContinuousClock.now - start
    precondition(count == min(1000, size), "conflicts counted: \(count)")
    if run >= 3 { samples.append(milliseconds(elapsed)) }
  }
  table.add(
    name: "count: Conflicts (1 000 open)", size: size, samples: samples, budget: sidebarBudget)

  let open = try database.read { db in
    try db.fetchAll("SELECT id FROM issues WHERE completed = 0 ORDER BY seq LIMIT 10000") {
      try $0.get(0, as: UUID.self)
    }
  }
  samples = []
  for _ in 0..<min(runs, 5) {
    try database.write { _ = try $0.setCompleted(true, issueIDs: open) }
    let start = ContinuousClock.now
    let report = try database.write { try $0.undo() }
    let elapsed = ContinuousClock.now - start
    precondition(
      report?.changes == open.count && report?.summary.verb == .close,
      "undo: \(String(describing: report))")
    samples.append(milliseconds(elapsed))
  }
  table.add(name: "undo: close of 10 000 issues", size: size, samples: samples, budget: 1000)
}

func milliseconds(_ duration: Duration) -> Double {
  Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
}
