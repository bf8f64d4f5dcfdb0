import Composable
import Database
import DocketCore
import DocketFeatures
import DocketTUI
import Foundation
import Testing

/// Quitting waits for the writes still in flight, for a few seconds at most.
@MainActor
@Suite struct QuitTests {
  let folder: URL
  let database: DatabaseQueue
  let issue: DocketCore.Issue

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-quit-\(UUID().uuidString)")
    database = try DocketDatabase.open(path: folder.appendingPathComponent("q.sqlite").path)
    issue = DocketCore.Issue(id: UUID(), title: "Ship it", created: Date())
    try database.write { try $0.insertIssue(issue) }
  }

  func store() -> Store<DetailFeature.State, DetailFeature.Action> {
    Store(initialState: DetailFeature.State(issue: issue), reducer: DetailFeature()) {
      $0.database = database
      $0.locale = "en"
      $0.uuid = .incrementing
    }
  }

  func removeFolder() { try? FileManager.default.removeItem(at: folder) }

  func completed() throws -> Bool? {
    try database.read { try $0.fetchIssue(id: issue.id)?.completed }
  }

  /// Another program holds the write lock when `x` is pressed and `q` follows at once: quitting
  /// waits until the lock is free and the change has landed.
  @Test func quittingWithAWriteInFlightKeepsIt() async throws {
    let other = try DocketDatabase.connection(path: database.path)
    try other.execute("BEGIN IMMEDIATE")
    let store = store()
    store.send(.toggleCompletedTapped)
    // Released from a thread of its own, so that a busy test run cannot hold the release up.
    nonisolated(unsafe) let holder = other
    Thread.detachNewThread {
      usleep(300_000)
      try? holder.execute("COMMIT")
    }
    #expect(try completed() == false)
    // Generous, so that a busy test run cannot starve it; the app waits WriteDrain.quitTimeout.
    let landed = await WriteDrain.wait(for: store, timeout: .seconds(60))
    #expect(landed)
    #expect(try completed() == true)
    removeFolder()
  }

  /// A write that cannot land within the time allowed is reported, not waited for forever.
  @Test func aWriteThatCannotLandInTimeIsReported() async throws {
    let other = try DocketDatabase.connection(path: database.path)
    try other.execute("BEGIN IMMEDIATE")
    let store = store()
    store.send(.toggleCompletedTapped)
    // Had the wait not given up, it would have waited for the write, which cannot land before
    // the commit below, and would have answered true.
    let landed = await WriteDrain.wait(for: store, timeout: .milliseconds(200))
    #expect(!landed)
    try other.execute("COMMIT")
    await store.waitForEffects(in: WriteLane.database)
    #expect(try completed() == true)
    removeFolder()
  }
}
