import ComposableTesting
import DocketCore
import DocketSync
import Foundation
import Testing

@testable import DocketFeatures

/// Undo and redo from the terminal app's root: the step taken back is written, and what it did
/// comes back to be said.
@MainActor
@Suite struct UndoFeatureTests {
  @Test func anUndoTakesBackTheCloseAndARedoMakesItAgain() async throws {
    let fx = try Fixture(onDisk: true)
    let issue = try fx.issue("Fix login")
    try fx.queue.write { _ = try $0.setCompleted(true, issueIDs: [issue.id]) }
    let store = TestStore(
      initialState: AppFeature.State(), reducer: { AppFeature() },
      withDependencies: fx.dependencies())
    let close = StepSummary(verb: .close, count: 1, name: "Fix login")
    await store.send(.undoRequested(redo: false))
    await store.receive(
      .undoFinished(
        .done(UndoReport(isRedo: false, summary: close, kept: [], keptCount: 0, changes: 1))))
    #expect(try fx.stored(issue.id)?.completed == false)
    await store.send(.undoRequested(redo: true))
    await store.receive(
      .undoFinished(
        .done(UndoReport(isRedo: true, summary: close, kept: [], keptCount: 0, changes: 1))))
    #expect(try fx.stored(issue.id)?.completed == true)
    await store.send(.undoRequested(redo: true))
    await store.receive(.undoFinished(.nothing(redo: true)))
  }

  @Test func withNothingDoneThereIsNothingToUndo() async throws {
    let fx = try Fixture(onDisk: true)
    let store = TestStore(
      initialState: AppFeature.State(), reducer: { AppFeature() },
      withDependencies: fx.dependencies())
    await store.send(.undoRequested(redo: false))
    await store.receive(.undoFinished(.nothing(redo: false)))
  }
}
