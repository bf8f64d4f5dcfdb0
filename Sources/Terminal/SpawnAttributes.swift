import Foundation

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
