import Foundation
import Locking
import Testing

@testable import DocketCore

/// The pipeline a whole list uses to encode and deliver beside its reading.
@Suite struct BatchPipelineTests {
  /// A gate the work waits at until the test opens it.
  final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false
    private var waiters = 0

    func wait() {
      condition.lock()
      waiters += 1
      while !isOpen { condition.wait() }
      condition.unlock()
    }

    /// Whether some thread has come to the gate (and may still be held there).
    var isWaitedOn: Bool {
      condition.lock()
      defer { condition.unlock() }
      return waiters > 0
    }

    func open() {
      condition.lock()
      isOpen = true
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Waits, a bounded time, until `condition` holds; whether it did.
  func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<10_000 {
      if condition() { return true }
      usleep(1_000)
    }
    return condition()
  }

  /// Batches are worked on in the order they came, on the pipeline's own thread, and all of them
  /// are done when `finish` returns.
  @Test func batchesAreDoneInOrderOnAThreadOfTheirOwn() throws {
    let done = Locked<[Int]>([])
    let threads = Locked<Set<UInt>>([])
    let caller = UInt(pthread_self())
    let pipeline = BatchPipeline<Int>(depth: 2) { batch in
      threads.withLock { _ = $0.insert(UInt(pthread_self())) }
      if batch % 7 == 0 { usleep(200) }
      done.withLock { $0.append(batch) }
    }
    for batch in 0..<200 { try pipeline.submit(batch) }
    try pipeline.finish()
    #expect(done.withLock { $0 } == Array(0..<200))
    // One thread, not the caller's.
    #expect(threads.withLock { $0.count } == 1)
    #expect(!threads.withLock { $0.contains(caller) })
  }

  /// At most `depth` batches wait: a submit past that waits for the work, and goes on once the
  /// work takes a batch.
  @Test func submitWaitsWhileTheQueueIsFull() throws {
    let gate = Gate()
    let started = Locked(0)
    let pipeline = BatchPipeline<Int>(depth: 2) { _ in
      started.withLock { $0 += 1 }
      gate.wait()
    }
    try pipeline.submit(0)
    #expect(eventually { started.withLock { $0 } == 1 })
    // Batch 0 is being worked on; 1 and 2 wait; a submit of 3 must wait for room.
    try pipeline.submit(1)
    try pipeline.submit(2)
    let submitted = Locked(false)
    let submitter = Thread {
      try? pipeline.submit(3)
      submitted.withLock { $0 = true }
    }
    submitter.start()
    #expect(eventually { pipeline.waitingCounts.submitters == 1 })
    #expect(!submitted.withLock { $0 })
    #expect(pipeline.waitingCounts.batches == 2)
    gate.open()
    #expect(eventually { submitted.withLock { $0 } })
    try pipeline.finish()
    #expect(started.withLock { $0 } == 4)
  }

  /// The first error stops the work: later batches are dropped, and both `submit` and `finish`
  /// throw it.
  @Test func theFirstErrorStopsTheWorkAndIsThrown() throws {
    struct Broken: Error, Equatable { var batch: Int }
    let done = Locked<[Int]>([])
    let pipeline = BatchPipeline<Int>(depth: 1) { batch in
      if batch == 3 { throw Broken(batch: batch) }
      done.withLock { $0.append(batch) }
    }
    var submitError: (any Error)?
    for batch in 0..<1_000 {
      do { try pipeline.submit(batch) } catch {
        submitError = error
        break
      }
    }
    #expect(submitError as? Broken == Broken(batch: 3))
    #expect(throws: Broken(batch: 3)) { try pipeline.finish() }
    #expect(done.withLock { $0 } == [0, 1, 2])
  }

  /// `cancel` drops what waits and stops after the batch being worked on; a closure only
  /// borrowed for the pipeline's life is let go before `cancel` and `finish` return
  /// (`withoutActuallyEscaping` would stop the program).
  @Test func cancelDropsWaitingBatchesAndLetsTheWorkGo() throws {
    let done = Locked<[Int]>([])
    let gate = Gate()
    func run(_ body: (Int) -> Void, cancelling: Bool) throws {
      try withoutActuallyEscaping(body) { body in
        let pipeline = BatchPipeline<Int>(depth: 8) { batch in
          if batch == 0 { gate.wait() }
          body(batch)
        }
        for batch in 0..<8 { try pipeline.submit(batch) }
        if cancelling {
          // Batch 0 is being worked on before the cancel comes, or it would be dropped too.
          #expect(eventually { gate.isWaitedOn })
          let cancelled = Locked(false)
          let canceller = Thread {
            pipeline.cancel()
            cancelled.withLock { $0 = true }
          }
          canceller.start()
          // The waiting batches are dropped while batch 0 is still being worked on.
          #expect(eventually { pipeline.waitingCounts.batches == 0 })
          #expect(!cancelled.withLock { $0 })
          gate.open()
          #expect(eventually { cancelled.withLock { $0 } })
        } else {
          try pipeline.finish()
        }
      }
    }
    try run({ batch in done.withLock { $0.append(batch) } }, cancelling: true)
    #expect(done.withLock { $0 } == [0])
    done.withLock { $0 = [] }
    try run({ batch in done.withLock { $0.append(batch) } }, cancelling: false)
    #expect(done.withLock { $0 } == Array(0..<8))
  }

  /// `feed` finishes after its producer, or cancels and throws the producer's error.
  @Test func feedFinishesOrCancels() throws {
    struct Stop: Error {}
    let done = Locked<[Int]>([])
    let pipeline = BatchPipeline<Int> { batch in done.withLock { $0.append(batch) } }
    try pipeline.feed { for batch in 0..<5 { try pipeline.submit(batch) } }
    #expect(done.withLock { $0 } == Array(0..<5))

    let gate = Gate()
    let stopped = BatchPipeline<Int> { batch in
      gate.wait()
      done.withLock { $0.append(batch) }
    }
    done.withLock { $0 = [] }
    gate.open()
    #expect(throws: Stop.self) {
      try stopped.feed {
        try stopped.submit(10)
        throw Stop()
      }
    }
    // After `feed` the worker has stopped: nothing is worked on later.
    let after = done.withLock { $0 }
    usleep(20_000)
    #expect(done.withLock { $0 } == after)
    #expect(after.allSatisfy { $0 == 10 })
  }
}
