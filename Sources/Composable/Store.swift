/// Runs a feature: holds its state, reduces actions in order, runs their effects, and tells a
/// view layer when the state changed.
///
/// Actions sent while an action is being reduced (by a `.send` effect, or by a view reacting to
/// a change) wait in a queue and are reduced after it, never re-entrantly. A view observes the
/// store and is told once per batch of actions, after the queue is empty.
@MainActor
public final class Store<State, Action: Sendable> {
  private let readState: @MainActor () -> State
  private let sendAction: @MainActor (Action) -> StoreTask
  private let addObserver: @MainActor (@escaping @MainActor () -> Void) -> StoreObservation
  private let waitForLane: @MainActor (CancelID) async -> Void

  /// A store running `reducer` from `initialState`, with dependencies changed by `prepare`.
  public convenience init<R: Reducer>(
    initialState: State, reducer: R,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in }
  ) where R.State == State, R.Action == Action {
    var dependencies = DependencyValues.current
    prepare(&dependencies)
    let root = RootStore(initialState: initialState, reducer: reducer, dependencies: dependencies)
    self.init(
      read: { root.state }, send: { root.send($0) }, observe: { root.addObserver($0) },
      waitForLane: { await root.waitForLane($0) })
  }

  private init(
    read: @escaping @MainActor () -> State, send: @escaping @MainActor (Action) -> StoreTask,
    observe: @escaping @MainActor (@escaping @MainActor () -> Void) -> StoreObservation,
    waitForLane: @escaping @MainActor (CancelID) async -> Void
  ) {
    readState = read
    sendAction = send
    addObserver = observe
    self.waitForLane = waitForLane
  }

  /// Returns once every effect put in `lane` (`Effect.serial(in:)`) has finished, those queued
  /// meanwhile included: a program waits for its writes this way before it quits.
  public func waitForEffects<Lane: Hashable & Sendable>(in lane: Lane) async {
    await waitForLane(CancelID(lane))
  }

  /// The current state.
  public var state: State { readState() }

  /// Reduces `action` (after any actions already queued) and starts its effects.
  @discardableResult
  public func send(_ action: Action) -> StoreTask { sendAction(action) }

  /// Calls `onChange` after every batch of actions. Keep the returned observation: dropping it
  /// (or calling `cancel`) stops the calls.
  public func observe(_ onChange: @escaping @MainActor () -> Void) -> StoreObservation {
    addObserver(onChange)
  }

  /// A store for a child feature: it reads the child's part of this store's state, and its
  /// actions are sent to this store wrapped by `action`.
  public func scope<ChildState, ChildAction>(
    state toChild: @escaping @MainActor (State) -> ChildState,
    action fromChild: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let read = readState
    let send = sendAction
    return Store<ChildState, ChildAction>(
      read: { toChild(read()) }, send: { send(fromChild($0)) }, observe: addObserver,
      waitForLane: waitForLane)
  }

  public func scope<ChildState, ChildAction>(
    state keyPath: KeyPath<State, ChildState>, action: ActionCase<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: { $0[keyPath: keyPath] }, action: action.embed)
  }
}

/// The effects started by one `send`: a view may wait for them (to keep a spinner up) or
/// cancel them.
public struct StoreTask: Sendable {
  let tasks: [Task<Void, Never>]

  public func finish() async {
    for task in tasks { await task.value }
  }

  public func cancel() {
    for task in tasks { task.cancel() }
  }

  public var isEmpty: Bool { tasks.isEmpty }
}

/// Keeps a store's observer registered while it is alive.
@MainActor
public final class StoreObservation {
  private var onCancel: (@MainActor () -> Void)?

  init(onCancel: @escaping @MainActor () -> Void) {
    self.onCancel = onCancel
  }

  public func cancel() {
    onCancel?()
    onCancel = nil
  }

  isolated deinit {
    cancel()
  }
}

/// The store that owns the state; child stores are views of it.
@MainActor
final class RootStore<State, Action: Sendable> {
  private(set) var state: State
  private let reducer: any Reducer<State, Action>
  private let dependencies: DependencyValues
  private var queue: [Action] = []
  private var isReducing = false
  private var observers: [Int: @MainActor () -> Void] = [:]
  private var nextObserverID = 0
  private lazy var runner = EffectRunner<Action> { [weak self] action in self?.send(action) }

  init<R: Reducer>(initialState: State, reducer: R, dependencies: DependencyValues)
  where R.State == State, R.Action == Action {
    self.state = initialState
    self.reducer = reducer
    self.dependencies = dependencies
  }

  isolated deinit {
    runner.cancelAll()
  }

  @discardableResult
  func send(_ action: Action) -> StoreTask {
    queue.append(action)
    guard !isReducing else { return StoreTask(tasks: []) }
    isReducing = true
    var started: [Task<Void, Never>] = []
    while !queue.isEmpty {
      let next = queue.removeFirst()
      let effect = DependencyValues.$current.withValue(dependencies) {
        reducer.reduce(into: &state, action: next)
      }
      started += DependencyValues.$current.withValue(dependencies) {
        runner.start(effect, origin: 0)
      }
    }
    isReducing = false
    for observer in observers.values { observer() }
    return StoreTask(tasks: started)
  }

  func waitForLane(_ lane: CancelID) async {
    await runner.waitForLane(lane)
  }

  func addObserver(_ observer: @escaping @MainActor () -> Void) -> StoreObservation {
    let id = nextObserverID
    nextObserverID += 1
    observers[id] = observer
    return StoreObservation { [weak self] in self?.observers[id] = nil }
  }
}
