import Composable

/// A child that edits a name and reports upwards through delegate actions; the parent decides
/// what a save means.
struct NameEditor: Reducer {
  struct State: Equatable {
    var draft: String
  }

  enum Action: Equatable {
    case draftChanged(String)
    case saveTapped
    case cancelTapped
    case delegate(Delegate)

    enum Delegate: Equatable {
      case saved(String)
      case cancelled
    }
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .draftChanged(let draft):
      state.draft = draft
      return .none
    case .saveTapped:
      return .send(.delegate(.saved(state.draft)))
    case .cancelTapped:
      return .send(.delegate(.cancelled))
    case .delegate:
      return .none
    }
  }
}

/// A parent that always shows one editor and keeps the saved names.
struct NameList: Reducer {
  struct State: Equatable {
    var names: [String] = []
    var editor = NameEditor.State(draft: "")
  }

  enum Action: Equatable {
    case editor(NameEditor.Action)

    static let editorCase = ActionCase(embed: Action.editor) {
      if case .editor(let action) = $0 { action } else { nil }
    }
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.editor, action: Action.editorCase) {
      NameEditor()
    }
    Reduce { state, action in
      switch action {
      case .editor(.delegate(.saved(let name))):
        state.names.append(name)
        state.editor.draft = ""
        return .none
      case .editor(.delegate(.cancelled)):
        state.editor.draft = ""
        return .none
      case .editor:
        return .none
      }
    }
  }
}
