import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// The screen's layout as a text picture at the three sizes: each pane's rectangle drawn with
/// the pane's letter (F filters, L list, D detail), the title bar T, the status S and the hints
/// H. Recorded once; a change of layout shows as a change of picture.
@Suite struct LayoutPictureTests {
  static func picture(_ state: ScreenFeature.State) -> String {
    let layout = ScreenLayout(state)
    var rows = Array(
      repeating: Array(repeating: Character("."), count: state.columns), count: state.rows)
    func paint(_ rect: Rect, _ letter: Character) {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX {
          let edge = y == rect.y || y == rect.maxY - 1 || x == rect.x || x == rect.maxX - 1
          rows[y][x] = edge ? letter : " "
        }
      }
    }
    paint(layout.title, "T")
    paint(layout.status, "S")
    paint(layout.hints, "H")
    for shown in layout.panes {
      let letter: Character =
        switch shown.pane {
        case .filters: "F"
        case .list: "L"
        case .detail: "D"
        }
      paint(shown.rect, letter)
    }
    return rows.map { String($0) }.joined(separator: "\n") + "\n"
  }

  @Test(arguments: [(160, 48), (100, 30), (60, 20)])
  func layoutPictures(columns: Int, rows: Int) throws {
    let fixture = try ScreenFixture()
    var pictures = ""
    for focus in [ScreenFeature.Pane.filters, .list, .detail] {
      let state = try fixture.state(
        columns: columns, rows: rows, select: "Export to CSV", focus: focus)
      pictures += "focus: \(focus)\n" + Self.picture(state)
    }
    let file = Snapshot.folder.appendingPathComponent("layout.\(columns)x\(rows).txt")
    if ProcessInfo.processInfo.environment["DOCKET_RECORD_SNAPSHOTS"] == "1" {
      try Data(pictures.utf8).write(to: file)
      Testing.Issue.record("Recorded \(file.lastPathComponent); run again without recording")
      return
    }
    let recorded = try String(contentsOf: file, encoding: .utf8)
    #expect(pictures == recorded, "the layout at \(columns)×\(rows) changed")
  }
}

/// In screen-reader mode the cursor sits on what has the focus, whichever row that is: a screen
/// reader reads the line under the cursor after each key.
@Suite struct ScreenReaderCursorTests {
  @Test func theCursorSitsOnTheFocusedRow() throws {
    let fixture = try ScreenFixture(extraTags: 20)
    let l10n = DocketStrings.localizer(language: "en")
    var state = try fixture.state(columns: 100, rows: 30, focus: .list)
    state.screenReader = true
    for issue in state.app.list.issues {
      state.app.list.selection = issue.id
      state.keepSelectionsInView()
      let buffer = ScreenView(state: state, l10n: l10n, now: snapshotNow).render()
      let cursor = try #require(buffer.cursor, "no cursor with \(issue.title) selected")
      #expect(buffer.lines[cursor.y].contains(issue.title.prefix(15)), "\(issue.title)")
    }
    state.focus = .filters
    let names = ["Open", "Completed", "Recent"] + state.app.sidebar.tags.map(\.tag.name)
    for (row, name) in names.enumerated() {
      state.sidebarRow = row
      state.keepSelectionsInView()
      let buffer = ScreenView(state: state, l10n: l10n, now: snapshotNow).render()
      let cursor = try #require(buffer.cursor, "no cursor on \(name)")
      #expect(buffer.lines[cursor.y].contains(name), "\(name)")
    }
    // The help is read from its first line.
    state.mode = .help
    let help = ScreenView(state: state, l10n: l10n, now: snapshotNow).render()
    let cursor = try #require(help.cursor)
    #expect(help.lines[cursor.y].contains("Everywhere"))
  }
}
