import Composable
import DocketCore
import DocketFeatures
import Foundation
import Terminal

/// What the keys of the edit form and of the text inputs do (`KeyTable`), and the text typed.
extension ScreenFeature {
  // MARK: The edit form

  func performInForm(_ command: KeyCommand, _ state: inout State) -> Effect<Action> {
    guard let detail = state.app.detail, let draft = detail.draft else { return .none }
    let fields = EditField.allCases
    let field = fields.firstIndex(of: state.editField)!
    switch command {
    case .cancelForm:
      state.mode = .browsing
      state.announcement = localizer("tui.announce.editCancelled")
      return .send(.app(.detail(.cancelTapped)))
    case .saveForm:
      state.mode = .browsing
      return .send(.app(.detail(.saveTapped)))
    case .nextField, .leaveTextField:
      state.mode = .browsing
      state.editField = fields[(field + 1) % fields.count]
    case .previousField, .returnToPreviousField:
      state.mode = .browsing
      state.editField = fields[(field + fields.count - 1) % fields.count]
    case .editFieldOrSave:
      switch state.editField {
      case .title:
        state.mode = .typing(.title)
        state.field = titleField(detail)
      case .detail:
        state.mode = .typing(.detail)
        state.area = TextArea(draft.detail)
      default:
        return .send(.app(.detail(.saveTapped)))
      }
    case .priorityLower, .priorityHigher:
      let step = command == .priorityLower ? -1 : 1
      let raw = min(2, max(0, draft.priority.rawValue + step))
      return .send(.app(.detail(.priorityChanged(Priority(rawValue: raw)!))))
    case .priorityLow: return .send(.app(.detail(.priorityChanged(.low))))
    case .priorityMedium: return .send(.app(.detail(.priorityChanged(.medium))))
    case .priorityHigh: return .send(.app(.detail(.priorityChanged(.high))))
    case .toggleFormCompleted:
      return .send(.app(.detail(.completedToggled)))
    case .previousTag:
      state.tagChip = max(0, state.tagChip - 1)
    case .nextTag:
      state.tagChip = min(max(0, detail.tagChips.count - 1), state.tagChip + 1)
    case .toggleTag:
      let chips = detail.tagChips
      guard chips.indices.contains(state.tagChip) else { return .none }
      return .send(.app(.detail(.tagToggled(chips[state.tagChip].tag.id))))
    case .newTagInForm:
      state.mode = .typing(.newTagName)
      state.field = TextField()
      return .send(.app(.detail(.newTagTapped)))
    default:
      break
    }
    return .none
  }

  /// The title as a field to type in: a new issue's "New issue", untouched, is selected, so
  /// the first key typed replaces it.
  func titleField(_ detail: DetailFeature.State) -> TextField {
    let title = detail.draft?.title ?? detail.issue.title
    return TextField(title, selected: detail.isNew && title == detail.issue.title)
  }

  /// A key that edits text, on the form's title or detail, starts editing the field with it.
  func startTyping(_ key: Key, _ state: inout State) -> Effect<Action> {
    guard let draft = state.app.detail?.draft, TextField.edit(for: key) != nil else {
      return .none
    }
    switch state.editField {
    case .title:
      state.mode = .typing(.title)
      state.field = titleField(state.app.detail!)
      return type(key, into: .title, &state)
    case .detail:
      state.mode = .typing(.detail)
      state.area = TextArea(draft.detail)
      return type(key, into: .detail, &state)
    default:
      return .none
    }
  }

  // MARK: Typing

  func performInInput(_ command: KeyCommand, _ state: inout State) -> Effect<Action> {
    guard let input = state.input else { return .none }
    let list = state.app.list
    switch command {
    case .suggestionDown:
      return .send(.app(.list(.suggestionHighlighted(list.highlightedSuggestion + 1))))
    case .suggestionUp:
      return .send(.app(.list(.suggestionHighlighted(list.highlightedSuggestion - 1))))
    case .chooseSuggestion:
      guard list.suggestions.indices.contains(list.highlightedSuggestion) else { return .none }
      let suggestion = list.suggestions[list.highlightedSuggestion]
      state.field = TextField(SearchField(text: state.field.text).textWithoutFragment)
      return .send(.app(.list(.suggestionChosen(suggestion))))
    case .cancelInput
    where input == .search
      && (!state.field.text.isEmpty || !state.app.list.search.chips.isEmpty):
      // Esc clears what is typed and stays in the search; Esc on an empty one leaves it.
      state.field = TextField()
      return .send(.app(.list(.searchCleared)))
    case .acceptInput, .cancelInput:
      state.mode = .browsing
      let accepted = command == .acceptInput
      switch input {
      case .search:
        return .send(.app(.list(accepted ? .searchSubmitted : .searchCleared)))
      case .tagName:
        return .send(.app(.sidebar(accepted ? .promptSubmitted : .promptCancelled)))
      case .newTagName:
        return .send(.app(.detail(accepted ? .newTagSubmitted : .newTagCancelled)))
      case .passphrase:
        if accepted, state.app.sync.isUnlocking {
          // The one given is being tried: this one waits in the field.
          state.mode = .typing(.passphrase)
          return .none
        }
        let given = state.field.text
        state.field = TextField()
        guard accepted else {
          state.passphrasePutOff = true
          state.announcement = localizer("tui.passphrase.putOff")
          return .none
        }
        // The prompt stays until the passphrase opens the remote or is refused.
        state.mode = .typing(.passphrase)
        state.announcesSync = true
        return .send(.app(.sync(.passphraseSubmitted(given))))
      case .title, .detail:
        if accepted { return .none }
        state.announcement = localizer("tui.announce.editCancelled")
        return .send(.app(.detail(.cancelTapped)))
      }
    default:
      return .none
    }
  }

  /// A key that edits the text of `input`.
  func type(_ key: Key, into input: Input, _ state: inout State) -> Effect<Action> {
    if input == .detail {
      guard let edit = TextArea.edit(for: key), state.area.apply(edit) else { return .none }
      return .send(.app(.detail(.detailChanged(state.area.text))))
    }
    if input == .search, key == .backspace, state.field.text.isEmpty,
      !state.app.list.search.chips.isEmpty
    {
      // Backspace on an empty search takes back the last tag chip.
      return .send(.app(.list(.chipRemoved(state.app.list.search.chips.count - 1))))
    }
    guard let edit = TextField.edit(for: key), state.field.apply(edit) else { return .none }
    let text = state.field.text
    switch input {
    case .search: return .send(.app(.list(.searchTextChanged(text))))
    case .tagName: return .send(.app(.sidebar(.promptTextChanged(text))))
    case .newTagName: return .send(.app(.detail(.newTagNameChanged(text))))
    case .title: return .send(.app(.detail(.titleChanged(text))))
    case .detail: return .send(.app(.detail(.detailChanged(text))))
    case .passphrase: return .none
    }
  }
}
