/// What the server sends back: a status, headers, and a body that is either whole or a stream.
public struct HTTPResponse: Sendable {
  public enum Body: Sendable {
    case bytes([UInt8])
    /// Written as the stream yields it, until it ends or the client goes.
    case stream(any ResponseStream)
  }

  public var status: Int
  public var headers: [(name: String, value: String)]
  public var body: Body

  public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  public init(status: Int, headers: [(name: String, value: String)] = [], text: String) {
    self.init(status: status, headers: headers, body: .bytes(Array(text.utf8)))
  }

  /// The value of the header named `name` (any case), the first if there are several.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The whole body as text (empty for a stream).
  public var text: String {
    if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
    return ""
  }
}

/// A body that is written as it comes, such as server-sent events.
public protocol ResponseStream: AnyObject, Sendable {
  /// The next bytes to send, waiting in the connection's own thread until there are some; nil
  /// ends the response.
  func next() -> [UInt8]?
  /// Ends the stream: a waiting `next` returns nil at once. Called when the server stops.
  func close()
}
