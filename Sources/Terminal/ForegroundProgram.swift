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
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGQUIT)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
    let previousInterrupt = signal(SIGINT, SIG_IGN)
    let previousQuit = signal(SIGQUIT, SIG_IGN)
    defer {
      signal(SIGINT, previousInterrupt)
      signal(SIGQUIT, previousQuit)
    }
    var pid = pid_t()
    guard posix_spawn(&pid, path, nil, &attributes, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return nil }
    }
    let signalNumber = status & 0x7F
    return signalNumber == 0 ? (status >> 8) & 0xFF : 128 + signalNumber
  }
}
