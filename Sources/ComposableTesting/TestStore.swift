import Composable
import Locking
import Testing

/// Runs a feature in a test and insists on knowing everything it does.
///
/// Exhaustive by default:
/// 1. `send(action) { … }`: the closure turns the state from before the action into the state
///    expected after it; any difference fails, with a diff of the fields that differ.
/// 2. `receive(action) { … }`: an action sent back by an effect, in order; an unexpected one,
///    or none arriving within `timeout`, fails.
/// 3. An action received and not asserted before the next `send` (or the end of the test) fails.
/// 4. An effect still running at the end of the test fails, naming the action that started it.
///
/// Failures are reported at the line of the test that caused them. With `exhaustivity = .off`
/// only what a test asserts is checked (for integration-style tests).
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  public enum Exhaustivity: Sendable {
    case on
    case off
  }

  /// The state after everything reduced so far.
  public private(set) var state: State
  public var exhaustivity: Exhaustivity = .on
  /// How long `receive` and `finish` wait, in real time, for effects to deliver.
  ///
  /// Ten seconds: a test that passes never waits for it, and a machine busy with a build and
  /// a parallel test run can take seconds to deliver what a database effect sends.
  public var timeout: Duration = .seconds(10)

  private let reducer: any Reducer<State, Action>
  private let dependencies: DependencyValues
  private lazy var runner = EffectRunner<Action> { [weak self] action in self?.arrive(action) }
  private var received: [Received] = []
  private var origins: [Int: Origin] = [:]
  private var nextOrigin = 0
  private var reducing = false
  private var pending: [(Action, Int)] = []
  private let currentLocation: LocationBox

  struct Received {
    let action: Action
    let before: State
    let after: State
    let origin: Int
  }

  /// The action a piece of work came from, and the test line that sent it.
  struct Origin {
    let action: String
    let location: SourceLocation
  }

  /// - Parameter prepare: sets the dependencies the feature uses. Any dependency it reads
  ///   without a value set here fails the test, naming the dependency.
  public init<R: Reducer>(
    initialState: State, reducer: () -> R,
    withDependencies prepare: (inout DependencyValues) -> Void = { _ in },
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) where R.State == State, R.Action == Action {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let current = LocationBox(location)
    self.currentLocation = current
    var values = DependencyValues(context: .test) { message in
      Issue.record(Comment(rawValue: message), sourceLocation: current.value)
    }
    values.effectExecutor = MainQueueExecutor.shared
    prepare(&values)
    self.dependencies = values
    self.state = initialState
    self.reducer = reducer()
  }

  // Not an isolated deinit: those run without the task's task-local values, and Swift Testing
  // finds the running test through them. A test store lives in a main-actor test and is released
  // there, which `assumeIsolated` checks.
  deinit {
    MainActor.assumeIsolated { endOfTestChecks() }
  }

  private func endOfTestChecks() {
    guard exhaustivity == .on else {
      runner.cancelAll()
      return
    }
    reportUnhandledReceivedActions(beforeSending: nil)
    for entry in runner.inFlight.values.sorted(by: { $0.origin < $1.origin }) {
      let origin = origins[entry.origin]
      Issue.record(
        Comment(
          rawValue: """
            An effect returned for this action is still running; it must finish before the test \
            ends:
              \(origin?.action ?? "an action")
            Wait for it with `await store.finish()`, receive what it sends, cancel it in the \
            feature, or call `await store.skipInFlightEffects()`.
            """), sourceLocation: origin?.location ?? currentLocation.value)
    }
    runner.cancelAll()
  }

  // MARK: Sending

  /// Sends `action` as the user would and checks the state change.
  /// - Parameter update: turns the state from before the action into the expected state after.
  @discardableResult
  public func send(
    _ action: Action, assert update: ((inout State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async -> TestStoreTask {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    currentLocation.value = location
    if exhaustivity == .on {
      reportUnhandledReceivedActions(beforeSending: location)
    }
    received.removeAll()
    let before = state
    let origin = register(action, at: location)
    let (after, tasks) = process(action, origin: origin, fromEffect: false)
    check(
      before: before, after: after, update: update, what: "sending \(describe(action))",
      at: location)
    await settle()
    return TestStoreTask(tasks: tasks)
  }

  // MARK: Receiving

  /// Expects the next action an effect sent to equal `expected`, and checks its state change.
  public func receive(
    _ expected: Action, timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async where Action: Equatable {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      describing: describe(expected), matching: { $0 == expected }, timeout: timeout,
      update: update,
      at: location,
      mismatch: { actual in
        let diff = ValueTree.diff(expected, actual) ?? ""
        return "Received an action that was not the one expected (− expected, + received):\n\(diff)"
      })
  }

  /// Expects the next action an effect sent to be of `actionCase` (any payload).
  public func receive<Value>(
    _ actionCase: ActionCase<Action, Value>, timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      describing: "an action of the expected case", matching: { actionCase.extract($0) != nil },
      timeout: timeout,
      update: update, at: location,
      mismatch: { actual in
        "Received an action of another case than expected:\n  \(self.describe(actual))"
      })
  }

  /// Expects the next action an effect sent to satisfy `isMatching`.
  public func receive(
    where isMatching: @escaping (Action) -> Bool, timeout: Duration? = nil,
    assert update: ((inout State) throws -> Void)? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      describing: "an action matching the predicate", matching: isMatching, timeout: timeout,
      update: update,
      at: location,
      mismatch: { actual in "Received an action that did not match:\n  \(self.describe(actual))" })
  }

  private func receive(
    describing expectation: String, matching isMatching: @escaping (Action) -> Bool,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?, at location: SourceLocation,
    mismatch: @escaping (Action) -> String
  ) async {
    currentLocation.value = location
    let limit = timeout ?? self.timeout
    let arrived = await waitUntil(limit) {
      self.exhaustivity == .on
        ? !self.received.isEmpty : self.received.contains { isMatching($0.action) }
    }
    guard arrived else {
      let running =
        runner.inFlight.isEmpty
        ? "no effect is running" : "\(runner.inFlight.count) effect(s) still running"
      Issue.record(
        Comment(
          rawValue:
            "Expected to receive \(expectation), but none arrived within \(limit) (\(running))."),
        sourceLocation: location)
      return
    }
    if exhaustivity == .off {
      received.removeFirst(received.firstIndex { isMatching($0.action) }!)
    }
    let next = received.removeFirst()
    guard isMatching(next.action) else {
      Issue.record(Comment(rawValue: mismatch(next.action)), sourceLocation: location)
      return
    }
    check(
      before: next.before, after: next.after, update: update,
      what: "receiving \(describe(next.action))", at: location)
    await settle()
  }

  // MARK: Ending

  /// Waits until every effect has finished; fails if some are still running after `timeout`.
  public func finish(
    timeout: Duration? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let limit = timeout ?? self.timeout
    let finished = await waitUntil(limit) { self.runner.isIdle }
    if !finished {
      let actions = runner.inFlight.values.compactMap { origins[$0.origin]?.action }
      Issue.record(
        Comment(
          rawValue: "Effects are still running after \(limit), started by:\n"
            + actions.map { "  " + $0 }.joined(separator: "\n")),
        sourceLocation: location)
    }
  }

  /// Waits until every effect put in `lane` (`Effect.serial(in:)`) has finished, those queued
  /// meanwhile included; fails if some still run after `timeout`. A test waits for a feature's
  /// writes this way while its observations keep running.
  public func finishEffects<Lane: Hashable & Sendable>(
    in lane: Lane, timeout: Duration? = nil,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let limit = timeout ?? self.timeout
    guard await waitUntil(limit, { self.runner.isLaneIdle(lane) }) else {
      Issue.record(
        Comment(rawValue: "Effects in the lane \(lane) are still running after \(limit)."),
        sourceLocation: location)
      return
    }
    await settle()
  }

  /// Forgets the actions received and not yet asserted (their state changes stay).
  public func skipReceivedActions() async {
    await settle()
    received.removeAll()
  }

  /// Cancels every running effect, so none is reported at the end of the test.
  public func skipInFlightEffects() async {
    runner.cancelAll()
    await settle()
  }

  /// Actions received and not yet asserted.
  public var receivedActions: [Action] { received.map(\.action) }

  // MARK: Internals

  private func register(_ action: Action, at location: SourceLocation) -> Int {
    let id = nextOrigin
    nextOrigin += 1
    origins[id] = Origin(action: describe(action), location: location)
    return id
  }

  /// Reduces an action, records it when it came from an effect, starts its effects, then
  /// reduces (in order) the actions that `.send` effects queued meanwhile, as the store does.
  /// Returns the state right after this action and the tasks it started.
  @discardableResult
  private func process(_ action: Action, origin: Int, fromEffect: Bool) -> (
    after: State, tasks: [Task<Void, Never>]
  ) {
    let before = state
    let effect = DependencyValues.$current.withValue(dependencies) {
      reducer.reduce(into: &state, action: action)
    }
    let after = state
    if fromEffect {
      received.append(Received(action: action, before: before, after: after, origin: origin))
    }
    reducing = true
    let tasks = DependencyValues.$current.withValue(dependencies) {
      runner.start(effect, origin: origin)
    }
    reducing = false
    while !pending.isEmpty {
      let (next, nextOrigin) = pending.removeFirst()
      process(next, origin: nextOrigin, fromEffect: true)
    }
    return (after, tasks)
  }

  /// An action sent by an effect: reduced at once (so chains of effects go on) and remembered
  /// with the state before and after, for `receive` to check.
  private func arrive(_ action: Action) {
    let origin = register(action, at: currentLocation.value)
    if reducing {
      pending.append((action, origin))
    } else {
      process(action, origin: origin, fromEffect: true)
    }
  }

  private func check(
    before: State, after: State, update: ((inout State) throws -> Void)?, what: String,
    at location: SourceLocation
  ) {
    var expected = exhaustivity == .on ? before : after
    do {
      try update?(&expected)
    } catch {
      Issue.record(
        Comment(rawValue: "The assertion closure threw \(error) while \(what)."),
        sourceLocation: location)
      return
    }
    guard expected != after else { return }
    let diff = ValueTree.diff(expected, after) ?? "  (the values differ but print the same)"
    Issue.record(
      Comment(
        rawValue:
          "State after \(what) differs from what was expected (− expected, + actual):\n\(diff)"),
      sourceLocation: location)
  }

  private func reportUnhandledReceivedActions(beforeSending location: SourceLocation?) {
    guard !received.isEmpty else { return }
    let list = received.map { "  " + describe($0.action) }.joined(separator: "\n")
    let reportAt = location ?? origins[received[0].origin]?.location ?? currentLocation.value
    let when = location == nil ? "the end of the test" : "sending another action"
    Issue.record(
      Comment(
        rawValue: "\(received.count) received action(s) were not asserted before \(when):\n\(list)"),
      sourceLocation: reportAt)
  }

  private func waitUntil(_ limit: Duration, _ condition: @MainActor () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var spins = 0
    while !condition() {
      if clock.now >= deadline { return false }
      spins += 1
      if spins < 200 {
        await Task.yield()
      } else {
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
    return true
  }

  /// Lets effects that were just started reach their first suspension.
  private func settle() async {
    for _ in 0..<20 { await Task.yield() }
  }

  func describe(_ action: Any) -> String {
    ValueTree.lines(action).map { $0.trimmingCharacters(in: " ") }.joined(separator: " ")
  }
}

/// The test line that is running, for failures reported from effects and dependencies.
final class LocationBox: Sendable {
  private let location: Locked<SourceLocation>
  init(_ location: SourceLocation) { self.location = Locked(location) }
  var value: SourceLocation {
    get { location.withLock { $0 } }
    set { location.withLock { $0 = newValue } }
  }
}

/// The effects started by one `send`.
public struct TestStoreTask: Sendable {
  let tasks: [Task<Void, Never>]

  /// Cancels the effects (as a view going away would).
  public func cancel() async {
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  /// Waits for the effects to finish.
  public func finish() async {
    for task in tasks { await task.value }
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    var text = Substring(self)
    while text.first == set { text = text.dropFirst() }
    while text.last == set { text = text.dropLast() }
    return String(text)
  }
}
