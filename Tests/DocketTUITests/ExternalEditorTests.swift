import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import Foundation
import Locking
import Terminal
import Testing

@testable import DocketTUI

/// `E` hands the detail to the person's editor through the `externalEditor` dependency; what
/// comes back is saved, or kept in the form, and an editor that fails changes nothing.
@MainActor
@Suite struct ExternalEditorTests {
  let fixture: ScreenFixture
  let clock = TestClock()

  init() throws { fixture = try ScreenFixture() }

  func makeStore(
    _ state: ScreenFeature.State, editor: @escaping @Sendable (String) async -> String?
  ) -> TestStore<ScreenFeature.State, ScreenFeature.Action> {
    screenStore(state, fixture: fixture, clock: clock) {
      $0.externalEditor = ExternalEditor(edit: editor)
    }
  }

  @Test func whatTheEditorGivesIsSaved() async throws {
    let handed = Locked<[String]>([])
    let state = try fixture.state(
      columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    let issue = try #require(state.app.detail?.issue)
    let store = makeStore(state) { text in
      handed.withLock { $0.append(text) }
      return text + "\nWritten in the editor."
    }
    let edited = issue.detail + "\nWritten in the editor."
    await store.send(.key(.character("E"))) { $0.isInExternalEditor = true }
    var saved = issue
    saved.detail = edited
    // The result is put in and saved in one step.
    await store.receive(.editorFinished(edited, original: issue.detail, issue: issue.id)) {
      $0.isInExternalEditor = false
      $0.app.detail?.issue = saved
    }
    #expect(handed.withLock { $0 } == [issue.detail])
    await store.skipReceivedActions()
    await store.send(.app(.stop))
    await store.skipInFlightEffects()
    #expect(try fixture.queue.read { try $0.fetchIssue(id: issue.id) }?.detail == edited)
  }

  /// The file the editor is given ends with a newline, as a text file does.
  @Test func theEditorsFileEndsWithANewline() {
    #expect(ExternalEditor.fileText("One\ntwo") == "One\ntwo\n")
    #expect(ExternalEditor.fileText("Kept\n") == "Kept\n")
    #expect(ExternalEditor.fileText("") == "")
  }

  @Test func anEditorThatFailsOrChangesNothingChangesNothing() async throws {
    let state = try fixture.state(
      columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    let issue = try #require(state.app.detail?.issue)
    let failing = makeStore(state) { _ in nil }
    await failing.send(.key(.character("E"))) { $0.isInExternalEditor = true }
    await failing.receive(.editorFinished(nil, original: issue.detail, issue: issue.id)) {
      $0.isInExternalEditor = false
    }
    await failing.finish()
    let unchanged = makeStore(state) { $0 }
    await unchanged.send(.key(.character("E"))) { $0.isInExternalEditor = true }
    await unchanged.receive(.editorFinished(issue.detail, original: issue.detail, issue: issue.id))
    {
      $0.isInExternalEditor = false
    }
    await unchanged.finish()
    // Without a selected issue, E does nothing.
    let none = makeStore(try fixture.state(columns: 120, rows: 30)) { _ in "never" }
    await none.send(.key(.character("E")))
    await none.finish()
    #expect(try fixture.queue.read { try $0.fetchIssue(id: issue.id) }?.detail == issue.detail)
  }

  /// A second `E` while the editor runs does nothing; a result for an issue no longer shown is
  /// dropped, never written into the issue shown now.
  @Test func theResultGoesOnlyToTheIssueItCameFrom() async throws {
    let state = try fixture.state(
      columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    let issue = try #require(state.app.detail?.issue)
    let other = try #require(state.app.list.issues.first { $0.id != issue.id })
    // An editor that takes a (test) second.
    let clock = self.clock
    let store = makeStore(state) { _ in
      try? await clock.sleep(for: .seconds(1))
      return nil
    }
    await store.send(.key(.character("E"))) { $0.isInExternalEditor = true }
    await store.send(.key(.character("E")))
    await clock.advance(by: .seconds(1))
    await store.receive(.editorFinished(nil, original: issue.detail, issue: issue.id)) {
      $0.isInExternalEditor = false
    }
    await store.send(.editorFinished("Not for this issue", original: "", issue: other.id))
    await store.finish()
    #expect(try fixture.queue.read { try $0.fetchIssue(id: issue.id) }?.detail == issue.detail)
    #expect(try fixture.queue.read { try $0.fetchIssue(id: other.id) }?.detail == other.detail)
  }

  /// `q` pressed as the editor closes (before its result is in) quits after the result is saved,
  /// never before: the save is queued in the same step, and quitting waits for the queue.
  @Test func aQuitWhileTheEditorRunsWaitsForItsResult() async throws {
    let state = try fixture.state(
      columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    let issue = try #require(state.app.detail?.issue)
    let clock = self.clock
    let store = makeStore(state) { text in
      try? await clock.sleep(for: .seconds(1))
      return text + " and more"
    }
    await store.send(.key(.character("E"))) { $0.isInExternalEditor = true }
    await store.send(.key(.character("q"))) { $0.quitsWhenEditorReturns = true }
    await clock.advance(by: .seconds(1))
    var saved = issue
    saved.detail = issue.detail + " and more"
    await store.receive(.editorFinished(saved.detail, original: issue.detail, issue: issue.id)) {
      $0.isInExternalEditor = false
      $0.app.detail?.issue = saved
      $0.wantsQuit = true
    }
    await store.skipReceivedActions()
    await store.send(.app(.stop))
    await store.skipInFlightEffects()
    #expect(try fixture.queue.read { try $0.fetchIssue(id: issue.id) }?.detail == saved.detail)
  }
}
