import Foundation
import Testing

@testable import Terminal

/// A program started by Docket begins with no signal blocked, whatever thread starts it.
@Suite struct SpawnAttributesTests {
  #if os(Linux)
    /// The signals blocked in a program started now, as the kernel reports them.
    static func blockedInChild(from thread: (@escaping @Sendable () -> Void) -> Void) throws
      -> String
    {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "docket-sigmask-\(UUID().uuidString).txt")
      defer { try? FileManager.default.removeItem(at: file) }
      let done = DispatchSemaphore(value: 0)
      thread {
        // `cp` reads its own status (a shell would clear its mask itself, and hide the fault).
        _ = ForegroundProgram.run("/bin/cp", arguments: ["/proc/self/status", file.path])
        done.signal()
      }
      #expect(done.wait(timeout: .now() + 30) == .success)
      let status = try String(contentsOf: file, encoding: .utf8)
      return String(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") } ?? "")
    }

    /// A thread that blocks every signal it can, as a worker pool's threads do, starts the
    /// program: the program's mask is empty all the same.
    @Test func aProgramStartedFromABlockingThreadBlocksNothing() throws {
      let seen = try Self.blockedInChild { body in
        let thread = Thread {
          var all = sigset_t()
          sigfillset(&all)
          pthread_sigmask(SIG_BLOCK, &all, nil)
          // The test's own premise: this thread blocks SIGTERM and SIGHUP now.
          var now = sigset_t()
          pthread_sigmask(SIG_BLOCK, nil, &now)
          precondition(sigismember(&now, SIGTERM) == 1 && sigismember(&now, SIGHUP) == 1)
          body()
        }
        thread.start()
      }
      #expect(seen.trimmingCharacters(in: .whitespacesAndNewlines) == "SigBlk:\t0000000000000000")
    }
  #endif
}
