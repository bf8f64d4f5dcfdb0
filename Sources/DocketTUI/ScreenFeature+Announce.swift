import DocketCore
import DocketFeatures
import DocketSync
import Localization

/// What the status line says after each action of the features (a screen reader reads it).
extension ScreenFeature {
  /// Every change a person makes is said in words on the status line.
  func announce(_ action: AppFeature.Action, _ state: inout State) {
    switch action {
    case .detail(.delegate(.completionChanged(let issue))):
      state.announcement = localizer(
        issue.completed ? "tui.announce.closed" : "tui.announce.reopened", .string(issue.title))
    case .detail(.delegate(.deleted)):
      state.announcement = localizer("tui.announce.deleted")
    case .detail(.delegate(.saved(let issue))):
      state.announcement = localizer("tui.announce.saved", .string(issue.title))
    case .detail(.delegate(.discarded)):
      state.announcement = localizer("tui.announce.discarded")
    case .detail(.overwroteChangesMadeElsewhere(let fields)):
      let names = fields.map { localizer($0.nameKey) }.joined(separator: ", ")
      state.announcement = localizer("tui.announce.overwritten", .string(names))
    case .sidebar(.delegate(.tagCreated(let tag))), .detail(.delegate(.tagCreated(let tag))):
      state.announcement = localizer("tui.announce.tagCreated", .string(tag.name))
    case .sidebar(.delegate(.tagDeleted)):
      state.announcement = localizer("tui.announce.tagDeleted")
    case .sidebar(.delegate(.tagsMerged(let source, let target))):
      state.announcement = localizer(
        "tui.announce.tagsMerged", .string(source.name), .string(target.name))
    case .sidebar(.delegate(.tagRenamed(let tag))):
      state.announcement = localizer("tui.announce.tagRenamed", .string(tag.name))
    case .deleted(.delegate(.restored(let title))):
      state.announcement = localizer("tui.announce.restored", .string(title))
    case .deleted(.delegate(.notRestored(let title))):
      state.announcement = localizer("tui.announce.notRestored", .string(title))
    case .deleted(.failed(let message)), .deleted(.delegate(.restoreFailed(let message))):
      state.announcement = message
    case .conflictsRequested(_):
      state.announcement = localizer("tui.announce.conflictsOpened")
    case .conflicts(.delegate(.finished(let outcome))):
      state.announcement = UndoMessages.outcome(outcome, localizer)
    case .conflicts(.failed(let message)), .conflicts(.delegate(.failed(let message))):
      state.announcement = message
    case .deleted(.purgeTapped):
      guard let issue = state.app.deleted?.confirmingPurge else { break }
      state.announcement = localizer("tui.announce.purgeAsked", .string(issue.title))
    case .deleted(.purgeCancelled):
      state.announcement = localizer("tui.announce.purgeCancelled")
    case .deleted(.delegate(.purged(let title, let done))):
      state.announcement = localizer(
        done ? "tui.announce.purged" : "tui.announce.notPurged", .string(title))
    case .deletedRequested:
      state.announcement = localizer("tui.announce.deletedOpened")
    case .undoFinished(.done(let report)):
      state.announcement = UndoMessages.report(report, localizer)
    case .undoFinished(.nothing(let redo)):
      state.announcement = localizer(redo ? "redo.nothing" : "undo.nothing")
    case .undoFinished(.failed(let message)):
      state.announcement = message
    case .list(.delegate(.newIssueRequested)):
      state.announcement = localizer("tui.announce.newIssue")
    case .detail(.deleteTapped), .list(.delegate(.deleteRequested)):
      guard let detail = state.app.detail, detail.confirmingDelete else { break }
      state.announcement = localizer("tui.announce.deleteAsked", .string(detail.issue.title))
    case .detail(.deleteCancelled):
      state.announcement = localizer("tui.announce.deleteCancelled")
    case .sidebar(.delegate(.filterChanged(let filter))):
      let name = localizer.filterName(filter, tags: state.app.sidebar.tags.map(\.tag))
      state.announcement = localizer("tui.announce.filter", .string(name))
    case .list(.sortChosen):
      // In words: a screen reader reads arrows as arrows.
      let sort = state.app.list.sort
      state.announcement = localizer(
        "tui.announce.sorted", .string(localizer.sortFieldName(sort.field)),
        .string(localizer(sort.ascending ? "tui.announce.ascending" : "tui.announce.descending")))
    case .sidebar(.tagSortChosen):
      let sort = state.app.sidebar.tagSort
      let field = localizer(
        sort.field == .name ? "tui.tagSortField.name" : "tui.tagSortField.count")
      state.announcement = localizer(
        "tui.announce.tagsSorted", .string(field),
        .string(localizer(sort.ascending ? "tui.announce.ascending" : "tui.announce.descending")))
    case .sidebar(.showCompletedToggled):
      state.announcement = localizer(
        state.app.sidebar.showCompleted
          ? "tui.announce.completedShown" : "tui.announce.completedHidden")
    case .list(.searchCleared):
      state.announcement = localizer("tui.announce.searchCleared")
    case .detail(.editTapped):
      guard let detail = state.app.detail else { break }
      state.announcement = localizer("tui.announce.editing", .string(detail.issue.title))
    case .detail(.priorityChanged(let priority)):
      state.announcement = localizer(
        "tui.announce.priority", .string(localizer.priorityName(priority)))
    case .detail(.completedToggled):
      state.announcement = localizer(
        state.app.detail?.draft?.completed == true
          ? "tui.announce.markedCompleted" : "tui.announce.markedOpen")
    case .detail(.tagToggled(let id)):
      guard let draft = state.app.detail?.draft,
        let tag = state.app.detail?.allTags.first(where: { $0.id == id })
      else { break }
      let on = draft.tags.contains { $0.id == id }
      state.announcement = localizer(
        on ? "tui.announce.tagAdded" : "tui.announce.tagRemoved", .string(tag.name))
    case .list(.failed(let message)), .sidebar(.failed(let message)), .detail(.failed(let message)):
      state.announcement = message
    case .sync(.finished(let report, _)) where state.announcesSync:
      state.announcesSync = false
      state.announcement = SyncMessages.result(report, localizer)
    case .sync(.failed(let message)) where state.announcesSync:
      state.announcesSync = false
      state.announcement = message
    case .sync(.unlockFailed(let message)):
      state.announcesSync = false
      state.announcement = message
    case .detail(.historyToggled):
      state.announcement = localizer(
        state.app.detail?.historyShown == true
          ? "tui.announce.historyShown" : "tui.announce.historyHidden")
    default:
      break
    }
  }
}
