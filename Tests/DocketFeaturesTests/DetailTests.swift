import Composable
import ComposableTesting
import DocketCore
import Foundation
import Testing

@testable import DocketFeatures

@MainActor
@Suite struct DetailTests {
  let fx: Fixture
  let bug: Tag
  let ui: Tag
  let issue: Issue

  init() throws {
    fx = try Fixture(onDisk: true)
    bug = try fx.tag("Bug")
    ui = try fx.tag("UI")
    issue = try fx.issue("Fix login", priority: .medium, tags: [bug])
  }

  func makeStore(_ state: DetailFeature.State? = nil) -> TestStore<
    DetailFeature.State, DetailFeature.Action
  > {
    TestStore(
      initialState: state ?? DetailFeature.State(issue: issue), reducer: { DetailFeature() },
      withDependencies: fx.dependencies())
  }

  /// Starts observing and receives the issue and the tags.
  @discardableResult
  func start(_ store: TestStore<DetailFeature.State, DetailFeature.Action>) async -> TestStoreTask {
    let task = await store.send(.task)
    await store.receive(.loaded(issue, [bug, ui])) { $0.allTags = [self.bug, self.ui] }
    return task
  }

  @Test func editThenCancelRestoresTheStoredValues() async throws {
    let store = makeStore()
    let task = await start(store)
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    await store.send(.titleChanged("Something else")) { $0.draft?.title = "Something else" }
    await store.send(.detailChanged("More words")) { $0.draft?.detail = "More words" }
    await store.send(.priorityChanged(.high)) { $0.draft?.priority = .high }
    await store.send(.completedToggled) { $0.draft?.completed = true }
    await store.send(.tagToggled(ui.id)) { $0.draft?.tags = [self.bug, self.ui] }
    #expect(store.state.tagChips.map(\.assigned) == [true, true])
    await store.send(.tagToggled(bug.id)) { $0.draft?.tags = [self.ui] }
    #expect(store.state.tagChips.map(\.tag) == [ui, bug])
    await store.send(.cancelTapped) {
      $0.draft = nil
      $0.editBase = nil
    }
    #expect(try fx.stored(issue.id) == issue)
    await task.cancel()
  }

  /// One rule in every face: a title is never empty. The form stays open, the draft as typed,
  /// and says why.
  @Test func anEmptyTitleIsNotSaved() async throws {
    let store = makeStore()
    let task = await start(store)
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    await store.send(.titleChanged("   ")) { $0.draft?.title = "   " }
    await store.send(.saveTapped) { $0.errorMessage = "An issue needs a title." }
    #expect(store.state.isEditing)
    #expect(try fx.stored(issue.id) == issue)
    await store.send(.titleChanged("Fixed")) { $0.draft?.title = "Fixed" }
    await task.cancel()
  }

  /// A title stored with spaces around it (an import, an older version) is not rewritten by a
  /// save that changed only another field.
  @Test func aTitleLeftAsItWasIsNotTouched() async throws {
    var padded = issue
    padded.title = "  Fix login  "
    try fx.queue.write {
      try $0.execute("UPDATE issues SET title = ? WHERE id = ?", [padded.title, padded.id])
    }
    let store = makeStore(DetailFeature.State(issue: padded))
    store.exhaustivity = .off
    await store.send(.editTapped)
    await store.send(.priorityChanged(.high))
    await store.send(.saveTapped)
    await store.finishEffects(in: WriteLane.database)
    await store.skipInFlightEffects()
    #expect(try fx.stored(padded.id)?.priority == .high)
    #expect(try fx.stored(padded.id)?.title == "  Fix login  ")
  }

  @Test func savingWithoutChangesWritesNothing() async throws {
    let store = makeStore()
    let task = await start(store)
    fx.time.advance(by: 60)
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    await store.send(.titleChanged("Fix login"))
    await store.send(.saveTapped) {
      $0.draft = nil
      $0.editBase = nil
    }
    #expect(try fx.stored(issue.id)?.modified == nil)
    await task.cancel()
  }

