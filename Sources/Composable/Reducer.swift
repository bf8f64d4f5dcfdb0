/// A feature's logic: how an action changes its state, and what work follows.
///
/// Write `reduce(into:action:)` for a feature of its own, or `body` to compose child features
/// with `Scope`, `ifLet` and `Reduce`; each supplies the other.
public protocol Reducer<State, Action> {
  associatedtype State
  associatedtype Action
  associatedtype Body = Never

  /// Changes `state` for `action` and returns the effects to run next. Must be pure: anything
  /// outside (time, ids, the database) is reached through dependencies, inside effects.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this one is made of, run in order.
  @ReducerBuilder<State, Action>
  var body: Body { get }
}

extension Reducer where Body == Never {
  /// A reducer that implements `reduce` has no body.
  public var body: Never {
    fatalError("\(Self.self) implements reduce(into:action:) and has no body")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

/// A reducer from a closure: the usual way to write the logic of a feature's own actions.
public struct Reduce<State, Action>: Reducer {
  let reduce: (inout State, Action) -> Effect<Action>

  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.reduce = reducer.reduce(into:action:)
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// Runs reducers one after the other on the same state; their effects run together.
public struct CombineReducers<State, Action, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
  let reducers: Reducers

  public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
    self.reducers = build()
  }

  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }
}

/// Two reducers in sequence, built by `ReducerBuilder`.
public struct ReducerSequence<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  let first: First
  let second: Second

  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    let secondEffect = second.reduce(into: &state, action: action)
    return .merge(firstEffect, secondEffect)
  }
}

/// A reducer that does nothing: what an empty `body` or a missing branch builds.
public struct EmptyReducer<State, Action>: Reducer {
  public init() {}
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// One of two reducers, chosen by an `if`/`else` in a builder.
public enum ReducerChoice<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  case first(First)
  case second(Second)

  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case .first(let reducer): return reducer.reduce(into: &state, action: action)
    case .second(let reducer): return reducer.reduce(into: &state, action: action)
    }
  }
}

@resultBuilder
public enum ReducerBuilder<State, Action> {
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action {
    reducer
  }

  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  public static func buildPartialBlock<R: Reducer>(first: R) -> R
  where R.State == State, R.Action == Action {
    first
  }

  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(accumulated: R0, next: R1)
    -> ReducerSequence<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    ReducerSequence(first: accumulated, second: next)
  }

  public static func buildOptional<R: Reducer>(_ reducer: R?) -> ReducerChoice<
    R, EmptyReducer<State, Action>
  >
  where R.State == State, R.Action == Action {
    reducer.map { .first($0) } ?? .second(EmptyReducer())
  }

  public static func buildEither<R0: Reducer, R1: Reducer>(first: R0) -> ReducerChoice<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    .first(first)
  }

  public static func buildEither<R0: Reducer, R1: Reducer>(second: R1) -> ReducerChoice<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    .second(second)
  }
}
