import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// What shows over the panes: prompts, questions, the awards and Recently deleted.
extension ScreenView {
  // MARK: Overlays

  func drawOverlays(_ buffer: inout Buffer, _ area: Rect) {
    if let prompt = state.app.sidebar.prompt { drawPrompt(&buffer, area, prompt) }
    if let tag = state.app.sidebar.confirmingDelete {
      let summary = state.app.sidebar.tags.first { $0.id == tag.id }
      drawDialog(
        &buffer, area, title: l10n("tui.deleteTag"),
        lines: [l10n("tui.confirmDeleteTag", .string(tag.name), .integer(summary?.total ?? 0))])
    }
    if let merge = state.app.sidebar.confirmingMerge {
      drawDialog(
        &buffer, area, title: l10n("tui.mergeTags"),
        lines: [
          l10n("tui.confirmMergeTags", .string(merge.source.name), .string(merge.target.name))
        ])
    }
    if let awards = state.app.awards { drawAwards(&buffer, area, awards) }
    if let deleted = state.app.deleted {
      drawDeleted(&buffer, area, deleted)
      if let issue = deleted.confirmingPurge {
        drawDialog(
          &buffer, area, title: l10n("tui.purge"),
          lines: [l10n("tui.confirmPurge", .string(issue.title)), l10n("tui.confirmPurge.note")])
      }
    }
    if let conflicts = state.app.conflicts { drawConflicts(&buffer, area, conflicts) }
    if state.input == .passphrase { drawPassphrase(&buffer, area) }
    if state.mode == .help { drawHelp(&buffer, area) }
  }
}
