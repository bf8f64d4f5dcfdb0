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
  let start = ContinuousClock.now
  guard
    let pid = try? SpawnedProgram.start(
      executable, arguments, input: nil, output: outputPath, error: errorPath)
  else { return ProcessRun(milliseconds: 0, peakMemoryMiB: 0, status: -1) }
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
