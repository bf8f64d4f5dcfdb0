/// One request as the server read it: the method, the path, the query, the headers, the cookies
/// and, for a form that was posted, its fields. Names of headers are lower case.
public struct HTTPRequest: Sendable, Equatable {
  public var method: String
  public var path: String
  public var query: [(name: String, value: String)]
  public var headers: [String: String]
  public var cookies: [String: String]
  public var form: [(name: String, value: String)]
  /// True when the body was not a form this server reads (another type, or too large).
  public var bodyRefused: Bool
  /// True when the client is on this machine (a loopback address): a reverse proxy there may
  /// say how the browser reached it.
  public var fromLoopback: Bool

  public init(
    method: String, path: String, query: [(name: String, value: String)] = [],
    headers: [String: String] = [:], cookies: [String: String] = [:],
    form: [(name: String, value: String)] = [], bodyRefused: Bool = false,
    fromLoopback: Bool = false
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.cookies = cookies
    self.form = form
    self.bodyRefused = bodyRefused
    self.fromLoopback = fromLoopback
  }

  /// The header named `name` (any case).
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// The first value of the query parameter `name`.
  public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

  /// The first value of the form field `name`.
  public func formValue(_ name: String) -> String? { form.first { $0.name == name }?.value }

  /// Every value of the form field `name`, in order.
  public func formValues(_ name: String) -> [String] {
    form.filter { $0.name == name }.map(\.value)
  }

  public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
    lhs.method == rhs.method && lhs.path == rhs.path
      && lhs.query.map { [$0.name, $0.value] } == rhs.query.map { [$0.name, $0.value] }
      && lhs.headers == rhs.headers && lhs.cookies == rhs.cookies
      && lhs.form.map { [$0.name, $0.value] } == rhs.form.map { [$0.name, $0.value] }
      && lhs.bodyRefused == rhs.bodyRefused && lhs.fromLoopback == rhs.fromLoopback
  }
}
