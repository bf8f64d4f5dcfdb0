import Composable
import DocketCore
import DocketFeatures
import Foundation
import Terminal

/// Keys while something is typed or edited: the edit form and the text inputs.
extension ScreenFeature {
  // MARK: The edit form

  func editForm(_ key: Key, _ state: inout State) -> Effect<Action> {
    guard let detail = state.app.detail, let draft = detail.draft else { return .none }
    switch key {
    case .escape: return .send(.app(.detail(.cancelTapped)))
    case .control("s"): return .send(.app(.detail(.saveTapped)))
    case .tab, .down:
      let fields = EditField.allCases
      state.editField = fields[(fields.firstIndex(of: state.editField)! + 1) % fields.count]
      return .none
    case .backTab, .up:
      let fields = EditField.allCases
      state.editField =
        fields[(fields.firstIndex(of: state.editField)! + fields.count - 1) % fields.count]
      return .none
    case .enter:
      if state.editField == .title {
        state.input = .title
        state.field = TextField(draft.title)
        return .none
      }
      if state.editField == .detail {
        state.input = .detail
        state.area = TextArea(draft.detail)
        return .none
      }
      return .send(.app(.detail(.saveTapped)))
    default:
      break
    }
    switch state.editField {
    case .title:
      // Typing starts editing the field.
      guard TextField.edit(for: key) != nil else { return .none }
      state.input = .title
      state.field = TextField(draft.title)
      return type(key, into: .title, &state)
    case .detail:
      guard TextField.edit(for: key) != nil else { return .none }
      state.input = .detail
      state.area = TextArea(draft.detail)
      return type(key, into: .detail, &state)
    case .priority:
      switch key {
      case .left:
        return .send(
          .app(.detail(.priorityChanged(Priority(rawValue: max(0, draft.priority.rawValue - 1))!))))
      case .right:
        return .send(
          .app(.detail(.priorityChanged(Priority(rawValue: min(2, draft.priority.rawValue + 1))!))))
      case .character("l"): return .send(.app(.detail(.priorityChanged(.low))))
      case .character("m"): return .send(.app(.detail(.priorityChanged(.medium))))
      case .character("h"): return .send(.app(.detail(.priorityChanged(.high))))
      default: return .none
      }
    case .completed:
      guard key == .character(" ") || key == .character("x") else { return .none }
      return .send(.app(.detail(.completedToggled)))
    case .tags:
      let chips = detail.tagChips
      switch key {
      case .left: state.tagChip = max(0, state.tagChip - 1)
      case .right: state.tagChip = min(max(0, chips.count - 1), state.tagChip + 1)
      case .character(" "), .character("x"):
        guard chips.indices.contains(state.tagChip) else { return .none }
        return .send(.app(.detail(.tagToggled(chips[state.tagChip].tag.id))))
      case .character("t"), .character("+"):
        state.input = .newTagName
        state.field = TextField()
        return .send(.app(.detail(.newTagTapped)))
      default: break
      }
      return .none
    }
  }

  // MARK: Typing

  func type(_ key: Key, into input: Input, _ state: inout State) -> Effect<Action> {
    if input == .detail {
      // Several lines: Enter is a new line; Tab leaves the field, Ctrl-S saves, Esc cancels.
      switch key {
      case .tab, .backTab:
        state.input = nil
        return editForm(key, &state)
      case .control("s"):
        state.input = nil
        return .send(.app(.detail(.saveTapped)))
      case .escape:
        state.input = nil
        return .send(.app(.detail(.cancelTapped)))
      default:
        guard let edit = TextArea.edit(for: key), state.area.apply(edit) else { return .none }
        return .send(.app(.detail(.detailChanged(state.area.text))))
      }
    }
    let finish = key == .enter || key == .escape
    if input == .search, !state.app.list.suggestions.isEmpty {
      switch key {
      case .down:
        return .send(.app(.list(.suggestionHighlighted(state.app.list.highlightedSuggestion + 1))))
      case .up:
        return .send(.app(.list(.suggestionHighlighted(state.app.list.highlightedSuggestion - 1))))
      case .enter, .tab:
        let suggestion = state.app.list.suggestions[state.app.list.highlightedSuggestion]
        var text = state.field.text
        if let hash = text.lastIndex(of: "#") { text = String(text[..<hash]) }
        while text.last == " " { text.removeLast() }
        state.field = TextField(text)
        return .send(.app(.list(.suggestionChosen(suggestion))))
      default:
        break
      }
    }
    if finish {
      state.input = nil
      let accepted = key == .enter
      switch input {
      case .search:
        return .send(.app(.list(accepted ? .searchSubmitted : .searchCleared)))
      case .tagName:
        return .send(.app(.sidebar(accepted ? .promptSubmitted : .promptCancelled)))
      case .newTagName:
        return .send(.app(.detail(accepted ? .newTagSubmitted : .newTagCancelled)))
      case .title, .detail:
        return accepted ? .none : .send(.app(.detail(.cancelTapped)))
      }
    }
    if input == .search, key == .backspace, state.field.text.isEmpty,
      !state.app.list.search.chips.isEmpty
    {
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
    }
  }
}
