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
    // and an ignored signal stays ignored in the program it starts.
    let started = SpawnAttributes.withFreshSignals(defaulting: [SIGINT, SIGQUIT, SIGWINCH]) {
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

/// Attributes for `posix_spawn` that start a program with its signals as a shell would give them.
public enum SpawnAttributes {
  /// What `posix_spawn` takes for its attributes (an opaque pointer's address on Darwin).
  #if canImport(Darwin)
    public typealias Pointer = UnsafePointer<posix_spawnattr_t?>
  #else
    public typealias Pointer = UnsafePointer<posix_spawnattr_t>
  #endif

  /// Calls `body` with attributes under which the program starts with no signal blocked (a
  /// program otherwise inherits the mask of the thread that starts it, and a thread of a worker
  /// pool blocks nearly every signal: a program started from one never saw SIGTERM or SIGHUP,
  /// and a tmux server so started outlived its `kill-server`), and with `defaulting` (signals
  /// this process ignores meanwhile) back to their default action; every signal when
  /// `defaultingAll`.
  public static func withFreshSignals<Result>(
    defaulting: [Int32] = [], defaultingAll: Bool = false, _ body: (Pointer) -> Result
  ) -> Result {
    #if canImport(Darwin)
      var attributes: posix_spawnattr_t? = nil
    #else
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    if defaultingAll { sigfillset(&defaults) } else { sigemptyset(&defaults) }
    for signal in defaulting { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return body(&attributes)
  }
}
