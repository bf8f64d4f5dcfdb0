import DocketCore
import Files
import Foundation
import Localization
import Terminal

/// The terminal's settings before a secret was asked for, for a signal handler to put back.
nonisolated(unsafe) private var terminalBeforeSecret = termios()

/// Where the command line reads and writes, and what it is connected to.
public struct Console: Sendable {
  public var write: @Sendable (String) -> Void
  public var writeError: @Sendable (String) -> Void
  /// A line typed by the user (for confirmations), or nil at the end of input.
  public var readLine: @Sendable () -> String?
  public var outputIsTerminal: Bool
  public var inputIsTerminal: Bool
  /// The terminal's columns, when output goes to a terminal.
  public var width: Int?
  public var colors: Bool
  /// All of standard input, as bytes (`docket import -`).
  public var readAll: @Sendable () -> [UInt8] = { [] }
  /// Standard error is a terminal (a progress display goes there only then).
  public var errorIsTerminal = false
  /// That terminal's columns, asked when needed: a line rewritten in place must fit in them.
  public var errorWidth: @Sendable () -> Int? = { nil }
  /// Writes output given as bytes, without making it text first (a long list); by default
  /// through `write`.
  public var writeBytes: (@Sendable (UnsafeRawBufferPointer) -> Void)?
  /// Asks for a secret on the terminal, its prompt on standard error and the typing not shown
  /// (a passphrase); nil when input is no terminal, or at its end.
  public var readSecret: (@Sendable (String) -> String?)?

  public init(
    write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
    readLine: @escaping @Sendable () -> String?, outputIsTerminal: Bool, inputIsTerminal: Bool,
    width: Int?,
    colors: Bool
  ) {
    self.write = write
    self.writeError = writeError
    self.readLine = readLine
    self.outputIsTerminal = outputIsTerminal
    self.inputIsTerminal = inputIsTerminal
    self.width = width
    self.colors = colors
  }

  /// The process's own standard input, output and error.
  /// `l10n` says why output could not be written.
  public static func standard(environment: [String: String], l10n: Localizer) -> Console {
    let isTerminal = TerminalInfo.isTerminal(STDOUT_FILENO)
    let columns =
      TerminalInfo.size(of: STDOUT_FILENO)?.columns ?? environment["COLUMNS"].flatMap(Int.init)
    var console = Console(
      write: { text in
        var text = text
        text.withUTF8 { Self.writeOutput(UnsafeRawBufferPointer($0), l10n: l10n) }
      },
      writeError: { text in
        var text = text
        // Where even the error cannot be written there is no one to tell.
        text.withUTF8 { _ = FileWriting.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
      },
      readLine: { Swift.readLine(strippingNewline: true) },
      outputIsTerminal: isTerminal, inputIsTerminal: TerminalInfo.isTerminal(STDIN_FILENO),
      width: isTerminal ? columns : nil,
      colors: TerminalInfo.wantsColor(STDOUT_FILENO, environment: environment))
    console.readAll = { [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
    console.errorIsTerminal = TerminalInfo.isTerminal(STDERR_FILENO)
    console.errorWidth = { TerminalInfo.size(of: STDERR_FILENO)?.columns }
    console.writeBytes = { bytes in Self.writeOutput(bytes, l10n: l10n) }
    if console.inputIsTerminal { console.readSecret = { Self.readSecret(prompt: $0) } }
    return console
  }

  /// A line typed on standard input with echo off, after `prompt` on standard error.
  private static func readSecret(prompt: String) -> String? {
    _ = Array(prompt.utf8).withUnsafeBytes { FileWriting.writeAll(STDERR_FILENO, $0) }
    var saved = termios()
    let quiet = tcgetattr(STDIN_FILENO, &saved) == 0
    guard quiet else { return Swift.readLine(strippingNewline: true) }
    terminalBeforeSecret = saved
    // Ctrl-C (or a kill) while typing gives the terminal its echo back before the process ends.
    let restore: @convention(c) (Int32) -> Void = { number in
      tcsetattr(STDIN_FILENO, TCSANOW, &terminalBeforeSecret)
      _ = signal(number, SIG_DFL)
      raise(number)
    }
    let before = [SIGINT, SIGTERM, SIGHUP].map { ($0, signal($0, restore)) }
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO)
    silent.c_lflag |= tcflag_t(ECHONL)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
    defer {
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
      for (number, handler) in before { signal(number, handler) }
    }
    return Swift.readLine(strippingNewline: true)
  }

  /// Writes to standard output, whole. Output that cannot be written (a full disk, a file-size
  /// limit) ends the command with its reason, exit status 1, where Foundation's writing stopped
  /// the process with a crash report.
  private static func writeOutput(_ bytes: UnsafeRawBufferPointer, l10n: Localizer) {
    guard let failure = FileWriting.writeAll(STDOUT_FILENO, bytes) else { return }
    let message = l10n("error.output", .string(l10n.systemReason(FileWriting.reason(failure))))
    _ = Array(("docket: " + message + "\n").utf8).withUnsafeBytes {
      FileWriting.writeAll(STDERR_FILENO, $0)
    }
    exit(CommandFailure.Status.failed.rawValue)
  }

  func line(_ text: String = "") { write(text + "\n") }

  /// Output gathered in pieces and written as bytes where the console can.
  func streamingOutput() -> OutputBytes {
    if let writeBytes { return OutputBytes(streaming: true, writeBytes: writeBytes) }
    return OutputBytes(streaming: true, write: write)
  }
}

/// How a command ends badly: the message and the exit status.
struct CommandFailure: Error {
  enum Status: Int32 {
    /// The operation failed (database, I/O, editor).
    case failed = 1
    /// The command line was wrong (unknown command or option, bad value, unknown reference).
    case usage = 2
  }

  var status: Status
  var message: String

  static func usage(_ message: String) -> CommandFailure {
    CommandFailure(status: .usage, message: message)
  }
  static func failed(_ message: String) -> CommandFailure {
    CommandFailure(status: .failed, message: message)
  }
}
