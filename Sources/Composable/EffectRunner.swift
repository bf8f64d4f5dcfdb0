/// Runs effects for a store: starts their tasks, tracks them, cancels them by id.
///
/// Both `Store` and the test store use it, so effects behave the same in the app and in tests.
@MainActor
package final class EffectRunner<Action: Sendable> {
  /// A running task and the action whose reduction started it.
  package struct InFlight {
    package let task: Task<Void, Never>
    package let origin: Int
  }

  /// Where actions sent by effects go.
  private let deliver: @MainActor (Action) -> Void
  package private(set) var inFlight: [Int: InFlight] = [:]
  private var cancellables: [CancelID: Set<Int>] = [:]
  private var nextTaskID = 0
  /// The last effect put in each serial lane, which the next one waits for.
  private var lanes: [CancelID: (id: Int, task: Task<Void, Never>)] = [:]

  package init(deliver: @escaping @MainActor (Action) -> Void) {
    self.deliver = deliver
  }

  /// Starts `effect`. `origin` names the action it came from (for the test store's reports).
  /// Returns the tasks started; `.send` actions are delivered before this returns.
  @discardableResult
  package func start(_ effect: Effect<Action>, origin: Int) -> [Task<Void, Never>] {
    start(effect, origin: origin, cancelIDs: [])
  }

  private func start(_ effect: Effect<Action>, origin: Int, cancelIDs: [CancelID]) -> [Task<
    Void, Never
  >] {
    switch effect.operation {
    case .none:
      return []
    case .send(let action):
      deliver(action)
      return []
    case .run(let run):
      return [launch(run, origin: origin, cancelIDs: cancelIDs)]
    case .merge(let effects):
      return effects.flatMap { start($0, origin: origin, cancelIDs: cancelIDs) }
    case .concatenate(let effects):
      let sequence = Effect<Action>.Run(priority: nil, dependencies: DependencyValues.current) {
        _ in
        for effect in effects {
          guard !Task.isCancelled else { return }
          let tasks = await MainActor.run { [weak self] in
            self?.start(effect, origin: origin, cancelIDs: cancelIDs) ?? []
          }
          await withTaskCancellationHandler {
            for task in tasks { await task.value }
          } onCancel: {
            for task in tasks { task.cancel() }
          }
        }
      }
      return [launch(sequence, origin: origin, cancelIDs: cancelIDs)]
    case .cancellable(let id, let cancelInFlight, let inner):
      if cancelInFlight { cancel(id: id) }
      return start(inner, origin: origin, cancelIDs: cancelIDs + [id])
    case .cancel(let id):
      cancel(id: id)
      return []
    case .serial(let lane, let inner):
      let previous = lanes[lane]?.task
      let queued = Effect<Action>.Run(priority: nil, dependencies: DependencyValues.current) {
        _ in
        await previous?.value
        let tasks = await MainActor.run { [weak self] in
          self?.start(inner, origin: origin, cancelIDs: cancelIDs) ?? []
        }
        await withTaskCancellationHandler {
          for task in tasks { await task.value }
        } onCancel: {
          for task in tasks { task.cancel() }
        }
      }
      let id = nextTaskID
      let task = launch(queued, origin: origin, cancelIDs: cancelIDs)
      lanes[lane] = (id, task)
      return [task]
    }
  }

  private func launch(_ run: Effect<Action>.Run, origin: Int, cancelIDs: [CancelID]) -> Task<
    Void, Never
  > {
    let id = nextTaskID
    nextTaskID += 1
    let send = Send<Action> { [weak self] action in self?.deliver(action) }
    let body: @Sendable () async -> Void = { [weak self] in
      await DependencyValues.$current.withValue(run.dependencies) {
        await run.operation(send)
      }
      await self?.finished(id)
    }
    let task =
      if let executor = run.dependencies.effectExecutor {
        Task(executorPreference: executor, priority: run.priority, operation: body)
      } else {
        Task(priority: run.priority, operation: body)
      }
    // The task's body runs on the main actor after this method returns, so it is registered
    // before it can finish.
    inFlight[id] = InFlight(task: task, origin: origin)
    for cancelID in cancelIDs { cancellables[cancelID, default: []].insert(id) }
    return task
  }

  private func finished(_ id: Int) {
    inFlight[id] = nil
    for (lane, last) in lanes where last.id == id { lanes[lane] = nil }
    for key in Array(cancellables.keys) {
      cancellables[key]?.remove(id)
      if cancellables[key]?.isEmpty == true { cancellables[key] = nil }
    }
  }

  func cancel(id: CancelID) {
    // A cancelled effect counts as done: it is no longer waited for or reported as running.
    for taskID in cancellables.removeValue(forKey: id) ?? [] {
      inFlight.removeValue(forKey: taskID)?.task.cancel()
    }
  }

  /// Cancels every running effect (a store going away, a test skipping them).
  package func cancelAll() {
    for entry in inFlight.values { entry.task.cancel() }
    inFlight.removeAll()
    cancellables.removeAll()
  }

  package var isIdle: Bool { inFlight.isEmpty }

  /// Whether no effect put in `lane` is running or waiting to run.
  package func isLaneIdle<Lane: Hashable & Sendable>(_ lane: Lane) -> Bool {
    lanes[CancelID(lane)] == nil
  }

  /// Returns once every effect put in `lane` so far, and any put there meanwhile, has finished.
  func waitForLane(_ lane: CancelID) async {
    while let last = lanes[lane] {
      await last.task.value
      if lanes[lane]?.id == last.id { lanes[lane] = nil }
    }
  }
}
