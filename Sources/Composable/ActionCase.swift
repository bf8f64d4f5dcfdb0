/// One case of an enum with a payload, as a pair of functions: put a value in, get it out.
///
/// Parents use it to say which of their actions carries a child's actions:
///
/// ```swift
/// enum Action {
///   case counter(Counter.Action)
///   static let counterCase = ActionCase(embed: Action.counter) {
///     if case .counter(let action) = $0 { action } else { nil }
///   }
/// }
/// ```
public struct ActionCase<Root, Value>: Sendable {
  public let embed: @Sendable (Value) -> Root
  public let extract: @Sendable (Root) -> Value?

  public init(
    embed: @escaping @Sendable (Value) -> Root, extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }
}
