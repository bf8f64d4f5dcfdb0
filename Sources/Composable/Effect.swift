/// Work that a reducer asks for, described as a value; a store runs it.
///
/// Debouncing is done with the clock dependency and `cancelInFlight`: each keystroke returns an
/// effect that sleeps, then sends, marked cancellable with the same id and `cancelInFlight: true`,
/// so every keystroke cancels the sleep of the one before and only the last one sends:
///
/// ```swift
/// case .queryChanged:
///   return .run { send in
///     try await clock.sleep(for: .milliseconds(300))
///     await send(.search)
///   }
///   .cancellable(id: CancelID.search, cancelInFlight: true)
/// ```
public struct Effect<Action> {
  indirect enum Operation {
    case none
    case send(Action)
    case run(Run)
    case merge([Effect])
    case concatenate([Effect])
    case cancellable(id: CancelID, cancelInFlight: Bool, Effect)
    case cancel(id: CancelID)
    case serial(lane: CancelID, Effect)
  }

  /// Asynchronous work with the dependencies it was created with.
  struct Run {
    let priority: TaskPriority?
    let dependencies: DependencyValues
    let operation: @Sendable (Send<Action>) async -> Void
  }

  let operation: Operation

  init(_ operation: Operation) {
    self.operation = operation
  }

  /// No work.
  public static var none: Effect { Effect(.none) }

  /// Sends an action right after the current one has been reduced.
  public static func send(_ action: Action) -> Effect { Effect(.send(action)) }

  /// Runs async work that may send any number of actions. An error other than cancellation is
  /// handed to `catch` (which may send an action about it); cancellation ends the work quietly.
  /// The work sees the dependencies that were in force when the effect was created.
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil
  ) -> Effect {
    let dependencies = DependencyValues.current
    return Effect(
      .run(
        Run(priority: priority, dependencies: dependencies) { send in
          do {
            try await operation(send)
          } catch is CancellationError {
          } catch {
            if let handler {
              await handler(error, send)
            } else {
              dependencies.reportIssue("An effect threw \(error) and has no catch handler.")
            }
          }
        }))
  }

  /// Runs effects at the same time.
  public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

  public static func merge(_ effects: [Effect]) -> Effect {
    let work = effects.filter { if case .none = $0.operation { false } else { true } }
    switch work.count {
    case 0: return .none
    case 1: return work[0]
    default: return Effect(.merge(work))
    }
  }

  /// Runs effects one after another, each starting when the one before has finished.
  public static func concatenate(_ effects: Effect...) -> Effect { concatenate(effects) }

  public static func concatenate(_ effects: [Effect]) -> Effect {
    let work = effects.filter { if case .none = $0.operation { false } else { true } }
    switch work.count {
    case 0: return .none
    case 1: return work[0]
    default: return Effect(.concatenate(work))
    }
  }

  /// Marks this effect so `cancel(id:)` can stop it; with `cancelInFlight`, starting it first
  /// cancels the running effects of the same id.
  public func cancellable<ID: Hashable & Sendable>(id: ID, cancelInFlight: Bool = false) -> Effect {
    if case .none = operation, !cancelInFlight { return self }
    return Effect(.cancellable(id: CancelID(id), cancelInFlight: cancelInFlight, self))
  }

  /// Runs this effect once every effect put in the same `lane` before it has finished, so that
  /// work which must not overtake itself (writes to a database) happens in the order the actions
  /// were sent, whichever task the system happens to start first. A store can wait for a lane
  /// to drain (`Store.waitForEffects(in:)`), as a program does before it quits.
  public func serial<Lane: Hashable & Sendable>(in lane: Lane) -> Effect {
    if case .none = operation { return self }
    return Effect(.serial(lane: CancelID(lane), self))
  }

  /// Cancels every running effect marked with `id`.
  public static func cancel<ID: Hashable & Sendable>(id: ID) -> Effect {
    Effect(.cancel(id: CancelID(id)))
  }

  /// The same work, sending actions of another type (a child's effects in a parent).
  public func map<Other>(_ transform: @escaping @Sendable (Action) -> Other) -> Effect<Other> {
    switch operation {
    case .none: return .none
    case .send(let action): return .send(transform(action))
    case .run(let run):
      let operation = run.operation
      return Effect<Other>(
        .run(
          Effect<Other>.Run(priority: run.priority, dependencies: run.dependencies) { send in
            await operation(Send { action in send(transform(action)) })
          }))
    case .merge(let effects): return .merge(effects.map { $0.map(transform) })
    case .concatenate(let effects): return .concatenate(effects.map { $0.map(transform) })
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<Other>(
        .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform)))
    case .cancel(let id): return Effect<Other>(.cancel(id: id))
    case .serial(let lane, let effect):
      return Effect<Other>(.serial(lane: lane, effect.map(transform)))
    }
  }
}

extension Effect: Sendable where Action: Sendable {}
extension Effect.Operation: Sendable where Action: Sendable {}
extension Effect.Run: Sendable where Action: Sendable {}

/// A cancellation id of any hashable, sendable type.
struct CancelID: Hashable, Sendable {
  let base: any Hashable & Sendable
  private let equals: @Sendable (any Hashable & Sendable) -> Bool
  private let hashInto: @Sendable (inout Hasher) -> Void

  init<ID: Hashable & Sendable>(_ id: ID) {
    base = id
    equals = { other in (other as? ID) == id }
    hashInto = { hasher in
      hasher.combine(ObjectIdentifier(ID.self))
      hasher.combine(id)
    }
  }

  static func == (lhs: CancelID, rhs: CancelID) -> Bool { lhs.equals(rhs.base) }
  func hash(into hasher: inout Hasher) { hashInto(&hasher) }
}

/// How an effect sends actions back to its store. Sending after the effect was cancelled does
/// nothing.
public struct Send<Action>: Sendable {
  let deliver: @Sendable @MainActor (Action) -> Void

  public init(_ deliver: @escaping @Sendable @MainActor (Action) -> Void) {
    self.deliver = deliver
  }

  @MainActor
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }
}
