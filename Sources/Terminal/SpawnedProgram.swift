import Foundation

/// Starts another program away from the terminal, its standard streams from files, with no
/// signal blocked (`SpawnAttributes`): how the tests and the benchmark run programs and wait for
/// them. (An editor, which takes the terminal, goes through `ForegroundProgram`.)
public enum SpawnedProgram {
  /// Starts `path` (looked for on the PATH when `searchingPath`) with `arguments`: standard input
  /// read from `input`, output and errors written to `output` and `error` (made anew, private),
  /// each left as this process has it where nil. `environment` replaces this process's when
  /// given; `defaultingAll` sets every signal back to its default action (a program that shares
  /// nothing with this one, such as a tmux server). Returns the program's process id.
  public static func start(
    _ path: String, _ arguments: [String], environment: [String: String]? = nil,
    input: String? = "/dev/null", output: String? = "/dev/null", error: String? = "/dev/null",
    searchingPath: Bool = false, defaultingAll: Bool = false
  ) throws(POSIXError) -> pid_t {
    // An opaque pointer on Darwin, a structure on Linux.
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let input { posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0) }
    for (descriptor, file) in [(Int32(1), output), (2, error)] {
      guard let file else { continue }
      posix_spawn_file_actions_addopen(
        &actions, descriptor, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let variables = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { for pointer in variables ?? [] { free(pointer) } }
    var pid: pid_t = 0
    let result = SpawnAttributes.withFreshSignals(defaultingAll: defaultingAll) { attributes in
      let spawn = searchingPath ? posix_spawnp : posix_spawn
      return variables.map { spawn(&pid, path, &actions, attributes, argv, $0) }
        ?? spawn(&pid, path, &actions, attributes, argv, environ)
    }
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
    return pid
  }
}
