import Foundation

/// The terminal while a full-screen program runs: raw input, the alternate screen, a hidden
/// cursor, bracketed paste. Everything is put back exactly as it was on `restore()`, which also
/// runs on SIGTERM, SIGHUP and crash signals.
///
/// Ctrl-C and Ctrl-Z reach the program as keys (raw mode turns signals off), so it decides what
/// they mean; `suspend()` gives the terminal back and stops the process, as a shell expects.
public final class TerminalSession: @unchecked Sendable {
  // @unchecked Sendable: the saved settings are written once, before any signal handler is
  // installed, and only read afterwards (by restore, from the main thread or a signal handler).
  private var saved = termios()
  private let input: Int32
  private let output: Int32
  private(set) var isActive = false

  /// The session signal handlers restore; there is one terminal per process.
  nonisolated(unsafe) static var current: TerminalSession?
  /// The pipe that SIGTERM and SIGHUP are written to once a program asks to hear of them
  /// (`deliverTerminationSignals`); -1 until then.
  nonisolated(unsafe) static var terminationPipe: Int32 = -1

  /// Whether clicks and the wheel are reported (SGR mouse mode); else the terminal keeps the
  /// mouse for its own selection and scrolling.
  private let mouse: Bool

  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, mouse: Bool = false) {
    self.input = input
    self.output = output
    self.mouse = mouse
  }

  /// The modes the program's screen runs in: the alternate screen, no cursor, bracketed paste,
  /// and the mouse when asked for.
  private var screenModes: String {
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h" + (mouse ? "\u{1B}[?1000h\u{1B}[?1006h" : "")
  }

  /// Enters raw mode and the alternate screen. Throws when input is not a terminal.
  public func start() throws {
    guard tcgetattr(input, &saved) == 0 else { throw SessionError.notATerminal }
    try enterRawMode()
    write(screenModes + "\u{1B}[H\u{1B}[2J")
    isActive = true
    Self.current = self
    for signal in [SIGTERM, SIGHUP, SIGQUIT] { Foundation.signal(signal, terminateHandler) }
    for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT] {
      Foundation.signal(signal, crashHandler)
    }
  }

  public enum SessionError: Error { case notATerminal }

  /// Keys typed before the app starts are dropped; keys typed while another program hands the
  /// terminal back (an editor closing, `fg`) are kept: they were typed for the app.
  private func enterRawMode(keepingTypedKeys: Bool = false) throws {
    var raw = saved
    // No echo, no line editing, no signals from keys, no flow control, no CR translation.
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    let when = keepingTypedKeys ? TCSANOW : TCSAFLUSH
    guard tcsetattr(input, when, &raw) == 0 else { throw SessionError.notATerminal }
  }

  /// From now on SIGTERM and SIGHUP do not end the program: `handler` hears of them, on a
  /// thread of its own, and decides (the app waits for its writes, then restores and exits).
  /// The signal handler only writes the signal's number to a pipe, which is safe in a handler.
  public func deliverTerminationSignals(to handler: @escaping @Sendable (Int32) -> Void) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return }
    Self.terminationPipe = ends[1]
    let reading = ends[0]
    let thread = Thread {
      var number: Int32 = 0
      while Foundation.read(reading, &number, MemoryLayout<Int32>.size)
        == MemoryLayout<Int32>.size
      {
        handler(number)
      }
    }
    thread.name = "docket-signals"
    thread.start()
    for signal in [SIGTERM, SIGHUP] { Foundation.signal(signal, forwardingHandler) }
  }

  /// Puts the terminal back as it was. Safe to call more than once. Never waits for the
  /// terminal: after a hang-up nobody reads it, and waiting for output to drain would never end.
  public func restore() {
    guard isActive else { return }
    isActive = false
    // A terminal that went away (a hang-up, a multiplexer shutting down) may never read again:
    // the reset is written only while the terminal takes it, so restoring never hangs.
    write(
      "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l",
      waitingAtMost: 200)
    tcflush(input, TCIFLUSH)
    tcsetattr(input, TCSANOW, &saved)
  }

  /// Gives the terminal back and stops the process (Ctrl-Z); returns once it is continued, with
  /// the program's screen set up again. The caller redraws in full.
  public func suspend() {
    restore()
    kill(getpid(), SIGTSTP)
    // Continued by `fg`.
    try? enterRawMode(keepingTypedKeys: true)
    write(screenModes + "\u{1B}[2J")
    isActive = true
  }

  /// Runs `body` (an editor, say) with the terminal as the user's, then takes it back.
  public func outside<Result>(_ body: () throws -> Result) rethrows -> Result {
    restore()
    defer {
      try? enterRawMode(keepingTypedKeys: true)
      write(screenModes + "\u{1B}[2J")
      isActive = true
    }
    return try body()
  }

  public func write(_ text: String) {
    write(text, waitingAtMost: nil)
  }

  /// Writes `text`; with a limit, gives up once the terminal has not taken more for that many
  /// milliseconds.
  private func write(_ text: String, waitingAtMost milliseconds: Int32?) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      if let milliseconds {
        var ready = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
        guard poll(&ready, 1, milliseconds) == 1, ready.revents & Int16(POLLOUT) != 0 else {
          return
        }
      }
      let written = bytes.withUnsafeMutableBytes {
        Foundation.write(output, $0.baseAddress! + offset, $0.count - offset)
      }
      if written <= 0 { break }
      offset += written
    }
  }

  public var size: (columns: Int, rows: Int) { TerminalInfo.size(of: output) ?? (80, 24) }
}

private func terminateHandler(_ signal: Int32) {
  TerminalSession.current?.restore()
  _exit(128 + signal)
}

private func crashHandler(_ signal: Int32) {
  TerminalSession.current?.restore()
  Foundation.signal(signal, SIG_DFL)
  raise(signal)
}

private func forwardingHandler(_ signal: Int32) {
  var number = signal
  _ = write(TerminalSession.terminationPipe, &number, MemoryLayout<Int32>.size)
}
