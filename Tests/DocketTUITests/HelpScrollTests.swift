import Composable
import ComposableTesting
import DocketCore
import DocketFeatures
import Foundation
import Terminal
import Testing

@testable import DocketTUI

/// The help scrolls where it is longer than the screen, and any other key closes it.
@MainActor
@Suite struct HelpScrollTests {
  @Test func theHelpScrollsAndCloses() async throws {
    let fixture = try ScreenFixture()
    let state = try fixture.state(columns: 60, rows: 20)
    let store = TestStore(
      initialState: state, reducer: { ScreenFeature() },
      withDependencies: {
        $0.database = fixture.queue
        $0.date = .constant(snapshotNow)
        $0.locale = "en"
      })
    let lines = HelpText.lines(l10n: DocketStrings.localizer(language: "en"), columns: 60)
    let most = lines.count - ScreenLayout.helpHeight(rows: 20)
    #expect(most > ScreenLayout.helpHeight(rows: 20), "the help is longer than two screens here")
    await store.send(.key(.character("?"))) { $0.mode = .help }
    await store.send(.key(.up))
    await store.send(.key(.down)) { $0.helpScroll = 1 }
    await store.send(.key(.character("j"))) { $0.helpScroll = 2 }
    let page = ScreenLayout.helpHeight(rows: 20)
    // A page at a time, to the last page and no further (as many pages as the help has).
    var expected = 2
    while expected < most {
      expected = min(expected + page, most)
      await store.send(.key(.pageDown)) { [expected] in $0.helpScroll = expected }
    }
    await store.send(.key(.pageUp)) { $0.helpScroll = most - page }
    await store.send(.key(.pageDown)) { $0.helpScroll = most }
    // At the end, further down does nothing.
    await store.send(.key(.pageDown))
    await store.send(.key(.down))
    await store.send(.key(.character("k"))) { $0.helpScroll = most - 1 }
    // The screen shows the lines from there, and says there is more above.
    let screen = ScreenView(
      state: store.state, l10n: DocketStrings.localizer(language: "en"), now: snapshotNow
    ).render().lines
    // The arrow sits in the help's own top edge (the hint bar's "↑↓" is not it).
    let top = try #require(screen.first { $0.contains("Keys") })
    #expect(top.contains("↑"))
    let firstShown = try #require(lines[(most - 1)...].first { !$0.text.isEmpty }).text
    #expect(screen.contains { $0.contains(firstShown.prefix(20)) }, "\(firstShown)")
    // The line before the window is not on the screen.
    let hidden = try #require(lines[..<(most - 1)].last { !$0.text.isEmpty }).text
    #expect(!screen.contains { $0.contains(hidden) }, "\(hidden)")
    await store.send(.key(.character("x"))) {
      $0.mode = .browsing
      $0.helpScroll = 0
    }
    await store.finish()
  }

  /// Side by side, a heading is bold and the entry beside it in the other column is not.
  @Test func boldStaysOnTheHeading() throws {
    let fixture = try ScreenFixture()
    var state = try fixture.state(columns: 160, rows: 60)
    state.mode = .help
    let l10n = DocketStrings.localizer(language: "en")
    let buffer = ScreenView(state: state, l10n: l10n, now: snapshotNow).render()
    let lines = HelpText.lines(l10n: l10n, columns: 160)
    // A line holding a heading of one column and an entry of the other.
    let mixed = try #require(
      lines.first { line in
        line.headings.count == 1 && line.text.count > line.headings[0].text.count + 10
      })
    let heading = mixed.headings[0]
    let y = try #require(
      buffer.lines.firstIndex { $0.contains(mixed.text.trimmingCharacters(in: .whitespaces)) })
    let row = buffer.lines[y]
    let start = try #require(row.range(of: heading.text)).lowerBound.utf16Offset(in: row)
    // The heading's cells are bold; every other visible letter on the line is not.
    var boldLetters = 0
    for x in 0..<buffer.width where buffer[x, y].text.first?.isLetter == true {
      let bold = buffer[x, y].style.attributes.contains(.bold)
      let inHeading = x >= start && x < start + heading.text.count
      #expect(bold == inHeading, "column \(x) of “\(row)”")
      if bold { boldLetters += 1 }
    }
    #expect(boldLetters > 0)
  }
}
