import CTerminal
import Foundation

/// What the process is connected to.
public enum TerminalInfo {
  public static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

  /// Columns and rows of the terminal on `descriptor`, or nil when it is not a terminal.
  public static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
    var columns: Int32 = 0
    var rows: Int32 = 0
    guard docket_terminal_size(descriptor, &columns, &rows) == 0 else { return nil }
    return (Int(columns), Int(rows))
  }

  /// Whether to colour output on `descriptor`: only on a terminal, never with `NO_COLOR` set
  /// (to anything) or `TERM=dumb`.
  public static func wantsColor(_ descriptor: Int32, environment: [String: String]) -> Bool {
    wantsColor(isTerminal: isTerminal(descriptor), environment: environment)
  }

  /// The same decision, for output known to be (or not to be) a terminal.
  public static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
    // NO_COLOR counts when it is set to something, as no-color.org asks (and as the app reads it).
    guard isTerminal, (environment["NO_COLOR"] ?? "").isEmpty else { return false }
    return environment["TERM"] != "dumb"
  }
}
