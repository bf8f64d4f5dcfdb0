import Foundation
import Locking
import Testing

@testable import DocketCore

/// The pipeline a whole list uses to encode and deliver beside its reading.
@Suite struct BatchPipelineTests {
  /// Batches are worked on in the order they came, on another thread, and all of them are done
  /// when `finish` returns.
  @Test func batchesAreDoneInOrderOnAnotherThread() throws {
    let done = Locked<[Int]>([])
    let threads = Locked<Set<Bool>>([])
    let pipeline = BatchPipeline<Int>(depth: 2) { batch in
      threads.withLock { _ = $0.insert(Thread.isMainThread) }
      if batch % 7 == 0 { usleep(200) }
      done.withLock { $0.append(batch) }
    }
    for batch in 0..<200 { try pipeline.submit(batch) }
    try pipeline.finish()
    #expect(done.withLock { $0 } == Array(0..<200))
    #expect(threads.withLock { $0 } == [false])
  }

  /// At most `depth` batches wait: a submit past that waits for the work.
  @Test func submitWaitsWhileTheQueueIsFull() throws {
    let gate = NSCondition()
    let open = Locked(false)
    let started = Locked(0)
    let pipeline = BatchPipeline<Int>(depth: 2) { _ in
      started.withLock { $0 += 1 }
      gate.lock()
      while !open.withLock({ $0 }) { gate.wait() }
      gate.unlock()
    }
    // One batch is being worked on and two wait; the fourth submit must wait.
    for batch in 0..<3 { try pipeline.submit(batch) }
    let fourthSubmitted = Locked(false)
    let submitter = Thread {
      try? pipeline.submit(3)
      fourthSubmitted.withLock { $0 = true }
    }
    submitter.start()
    var waited = 0
    while started.withLock({ $0 }) == 0, waited < 2_000 {
      usleep(1_000)
      waited += 1
    }
    usleep(50_000)
    #expect(!fourthSubmitted.withLock { $0 })
    gate.lock()
    open.withLock { $0 = true }
    gate.broadcast()
    gate.unlock()
    waited = 0
    while !fourthSubmitted.withLock({ $0 }), waited < 2_000 {
      usleep(1_000)
      waited += 1
    }
    #expect(fourthSubmitted.withLock { $0 })
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

  /// `cancel` drops what waits, and a closure only borrowed for the pipeline's life is let go
  /// before `cancel` and `finish` return (`withoutActuallyEscaping` would stop the program).
  @Test func cancelDropsWaitingBatchesAndLetsTheWorkGo() throws {
    let done = Locked(0)
    func run(_ body: (Int) -> Void, cancelling: Bool) throws {
      try withoutActuallyEscaping(body) { body in
        let pipeline = BatchPipeline<Int>(depth: 8) { batch in
          usleep(2_000)
          body(batch)
        }
        for batch in 0..<8 { try pipeline.submit(batch) }
        if cancelling { pipeline.cancel() } else { try pipeline.finish() }
      }
    }
    try run({ _ in done.withLock { $0 += 1 } }, cancelling: true)
    #expect(done.withLock { $0 } < 8)
    done.withLock { $0 = 0 }
    try run({ _ in done.withLock { $0 += 1 } }, cancelling: false)
    #expect(done.withLock { $0 } == 8)
  }
}
