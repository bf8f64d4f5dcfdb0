import Foundation
import Testing

@testable import DocketCLI

/// The progress line of a long import: only where standard error is a terminal, only once the
/// work has taken a moment, at most ten times a second unless a new step begins, rewritten in
/// place within the terminal's width, made safe, and cleared at the end. The clock is the test's.
@Suite struct ImportProgressTests {
  /// What was written to standard error, and the time, which the test moves.
  final class FakeStandardError {
    var written = ""
    var now = ContinuousClock.now
    var width: Int?

    func console(isTerminal: Bool = true) -> Console {
      var console = Console(
        write: { _ in }, writeError: { _ in }, readLine: { nil }, outputIsTerminal: false,
        inputIsTerminal: false, width: nil, colors: false)
      console.errorIsTerminal = isTerminal
      // Only this test's thread calls these, while the terminal lives.
      nonisolated(unsafe) let terminal = self
      console.writeError = { terminal.written += $0 }
      console.errorWidth = { terminal.width }
      return console
    }

    func progress(isTerminal: Bool = true) -> ProgressLine {
      ProgressLine(console: console(isTerminal: isTerminal), now: { self.now })
    }

    func wait(_ milliseconds: Int) { now = now.advanced(by: .milliseconds(milliseconds)) }
  }

  @Test func nothingOffATerminal() {
    let terminal = FakeStandardError()
    let progress = terminal.progress(isTerminal: false)
    terminal.wait(1000)
    progress.say("Importing: 1000 of 91294 issues")
    progress.say("Importing: building the search index…", atOnce: true)
    progress.clear()
    #expect(terminal.written == "")
  }

  @Test func onlyOnceItTakesAMomentAndAtMostTenTimesASecond() {
    let terminal = FakeStandardError()
    let progress = terminal.progress()
    progress.say("Importing: 1000 of 91294 issues")
    terminal.wait(299)
    progress.say("Importing: 1500 of 91294 issues")
    #expect(terminal.written == "", "nothing in the first moment")
    terminal.wait(2)
    progress.say("Importing: 2000 of 91294 issues")
    terminal.wait(99)
    progress.say("Importing: 3000 of 91294 issues")
    terminal.wait(1)
    progress.say("Importing: 4000 of 91294 issues")
    progress.clear()
    #expect(
      terminal.written
        == "\r\u{1B}[KImporting: 2000 of 91294 issues\r\u{1B}[KImporting: 4000 of 91294 issues"
        + "\r\u{1B}[K")
    terminal.written = ""
    progress.clear()
    #expect(terminal.written == "", "cleared once")
  }

  @Test func dataInItIsMadeSafe() {
    let terminal = FakeStandardError()
    let progress = terminal.progress()
    terminal.wait(400)
    progress.say("Reading \u{1B}[31mred.json: 3 of 9 MB")
    #expect(terminal.written == "\r\u{1B}[KReading ␛[31mred.json: 3 of 9 MB")
  }

  /// A new step is said at once, however soon after the last line; every line fits in the
  /// terminal's width as it is when said, less a column (a line that wrapped would leave a row
  /// at each rewrite).
  @Test func aStepIsSaidAtOnceAndEveryLineFits() {
    let terminal = FakeStandardError()
    terminal.width = 20
    let progress = terminal.progress()
    terminal.wait(400)
    progress.say("Importing: 2000 of 91294 issues")
    progress.say("Importing: building the search index…", atOnce: true)
    progress.say("Importing: 3000 of 91294 issues")
    terminal.width = 30
    terminal.wait(100)
    progress.say("Importing: recording the new issues for sync…", atOnce: true)
    #expect(
      terminal.written
        == "\r\u{1B}[KImporting: 2000 of…" + "\r\u{1B}[KImporting: buildin…"
        + "\r\u{1B}[KImporting: recording the new…")
  }
}
