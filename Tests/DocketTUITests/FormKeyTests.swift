import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// The edit form's keys and the questions' answers go through the key table, field by field:
/// every change of state and every action they cause, exhaustively.
@MainActor
@Suite struct FormKeyTests {
  let fixture: ScreenFixture
  let clock = TestClock()

  init() throws { fixture = try ScreenFixture() }

  @Test func eachFieldOfTheFormHasItsKeys() async throws {
    let state = try fixture.state(
      columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    let issue = try #require(state.app.detail?.issue)
    let store = screenStore(state, fixture: fixture, clock: clock)
    await store.send(.key(.character("e")))
    await store.receive(.app(.detail(.editTapped))) {
      $0.app.detail?.draft = issue
      $0.app.detail?.editBase = issue
      $0.announcement = "Editing: Export to CSV"
    }
    // Priority: l m h pick, ← → step and stop at the ends.
    await store.send(.key(.down)) {
      $0.editField = .priority
      $0.announcement = nil
    }
    await store.send(.key(.character("h")))
    await store.receive(.app(.detail(.priorityChanged(.high)))) {
      $0.app.detail?.draft?.priority = .high
      $0.announcement = "Priority: High"
    }
    await store.send(.key(.right)) { $0.announcement = nil }
    await store.receive(.app(.detail(.priorityChanged(.high)))) {
      $0.announcement = "Priority: High"
    }
    // Said again: a screen reader hears that the end is reached.
    await store.send(.key(.left)) { $0.announcement = nil }
    await store.receive(.app(.detail(.priorityChanged(.medium)))) {
      $0.app.detail?.draft?.priority = .medium
      $0.announcement = "Priority: Medium"
    }
    await store.send(.key(.character("l"))) { $0.announcement = nil }
    await store.receive(.app(.detail(.priorityChanged(.low)))) {
      $0.app.detail?.draft?.priority = .low
      $0.announcement = "Priority: Low"
    }
    // A key the field does not bind does nothing (it types only into text fields).
    await store.send(.key(.character("q"))) { $0.announcement = nil }
    // Completed: Space and x switch it.
    await store.send(.key(.tab)) { $0.editField = .completed }
    await store.send(.key(.character("x")))
    await store.receive(.app(.detail(.completedToggled))) {
      $0.app.detail?.draft?.completed = true
      $0.announcement = "Marked as completed (not saved yet)."
    }
    // Tags: ← → move between them, Space takes the tag off or puts it on, t makes a new one.
    await store.send(.key(.tab)) {
      $0.editField = .tags
      $0.announcement = nil
    }
    await store.send(.key(.right)) { $0.tagChip = 1 }
    await store.send(.key(.left)) { $0.tagChip = 0 }
    await store.send(.key(.left))
    let chip = try #require(store.state.app.detail?.tagChips.first)
    #expect(chip.assigned)
    await store.send(.key(.character(" ")))
    await store.receive(.app(.detail(.tagToggled(chip.tag.id)))) {
      $0.app.detail?.draft?.tags.removeAll { $0.id == chip.tag.id }
      $0.announcement = "Tag removed: \(chip.tag.name)"
    }
    await store.send(.key(.character("t"))) {
      $0.announcement = nil
      $0.mode = .typing(.newTagName)
      $0.field = TextField()
    }
    await store.receive(.app(.detail(.newTagTapped))) { $0.app.detail?.newTagName = "" }
    await store.send(.key(.escape)) { $0.mode = .browsing }
    await store.receive(.app(.detail(.newTagCancelled))) { $0.app.detail?.newTagName = nil }
    // Back and forth between the fields, round the end.
    await store.send(.key(.tab)) { $0.editField = .detail }
    await store.send(.key(.tab)) { $0.editField = .title }
    await store.send(.key(.backTab)) { $0.editField = .detail }
    await store.send(.key(.up)) { $0.editField = .tags }
    // Enter on a field that is not text saves; Esc would have cancelled.
    var saved = issue
    saved.priority = .low
    saved.completed = true
    saved.tags.removeAll { $0.id == chip.tag.id }
    await store.send(.key(.enter))
    await store.receive(.app(.detail(.saveTapped))) {
      $0.app.detail?.draft = nil
      $0.app.detail?.editBase = nil
      $0.app.detail?.issue = saved
    }
    await store.skipReceivedActions()
    await store.send(.app(.stop))
    await store.skipInFlightEffects()
    let stored = try fixture.queue.read { try $0.fetchIssue(id: issue.id) }
    #expect(stored?.priority == .low)
    #expect(stored?.completed == true)
    #expect(stored?.tags.contains { $0.id == chip.tag.id } == false)
  }

  @Test(arguments: ["en", "de"])
  func aQuestionIsAnsweredWithYesOrNoInTheReadersLanguage(language: String) async throws {
    let state = try fixture.state(
      columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    let store = screenStore(state, fixture: fixture, clock: clock) {
      $0.locale = LanguageCode(language)
    }
    let question =
      language == "de"
      ? "„Export to CSV“ löschen? j oder Eingabe löscht ihn, jede andere Taste behält ihn."
      : "Delete “Export to CSV”? y or Enter deletes it, any other key keeps it."
    await store.send(.key(.character("d")))
    await store.receive(.app(.detail(.deleteTapped))) {
      $0.app.detail?.confirmingDelete = true
      $0.announcement = question
    }
    // Keys that answer nothing leave the question open, and said.
    await store.send(.key(.character("x")))
    await store.send(.key(.escape))
    await store.receive(.app(.detail(.deleteCancelled))) {
      $0.app.detail?.confirmingDelete = false
      $0.announcement = language == "de" ? "Es wurde nichts gelöscht." : "Nothing was deleted."
    }
    await store.send(.key(.character("d"))) { $0.announcement = nil }
    await store.receive(.app(.detail(.deleteTapped))) {
      $0.app.detail?.confirmingDelete = true
      $0.announcement = question
    }
    // `j` (ja) answers yes in German; in English it leaves the question open.
    await store.send(.key(.character("j")))
    if language == "de" {
      await store.receive(.app(.detail(.deleteConfirmed))) {
        $0.app.detail?.confirmingDelete = false
      }
      await store.skipReceivedActions()
    } else {
      await store.send(.key(.character("n")))
      await store.receive(.app(.detail(.deleteCancelled))) {
        $0.announcement = "Nothing was deleted."
        $0.app.detail?.confirmingDelete = false
      }
    }
    await store.send(.app(.stop))
    await store.skipInFlightEffects()
    let kept = try fixture.queue.read { try $0.fetchIssue(id: state.app.detail!.issue.id) }
    #expect((kept == nil) == (language == "de"))
  }

  /// In a text input every printable key is text, the letters that are commands elsewhere too;
  /// a name the prompt refuses keeps the prompt open with the keyboard, so the next keys are
  /// still text (not `q` quitting or `D` deleting a tag behind it).
  @Test func keysAreTextInAPromptAndARefusedNameKeepsIt() async throws {
    var state = try fixture.state(columns: 120, rows: 30, focus: .filters)
    state.sidebarRow = ScreenFeature.State.smartFilters.count
    let tag = try #require(state.highlightedTag)
    let store = screenStore(state, fixture: fixture, clock: clock)
    await store.send(.key(.character("r"))) {
      $0.mode = .typing(.tagName)
      $0.field = TextField(tag.name)
    }
    await store.receive(.app(.sidebar(.renameTagTapped(tag)))) {
      $0.app.sidebar.prompt = SidebarFeature.TagPrompt(purpose: .rename(tag), text: tag.name)
    }
    var text = tag.name
    for character in "jkqE Dx" {
      text.append(character)
      await store.send(.key(.character(character))) { [text] in $0.field = TextField(text) }
      await store.receive(.app(.sidebar(.promptTextChanged(text)))) { [text] in
        $0.app.sidebar.prompt?.text = text
      }
    }
    // Back to nothing, then the name of another tag.
    while !text.isEmpty {
      text.removeLast()
      await store.send(.key(.backspace)) { [text] in $0.field = TextField(text) }
      await store.receive(.app(.sidebar(.promptTextChanged(text)))) { [text] in
        $0.app.sidebar.prompt?.text = text
      }
    }
    let other = try #require(store.state.app.sidebar.tags.first { $0.tag.id != tag.id }).tag
    for character in other.name {
      text.append(character)
      await store.send(.key(.character(character))) { [text] in $0.field = TextField(text) }
      await store.receive(.app(.sidebar(.promptTextChanged(text)))) { [text] in
        $0.app.sidebar.prompt?.text = text
      }
    }
    await store.send(.key(.enter)) { $0.mode = .browsing }
    // Another tag's name: the app asks whether to merge the two; `q` answers no, keeping both.
    await store.receive(.app(.sidebar(.promptSubmitted))) {
      $0.app.sidebar.prompt = nil
      $0.app.sidebar.confirmingMerge = SidebarFeature.TagMerge(source: tag, target: other)
    }
    #expect(store.state.keyScopes == [.confirm])
    await store.send(.key(.character("q")))
    await store.receive(.app(.sidebar(.mergeCancelled))) {
      $0.app.sidebar.confirmingMerge = nil
    }
    #expect(!store.state.wantsQuit)
    await store.finish()
  }
}

/// Typing in the form's title: Tab goes on to the next field with the text kept, Ctrl-S saves,
/// Ctrl-C quits; none of them is typed.
@MainActor
@Suite struct TitleTypingTests {
  @Test func tabAndCtrlSWorkWhileTypingTheTitle() async throws {
    let fixture = try ScreenFixture()
    let state = try fixture.state(columns: 120, rows: 30, select: "Export to CSV", focus: .detail)
    let issue = try #require(state.app.detail?.issue)
    let store = screenStore(state, fixture: fixture, clock: TestClock())
    await store.send(.key(.character("e")))
    await store.receive(.app(.detail(.editTapped))) {
      $0.app.detail?.draft = issue
      $0.app.detail?.editBase = issue
      $0.announcement = "Editing: Export to CSV"
    }
    await store.send(.key(.character("!"))) {
      $0.mode = .typing(.title)
      $0.field = TextField(issue.title + "!")
      $0.announcement = nil
    }
    await store.receive(.app(.detail(.titleChanged(issue.title + "!")))) {
      $0.app.detail?.draft?.title = issue.title + "!"
    }
    await store.send(.key(.tab)) {
      $0.mode = .browsing
      $0.editField = .priority
    }
    await store.send(.key(.backTab)) { $0.editField = .title }
    await store.send(.key(.character("?"))) {
      $0.mode = .typing(.title)
      $0.field = TextField(issue.title + "!?")
    }
    await store.receive(.app(.detail(.titleChanged(issue.title + "!?")))) {
      $0.app.detail?.draft?.title = issue.title + "!?"
    }
    var saved = issue
    saved.title = issue.title + "!?"
    await store.send(.key(.control("s"))) { $0.mode = .browsing }
    await store.receive(.app(.detail(.saveTapped))) {
      $0.app.detail?.draft = nil
      $0.app.detail?.editBase = nil
      $0.app.detail?.issue = saved
    }
    await store.skipReceivedActions()
    // Ctrl-C quits whatever has the keys.
    await store.send(.key(.character("/"))) {
      $0.announcement = nil
      $0.focus = .list
      $0.mode = .typing(.search)
      $0.field = TextField($0.app.list.search.text)
    }
    await store.send(.key(.control("c"))) { $0.wantsQuit = true }
    await store.send(.app(.stop))
    await store.skipInFlightEffects()
    #expect(try fixture.queue.read { try $0.fetchIssue(id: issue.id) }?.title == saved.title)
  }
}
