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
    Task.detached {
      try? await Task.sleep(for: .milliseconds(300))
      try? other.execute("COMMIT")
    }
    #expect(try completed() == false)
    let landed = await WriteDrain.wait(for: store, timeout: WriteDrain.quitTimeout)
    #expect(landed)
    #expect(try completed() == true)
  }

  /// A write that cannot land within the time allowed is reported, not waited for forever.
  @Test func aWriteThatCannotLandInTimeIsReported() async throws {
    let other = try DocketDatabase.connection(path: database.path)
    try other.execute("BEGIN IMMEDIATE")
    let store = store()
    store.send(.toggleCompletedTapped)
    let started = ContinuousClock.now
    let landed = await WriteDrain.wait(for: store, timeout: .milliseconds(200))
    #expect(!landed)
    #expect(ContinuousClock.now - started < .seconds(3))
    try other.execute("COMMIT")
    await store.waitForEffects(in: WriteLane.database)
    #expect(try completed() == true)
  }
}
