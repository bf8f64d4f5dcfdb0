import Composable
import DocketFeatures
import Locking

/// Waiting for the features' writes before the program ends.
public enum WriteDrain {
  /// How long quitting waits for writes still in flight.
  public static let quitTimeout: Duration = .seconds(5)

  /// Returns true once every write the store's features asked for has landed, or false when
  /// `timeout` passes first (a write waiting on another program's lock, say).
  @MainActor
  public static func wait<State, Action>(
    for store: Store<State, Action>, timeout: Duration
  ) async -> Bool {
    let answered = Locked(false)
    return await withCheckedContinuation { continuation in
      func answer(_ landed: Bool) {
        let first = answered.withLock { done in
          defer { done = true }
          return !done
        }
        if first { continuation.resume(returning: landed) }
      }
      Task { @MainActor in
        await store.waitForEffects(in: WriteLane.database)
        answer(true)
      }
      Task {
        try? await Task.sleep(for: timeout)
        answer(false)
      }
    }
  }
}
