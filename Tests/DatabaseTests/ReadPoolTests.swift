import Database
import DocketTestSupport
import Foundation
import Locking
import Testing

@Suite struct ReadPoolTests {
  /// A reader is kept for the next read, unless it reads its file as unchanging (opened so on a
  /// full disk): that one would never see a later write, so the next read opens afresh and sees it.
  @Test func anUnchangingReaderIsNotKeptAndTheNextReadSeesALaterWrite() throws {
    let folder = try TemporaryDirectory(prefix: "docket-pool")
    let path = folder.path("pool.sqlite")
    let writer = try Connection(path: path)
    // In WAL mode, as Docket's files are: a write goes to the log, which an unchanging reader
    // never reads.
    _ = try writer.fetchOne("PRAGMA journal_mode = WAL", as: String.self)
    try writer.execute("CREATE TABLE t (x INTEGER)")
    try writer.execute("INSERT INTO t VALUES (1)")

    for unchanging in [false, true] {
      // Everything so far in the file itself, where an unchanging reader sees it.
      _ = try writer.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)", as: Int.self)
      let opened = Locked(0)
      // The first reader is opened unchanging (the disk was full), the later ones properly (it
      // has room again), as `Connection.opening` would.
      let pool = ReadPool {
        let first = opened.withLock { count in
          count += 1
          return count == 1
        }
        return unchanging && first
          ? try Connection.immutable(path: path) : try Connection(path: path)
      }
      func count() throws -> Int {
        try pool.read { try $0.fetchOne("SELECT count(*) FROM t", as: Int.self) ?? -1 }
      }
      let before = try count()
      try writer.execute("INSERT INTO t VALUES (2)")
      #expect(try count() == before + 1, "unchanging: \(unchanging)")
      #expect(opened.withLock { $0 } == (unchanging ? 2 : 1), "unchanging: \(unchanging)")
    }
  }
}
