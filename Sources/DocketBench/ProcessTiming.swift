import Foundation
import Terminal

/// One run of a program: how long it took from start to exit, and its peak memory.
struct ProcessRun {
  var milliseconds: Double
  var peakMemoryMiB: Double
  var status: Int32
}

/// Starts `executable` with `arguments`, standard output to `outputPath`, and waits for it.
/// `posix_spawn` and `wait4` give the exit time and the peak resident size exactly.
func timeProcess(
  _ executable: String, _ arguments: [String], outputPath: String = "/dev/null",
  errorPath: String = "/dev/null"
) -> ProcessRun {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  let start = ContinuousClock.now
  let started = SpawnAttributes.withFreshSignals {
    posix_spawn(&pid, executable, &actions, $0, argv, environ) == 0
  }
  guard started else { return ProcessRun(milliseconds: 0, peakMemoryMiB: 0, status: -1) }
  var status: Int32 = 0
  var usage = rusage()
  wait4(pid, &status, 0, &usage)
  let elapsed = ContinuousClock.now - start
  let milliseconds =
    Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
  // ru_maxrss is in KiB on Linux and in bytes on macOS.
  #if os(macOS)
    let mebibytes = Double(usage.ru_maxrss) / 1_048_576
  #else
    let mebibytes = Double(usage.ru_maxrss) / 1024
  #endif
  // A program killed by a signal counts as failed, as a shell reports it (128 + the signal).
  let signalled = status & 0x7f
  return ProcessRun(
    milliseconds: milliseconds, peakMemoryMiB: mebibytes,
    status: signalled != 0 && signalled != 0x7f ? 128 + signalled : (status >> 8) & 0xff)
}