  @Test func savingChangesWritesThemAndTheDatabaseStampsTheEdit() async throws {
    let store = makeStore()
    let task = await start(store)
    fx.time.advance(by: 60)
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    await store.send(.titleChanged("Fix login on small screens")) {
      $0.draft?.title = "Fix login on small screens"
    }
    var edited = issue
    edited.title = "Fix login on small screens"
    await store.send(.saveTapped) {
      $0.draft = nil
      $0.editBase = nil
      $0.issue = edited
    }
    await store.receive(.delegate(.saved(edited)))
    var stored = edited
    stored.modified = fx.now
    await store.receive(.loaded(stored, [bug, ui])) { $0.issue = stored }
    #expect(try fx.stored(issue.id) == stored)
    await task.cancel()
  }

  @Test func savingOnlyTagChangesWritesTheLinks() async throws {
    let store = makeStore()
    let task = await start(store)
    fx.time.advance(by: 60)
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    await store.send(.tagToggled(ui.id)) { $0.draft?.tags = [self.bug, self.ui] }
    var edited = issue
    edited.tags = [bug, ui]
    await store.send(.saveTapped) {
      $0.draft = nil
      $0.editBase = nil
      $0.issue = edited
    }
    await store.receive(.delegate(.saved(edited)))
    var stored = edited
    stored.modified = fx.now
    await store.receive(.loaded(stored, [bug, ui])) { $0.issue = stored }
    await task.cancel()
  }

  @Test func aTagCreatedFromTheFormIsAssignedAtOnce() async throws {
    let store = makeStore()
    let task = await start(store)
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    await store.send(.newTagTapped) { $0.newTagName = "" }
    await store.send(.newTagNameChanged(" Docs ")) { $0.newTagName = " Docs " }
    let docs = Tag(id: generatedID(0), name: "Docs")
    await store.send(.newTagSubmitted) {
      $0.newTagName = nil
      $0.allTags = [self.bug, self.ui, docs]
      $0.draft?.tags = [self.bug, docs]
    }
    await store.receive(.delegate(.tagCreated(docs)))
    await store.receive(.loaded(issue, [bug, docs, ui])) { $0.allTags = [self.bug, docs, self.ui] }
    // A name that exists is that tag: assigned, not created again.
    await store.send(.newTagTapped) { $0.newTagName = "" }
    await store.send(.newTagNameChanged("ui")) { $0.newTagName = "ui" }
    await store.send(.newTagSubmitted) {
      $0.newTagName = nil
      $0.draft?.tags = [self.bug, docs, self.ui]
    }
    // A blank name is ignored.
    await store.send(.newTagTapped) { $0.newTagName = "" }
    await store.send(.newTagSubmitted) { $0.newTagName = nil }
    await task.cancel()
    #expect(try fx.queue.read { try $0.fetchTags() }.count == 3)
  }

  @Test func deletingAsksFirstAndCancelKeepsTheIssue() async throws {
    let store = makeStore()
    let task = await start(store)
    await store.send(.deleteTapped) { $0.confirmingDelete = true }
    await store.send(.deleteCancelled) { $0.confirmingDelete = false }
    #expect(try fx.stored(issue.id) != nil)
    await store.send(.deleteTapped) { $0.confirmingDelete = true }
    await store.send(.deleteConfirmed) { $0.confirmingDelete = false }
    await store.receive(.delegate(.deleted(issue.id)))
    await store.finish()
    #expect(try fx.stored(issue.id) == nil)
    await task.cancel()
  }

  @Test func completingAndReopeningAreWrittenAndStamped() async throws {
    let store = makeStore()
    let task = await start(store)
    fx.time.advance(by: 60)
    var completed = issue
    completed.completed = true
    await store.send(.toggleCompletedTapped) { $0.issue.completed = true }
    await store.receive(.delegate(.completionChanged(completed)))
    completed.modified = fx.now
    await store.receive(.loaded(completed, [bug, ui])) { $0.issue.modified = completed.modified }
    var reopened = completed
    reopened.completed = false
    await store.send(.toggleCompletedTapped) { $0.issue.completed = false }
    await store.receive(.delegate(.completionChanged(reopened)))
    // Same instant, so the same stamp: the stored issue is what the state shows already.
    await store.receive(.loaded(reopened, [bug, ui]))
    await task.cancel()
    #expect(try fx.stored(issue.id)?.completed == false)
  }

