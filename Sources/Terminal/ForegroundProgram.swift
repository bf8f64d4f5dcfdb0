import Foundation

/// Runs another program on this terminal, in the foreground, as a shell does: it reads and writes
/// the terminal itself (an editor). Foundation's `Process` puts its child in a process group of
/// its own, where reading the terminal fails, so an editor started by it ends at once.
public enum ForegroundProgram {
  /// The program's exit status (128 + the signal when a signal ended it); nil when it could not
  /// be started. Ctrl-C and Ctrl-\ meanwhile are the program's: this process ignores them until
  /// it ends, and the program gets them as usual.
  public static func run(_ path: String, arguments: [String]) -> Int32? {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let previousInterrupt = signal(SIGINT, SIG_IGN)
    let previousQuit = signal(SIGQUIT, SIG_IGN)
    defer {
      signal(SIGINT, previousInterrupt)
      signal(SIGQUIT, previousQuit)
    }
    var pid = pid_t()
    // The window's size changes too: the app ignores SIGWINCH to read it from a dispatch source,
    // and an ignored signal stays ignored in the program it starts. Docket ignores SIGXFSZ (a
    // write past the file-size limit fails with words); the program gets it as a shell gives it.
    let signals = [SIGINT, SIGQUIT, SIGWINCH, SIGXFSZ]
    let started = SpawnAttributes.withFreshSignals(defaulting: signals) {
      posix_spawn(&pid, path, nil, $0, argv, environ) == 0
    }
    guard started else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return nil }
    }
    let signalNumber = status & 0x7F
    return signalNumber == 0 ? (status >> 8) & 0xFF : 128 + signalNumber
  }
}
