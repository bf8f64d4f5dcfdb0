import Composable
import DocketCore
import DocketFeatures
import Terminal

/// What the keys of the help, the awards, the questions and the menus do (`KeyTable`).
extension ScreenFeature {
  func performInOverlay(_ command: KeyCommand, _ state: inout State) -> Effect<Action> {
    switch command {
    case .helpLineDown, .helpLineUp, .helpPageDown, .helpPageUp:
      // The help is as long as its lines at this width; it scrolls no further than its last page.
      let page = ScreenLayout.helpHeight(rows: state.rows, screenReader: state.screenReader)
      let most = state.helpScrollLimit(localizer)
      let step =
        switch command {
        case .helpLineDown: 1
        case .helpLineUp: -1
        case .helpPageDown: page
        default: -page
        }
      state.helpScroll = min(max(state.helpScroll + step, 0), most)
    case .closeHelp:
      state.mode = .browsing
      state.helpScroll = 0
    case .awardLeft, .awardRight, .awardUp, .awardDown:
      let columns = ScreenLayout.awardColumns(width: state.columns)
      let step =
        switch command {
        case .awardLeft: -1
        case .awardRight: 1
        case .awardUp: -columns
        default: columns
        }
      return .send(.app(.awards(.selectionMoved(by: step))))
    case .closeAwards:
      return .send(.app(.awards(.closeTapped)))
    case .deletedUp, .deletedDown:
      return .send(.app(.deleted(.selectionMoved(by: command == .deletedUp ? -1 : 1))))
    case .restoreDeleted:
      return .send(.app(.deleted(.restoreTapped)))
    case .purgeDeleted:
      return .send(.app(.deleted(.purgeTapped)))
    case .closeDeleted:
      return .send(.app(.deleted(.closeTapped)))
    case .conflictUp, .conflictDown:
      return .send(.app(.conflicts(.selectionMoved(by: command == .conflictUp ? -1 : 1))))
    case .useConflict:
      return .send(.app(.conflicts(.useTapped)))
    case .dismissConflict:
      return .send(.app(.conflicts(.dismissTapped)))
    case .closeConflicts:
      return .send(.app(.conflicts(.closeTapped)))
    case .confirmYes, .confirmNo:
      let yes = command == .confirmYes
      if state.app.deleted?.confirmingPurge != nil {
        return .send(.app(.deleted(yes ? .purgeConfirmed : .purgeCancelled)))
      }
      if state.app.sidebar.confirmingDelete != nil {
        return .send(.app(.sidebar(yes ? .deleteConfirmed : .deleteCancelled)))
      }
      if state.app.sidebar.confirmingMerge != nil {
        return .send(.app(.sidebar(yes ? .mergeConfirmed : .mergeCancelled)))
      }
      return .send(.app(.detail(yes ? .deleteConfirmed : .deleteCancelled)))
    case .sortByPriority, .sortByDate, .sortByTitle:
      // The field already in use flips its direction.
      state.mode = .browsing
      let field: IssueSort.Field =
        switch command {
        case .sortByPriority: .priority
        case .sortByDate: .date
        default: .title
        }
      return .send(.app(.list(.sortChosen(field))))
    case .tagSortByName, .tagSortByCount:
      state.mode = .browsing
      return .send(.app(.sidebar(.tagSortChosen(command == .tagSortByName ? .name : .count))))
    case .closeMenu:
      state.mode = .browsing
    default:
      break
    }
    return .none
  }
}