  @Test func anIssueDeletedElsewhereVanishes() async throws {
    let store = makeStore()
    await start(store)
    let other = try fx.otherProcess()
    try other.execute("DELETE FROM issues WHERE id = ?", [issue.id])
    fx.queue.checkForExternalChanges()
    await store.receive(.loaded(nil, [bug, ui]))
    await store.receive(.delegate(.vanished(issue.id)))
  }

  @Test func anEditFromElsewhereShowsUp() async throws {
    let store = makeStore()
    let task = await start(store)
    let other = try fx.otherProcess()
    fx.time.advance(by: 5)
    try other.execute("UPDATE issues SET title = 'Renamed elsewhere' WHERE id = ?", [issue.id])
    fx.queue.checkForExternalChanges()
    var renamed = issue
    renamed.title = "Renamed elsewhere"
    renamed.modified = fx.now
    await store.receive(.loaded(renamed, [bug, ui])) { $0.issue = renamed }
    await task.cancel()
  }

  @Test func cancellingANewIssueBeforeItsFirstSaveDiscardsIt() async throws {
    let fresh = Issue(id: generatedID(9), created: fx.now)
    try fx.queue.write { try $0.insertIssue(fresh) }
    let store = makeStore(DetailFeature.State(issue: fresh, editing: true, isNew: true))
    await store.send(.titleChanged("half")) { $0.draft?.title = "half" }
    await store.send(.cancelTapped) {
      $0.draft = nil
      $0.editBase = nil
    }
    await store.receive(.delegate(.discarded(fresh.id)))
    await store.finish()
    #expect(try fx.stored(fresh.id) == nil)
  }

  @Test func savingANewIssueKeepsIt() async throws {
    let fresh = Issue(id: generatedID(9), created: fx.now)
    try fx.queue.write { try $0.insertIssue(fresh) }
    let store = makeStore(DetailFeature.State(issue: fresh, editing: true, isNew: true))
    await store.send(.titleChanged("Kept")) { $0.draft?.title = "Kept" }
    var kept = fresh
    kept.title = "Kept"
    await store.send(.saveTapped) {
      $0.draft = nil
      $0.editBase = nil
      $0.isNew = false
      $0.issue = kept
    }
    await store.receive(.delegate(.saved(kept)))
    await store.finish()
    #expect(try fx.stored(fresh.id)?.title == "Kept")
  }

  @Test func aFailedSaveGivesTheDraftBack() async throws {
    // Another program's trigger refuses every change to issues.
    try fx.otherProcess().execute(
      """
      CREATE TRIGGER refuse_edits BEFORE UPDATE ON issues
      BEGIN SELECT RAISE(ABORT, 'edits are refused'); END
      """)
    let store = makeStore(DetailFeature.State(issue: issue, allTags: [bug, ui]))
    await store.send(.editTapped) {
      $0.draft = self.issue
      $0.editBase = self.issue
    }
    await store.send(.tagToggled(ui.id)) { $0.draft?.tags = [self.bug, self.ui] }
    var draft = issue
    draft.tags = [bug, ui]
    await store.send(.saveTapped) {
      $0.draft = nil
      $0.editBase = nil
      $0.issue = draft
    }
    await store.receive(.delegate(.saved(draft)))
    let message = "Database error: edits are refused"
    await store.receive(
      .saveFailed(draft: draft, base: issue, stored: issue, message: message)
    ) {
      $0.issue = self.issue
      $0.draft = draft
      $0.editBase = self.issue
      $0.errorMessage = message
    }
    #expect(try fx.stored(issue.id) == issue)
  }
}
