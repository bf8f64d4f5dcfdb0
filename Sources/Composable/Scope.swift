/// Runs a child reducer on a part of the parent's state, for the parent actions that carry the
/// child's actions; the child's effects send parent actions.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  let state: WritableKeyPath<ParentState, Child.State>
  let action: ActionCase<ParentAction, Child.Action>
  let child: Child

  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState>, action: ActionCase<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.state = state
    self.action = action
    self.child = child()
  }

  public func reduce(into parent: inout ParentState, action parentAction: ParentAction) -> Effect<
    ParentAction
  > {
    guard let childAction = action.extract(parentAction) else { return .none }
    return child.reduce(into: &parent[keyPath: state], action: childAction).map(action.embed)
  }
}

extension Reducer {
  /// Adds an optional child: the child runs, before this reducer, for its actions while its
  /// state exists. When this reducer sets the child's state to nil, the child's effects are
  /// cancelled. An action for an absent child is ignored.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ state: WritableKeyPath<State, ChildState?>, action: ActionCase<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(parent: self, state: state, action: action, child: child())
  }
}

public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let state: WritableKeyPath<Parent.State, Child.State?>
  let action: ActionCase<Parent.Action, Child.Action>
  let child: Child

  /// Identifies the effects of this child: the child's type and where its state lives.
  struct ChildEffects: Hashable, Sendable {
    let child: ObjectIdentifier
    let path: Int
  }

  public func reduce(into parentState: inout Parent.State, action parentAction: Parent.Action)
    -> Effect<Parent.Action>
  {
    let id = ChildEffects(child: ObjectIdentifier(Child.self), path: state.hashValue)
    var childEffect = Effect<Parent.Action>.none
    if let childAction = action.extract(parentAction), parentState[keyPath: state] != nil {
      childEffect = child.reduce(into: &parentState[keyPath: state]!, action: childAction)
        .map(action.embed)
        .cancellable(id: id)
    }
    let hadChild = parentState[keyPath: state] != nil
    let parentEffect = parent.reduce(into: &parentState, action: parentAction)
    if hadChild, parentState[keyPath: state] == nil {
      return .merge(childEffect, parentEffect, .cancel(id: id))
    }
    return .merge(childEffect, parentEffect)
  }
}
