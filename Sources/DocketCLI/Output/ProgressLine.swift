import Foundation
import Terminal

/// A line on standard error that says how far a long import is, rewritten in place, at most ten
/// times a second; only on a terminal, and only once the work has taken a moment.
final class ProgressLine {
  private let console: Console
  /// The clock, which tests set.
  private let now: () -> ContinuousClock.Instant
  private let started: ContinuousClock.Instant
  private var last: ContinuousClock.Instant?
  private var shown = false

  init(console: Console, now: @escaping () -> ContinuousClock.Instant = { .now }) {
    self.console = console
    self.now = now
    started = now()
  }

  /// `atOnce`: a new step, shown even within a tenth of a second of the last line.
  func say(_ text: String, atOnce: Bool = false) {
    guard console.errorIsTerminal else { return }
    let now = now()
    guard now - started > .milliseconds(300) else { return }
    if !atOnce, let last, now - last < .milliseconds(100) { return }
    last = now
    // Within the terminal's width as it is now (it may have been resized since the start), less
    // a column: a line that wraps leaves a row behind at each rewrite.
    let line = SafeText.sanitized(text)
    let fitted =
      console.errorWidth().map { DisplayWidth.truncate(line, to: max(1, $0 - 1)) } ?? line
    console.writeError("\r\u{1B}[K" + fitted)
    shown = true
  }

  func clear() {
    if shown { console.writeError("\r\u{1B}[K") }
    shown = false
  }
}
