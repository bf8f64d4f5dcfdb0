import DocketCore
import DocketFeatures
import Foundation
import Localization
import Terminal

/// The sort menus, made from the key table: each option is a binding of the menu's scope, so
/// the keys shown are the keys that work.
extension ScreenView {
  /// The list's sort menu, at the top right of the list pane.
  func drawSortMenu(_ buffer: inout Buffer, _ inner: Rect) {
    let sort = state.app.list.sort
    let options = menuOptions(.sortMenu, ascending: sort.ascending) { command in
      command.sortField.map { (sortFieldName($0), $0 == sort.field) }
    }
    let box = Rect(x: inner.maxX - 26, y: inner.y + 1, width: 26, height: options.count + 2)
    drawMenu(&buffer, overlayBox(box, in: inner), options)
  }

  /// The filter pane's tag sort menu, under the smart filters.
  func drawTagSortMenu(_ buffer: inout Buffer, _ inner: Rect) {
    let sort = state.app.sidebar.tagSort
    let options = menuOptions(.tagSortMenu, ascending: sort.ascending) { command in
      command.tagSortField.map {
        (l10n($0 == .name ? "tui.tagSortField.name" : "tui.tagSortField.count"), $0 == sort.field)
      }
    }
    let box = Rect(
      x: inner.x, y: inner.y + 4, width: min(inner.width, 22), height: options.count + 2)
    drawMenu(&buffer, overlayBox(box, in: inner), options)
  }

  /// A menu's options from the bindings of its scope that `describe` names (with whether each is
  /// the current one, which shows its direction).
  private func menuOptions(
    _ scope: KeyBinding.Scope, ascending: Bool,
    _ describe: (KeyCommand) -> (name: String, current: Bool)?
  ) -> [(String, String, Bool)] {
    KeyTable.bindings.compactMap { binding in
      guard binding.scope == scope, let command = binding.commands.values.first,
        let option = describe(command)
      else { return nil }
      let arrow = option.current ? (ascending ? " ↑" : " ↓") : ""
      return (binding.label, option.name + arrow, option.current)
    }
  }

  /// A menu in a frame: each option's key, its name, the current one in bold and under the
  /// cursor (a screen reader reads it first).
  private func drawMenu(_ buffer: inout Buffer, _ box: Rect, _ options: [(String, String, Bool)]) {
    buffer.fill(box, style: .plain)
    let area = frame(&buffer, box, title: l10n("tui.sortBy"), focused: true)
    for (index, (key, name, current)) in options.enumerated() {
      buffer.draw(
        key + "  " + name, x: area.x, y: area.y + index, style: current ? Theme.bold : .plain,
        maxWidth: area.width)
      if current { buffer.cursor = (area.x, area.y + index) }
    }
  }
}

extension KeyCommand {
  /// The field a command of the sort menu sorts by.
  var sortField: IssueSort.Field? {
    switch self {
    case .sortByPriority: .priority
    case .sortByDate: .date
    case .sortByTitle: .title
    default: nil
    }
  }

  /// The field a command of the tag sort menu sorts by.
  var tagSortField: TagSort.Field? {
    switch self {
    case .tagSortByName: .name
    case .tagSortByCount: .count
    default: nil
    }
  }
}
