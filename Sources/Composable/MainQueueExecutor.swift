import Dispatch

/// A task executor that runs work on the main queue, in the order it was enqueued.
///
/// Tests run effects on it (the test store does so by itself), so an effect's steps and the
/// test's own steps interleave in one deterministic order instead of racing across threads:
/// after the test yields, the work an effect had ready has run. The app does not use it.
public final class MainQueueExecutor: TaskExecutor, Sendable {
  public static let shared = MainQueueExecutor()

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    DispatchQueue.main.async {
      job.runSynchronously(on: executor)
    }
  }
}
