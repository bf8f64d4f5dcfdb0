import Foundation

/// Hands batches to a thread of its own, which does `work` on each in the order they came, while
/// the caller goes on making the next: a whole list reads its rows on one core and encodes and
/// sorts them on the other.
///
/// At most `depth` batches wait, so memory stays bounded when the work is the slower side. The
/// first error of the work stops it: later batches are dropped, and `submit` and `finish` throw
/// it. The caller must end every pipeline with `finish` or `cancel` (both wait for the thread),
/// and `work` is let go on the worker thread before either returns, so a closure that is only
/// borrowed (`withoutActuallyEscaping`) is never kept.
final class BatchPipeline<Batch: Sendable>: @unchecked Sendable {
  // Everything below is read and written under `condition`'s lock.
  private let condition = NSCondition()
  private var waiting: [Batch] = []
  private var work: ((Batch) throws -> Void)?
  private var ended = false
  private var stopped = false
  private var failure: (any Error)?
  private let depth: Int
  private var submittersWaiting = 0

  /// Callers of `submit` waiting for room, and batches waiting to be worked on (for tests).
  var waitingCounts: (submitters: Int, batches: Int) {
    condition.lock()
    defer { condition.unlock() }
    return (submittersWaiting, waiting.count)
  }

  init(depth: Int = 4, work: @escaping (Batch) throws -> Void) {
    self.depth = max(1, depth)
    self.work = work
    let thread = Thread { [self] in run() }
    thread.name = "docket.pipeline"
    thread.start()
  }

  /// Queues `batch`, waiting while `depth` batches already wait. Throws the work's error once it
  /// has failed.
  func submit(_ batch: Batch) throws {
    condition.lock()
    defer { condition.unlock() }
    submittersWaiting += 1
    while waiting.count >= depth, failure == nil, !stopped { condition.wait() }
    submittersWaiting -= 1
    if let failure { throw failure }
    waiting.append(batch)
    condition.broadcast()
  }

  /// Runs `produce`, which submits the batches, then waits for them (`finish`); when `produce`
  /// throws, drops what is left (`cancel`) and throws its error.
  func feed(_ produce: () throws -> Void) throws {
    do {
      try produce()
    } catch {
      cancel()
      throw error
    }
    try finish()
  }

  /// Waits until every queued batch is done; throws the work's error, if any.
  func finish() throws {
    condition.lock()
    defer { condition.unlock() }
    ended = true
    condition.broadcast()
    while !stopped { condition.wait() }
    if let failure { throw failure }
  }

  /// Drops what waits and stops the thread after the batch it is on; waits for it.
  func cancel() {
    condition.lock()
    defer { condition.unlock() }
    ended = true
    waiting.removeAll()
    condition.broadcast()
    while !stopped { condition.wait() }
  }

  private func run() {
    condition.lock()
    while true {
      while waiting.isEmpty, !ended { condition.wait() }
      guard failure == nil, !waiting.isEmpty, let work else { break }
      let batch = waiting.removeFirst()
      condition.broadcast()
      condition.unlock()
      do {
        try work(batch)
        condition.lock()
      } catch {
        condition.lock()
        failure = error
      }
    }
    waiting.removeAll()
    work = nil
    stopped = true
    condition.broadcast()
    condition.unlock()
  }
}
