/// The language texts are shown in, as a code (`en`, `de`).
public struct LanguageCode: Sendable, Hashable, ExpressibleByStringLiteral {
  public var code: String
  public init(_ code: String) { self.code = code }
  public init(stringLiteral value: String) { self.code = value }
}

private enum LocaleKey: DependencyKey {
  static let liveValue = LanguageCode("en")
  static let testValue = LanguageCode("en")
  static let name = "locale"
}

extension DependencyValues {
  /// The language of the run; the app sets it from `--lang` and the environment at start.
  public var locale: LanguageCode {
    get { self[LocaleKey.self] }
    set { self[LocaleKey.self] = newValue }
  }
}
