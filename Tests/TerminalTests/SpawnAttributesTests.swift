import Foundation
import Terminal
import Testing

/// A program started by Docket begins with no signal blocked, whatever thread starts it.
@Suite struct SpawnAttributesTests {
  #if os(Linux)
    /// A thread that blocks every signal but those a fault raises, as a worker pool's threads
    /// do, starts `cp` (which copies its own status): the program's mask is empty all the same.
    /// Started directly, not through `ForegroundProgram`, which ignores Ctrl-C in this whole
    /// process while its program runs.
    @Test func aProgramStartedFromABlockingThreadBlocksNothing() throws {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "docket-sigmask-\(UUID().uuidString).txt")
      defer { try? FileManager.default.removeItem(at: file) }
      // Written by the thread before it signals `done`, read by the test after it waits.
      final class Outcome: @unchecked Sendable {
        var threadBlockedTerm = false
        var started = false
      }
      let outcome = Outcome()
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        var blocked = sigset_t()
        sigfillset(&blocked)
        for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] {
          sigdelset(&blocked, fault)
        }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        var now = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &now)
        outcome.threadBlockedTerm =
          sigismember(&now, SIGTERM) == 1 && sigismember(&now, SIGHUP) == 1
        let words: [String] = ["/bin/cp", "/proc/self/status", file.path]
        let argv = words.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        outcome.started = SpawnAttributes.withFreshSignals {
          posix_spawn(&pid, "/bin/cp", nil, $0, argv, environ) == 0
        }
        var status: Int32 = 0
        if outcome.started { while waitpid(pid, &status, 0) < 0, errno == EINTR {} }
        done.signal()
      }
      thread.start()
      #expect(done.wait(timeout: .now() + 30) == .success)
      // The premise: the starting thread blocked SIGTERM and SIGHUP.
      #expect(outcome.threadBlockedTerm && outcome.started)
      let status = try String(contentsOf: file, encoding: .utf8)
      let blocked = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }
      let mask = blocked.map { $0.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces) }
      #expect(mask.map { $0.allSatisfy { $0 == "0" } } == true, "\(blocked ?? "no SigBlk line")")
    }

    /// A program started in the foreground (an editor) has the signals Docket ignores for itself
    /// (the window's size, the file-size limit) at their defaults, as a shell would give them.
    @Test func aForegroundProgramGetsTheSignalsDocketIgnores() throws {
      let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "docket-sigign-\(UUID().uuidString).txt")
      defer { try? FileManager.default.removeItem(at: file) }
      // Ignored in this whole test process while it runs, as docket ignores them: no test here
      // is sent either signal, nor relies on Ctrl-C, which ForegroundProgram ignores meanwhile.
      let previous = [SIGWINCH, SIGXFSZ].map { ($0, signal($0, SIG_IGN)) }
      defer { for (number, handler) in previous { signal(number, handler) } }
      let status = ForegroundProgram.run("/bin/cp", arguments: ["/proc/self/status", file.path])
      #expect(status == 0)
      let text = try String(contentsOf: file, encoding: .utf8)
      let line = text.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
      let mask = line.flatMap {
        UInt64($0.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16)
      }
      let ignored = try #require(mask, "\(line ?? "no SigIgn line")")
      for number in [SIGWINCH, SIGXFSZ] {
        #expect(ignored & (1 << UInt64(number - 1)) == 0, "signal \(number) ignored")
      }
    }
  #endif
}
