import CMicroHTTPD
import Foundation

/// An HTTP/1.1 server on libmicrohttpd: a thread per connection calls `handler` with each
/// request and sends what it returns. libmicrohttpd reads the requests (keep-alive, chunked
/// bodies, TLS); forms posted as `application/x-www-form-urlencoded` or `multipart/form-data`
/// reach the handler as fields.
public final class HTTPServer: Sendable {
  public enum StartError: Error, Equatable, CustomStringConvertible {
    /// The address is not this machine's, the port is taken, or the certificate and key do not
    /// fit.
    case cannotListen(address: String, port: UInt16)
    /// libmicrohttpd is not installed: why, in its loader's words.
    case libraryMissing(String)

    public var description: String {
      switch self {
      case .cannotListen(let address, let port):
        return "cannot listen on \(address) port \(port)"
      case .libraryMissing(let reason):
        return reason
      }
    }
  }

  public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

  /// What a request body may hold at most; a larger one is refused.
  public static let bodyLimit = 1 << 20

  /// The port the server listens on.
  public let port: UInt16
  public let address: String
  public let usesTLS: Bool
  private let daemon: Daemon
  private let context: ServerContext

  /// Starts listening on `address` (IPv4 or IPv6 text) and `port` (0: a free one), with TLS when
  /// `certificate` and `key` (PEM text) are given. A client must send a request's head within
  /// `headSeconds` of connecting (or of the last answer on the connection) and its body within
  /// `bodySeconds` of the head, or the connection is cut: bytes that trickle in one every few
  /// seconds (slowloris) hold no connection longer than that.
  public init(
    address: String, port: UInt16, certificate: String? = nil, key: String? = nil,
    connectionLimit: Int = 1000, headSeconds: Int = 30, bodySeconds: Int = 60,
    handler: @escaping Handler
  ) throws(StartError) {
    if let problem = docket_mhd_load() { throw .libraryMissing(String(cString: problem)) }
    let context = ServerContext(handler: handler)
    let unmanaged = Unmanaged.passUnretained(context).toOpaque()
    let started = docket_http_start(
      address, port, certificate, key, UInt32(clamping: connectionLimit), 120,
      UInt32(clamping: headSeconds), UInt32(clamping: bodySeconds), 512 * 1024,
      { cls, connection, url, method, _, data, size, state in
        HTTPServer.access(cls, connection, url, method, data, size, state)
      }, unmanaged,
      { _, _, state, _ in
        guard let pointer = state?.pointee else { return }
        Unmanaged<RequestContext>.fromOpaque(pointer).release()
        state?.pointee = nil
      }, nil)
    guard let started else { throw .cannotListen(address: address, port: port) }
    self.daemon = Daemon(pointer: started)
    self.context = context
    self.address = address
    self.usesTLS = certificate != nil && key != nil
    self.port = docket_http_port(started)
  }

  /// Ends every open stream, then stops listening and waits for the connections' threads.
  public func stop() {
    guard daemon.markStopped() else { return }
    context.closeStreams()
    docket_http_stop(daemon.pointer)
  }

  /// How many connections were cut for waiting past a deadline.
  public var cutConnections: Int {
    daemon.whileRunning { Int(docket_http_cuts($0)) } ?? 0
  }

  deinit { stop() }

  // MARK: libmicrohttpd's callbacks

  /// Called for each request several times: first with no state (the headers have arrived),
  /// then with each piece of the body, then once with nothing more: the moment to answer.
  private static func access(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
    _ data: UnsafePointer<CChar>?, _ size: UnsafeMutablePointer<Int>?,
    _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) -> MHD_Result {
    guard let cls, let connection, let url, let method, let size, let state else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let existing = state.pointee else {
      let request = RequestContext()
      let methodText = String(cString: method)
      if methodText != "GET" && methodText != "HEAD" {
        request.processor = docket_MHD_create_post_processor(
          connection, 16 * 1024,
          { cls, _, key, _, _, _, data, offset, size in
            guard let cls, let key else { return .NO }
            let request = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
            request.receive(field: String(cString: key), offset: offset, data: data, size: size)
            return .YES
          }, Unmanaged.passUnretained(request).toOpaque())
      }
      state.pointee = Unmanaged.passRetained(request).toOpaque()
      return .YES
    }
    let request = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
    if size.pointee > 0 {
      request.bodySize += size.pointee
      if request.bodySize > bodyLimit || request.processor == nil {
        // Nothing of a body that is refused reaches the handler.
        request.refused = true
        request.fields = []
      } else if !request.refused, let processor = request.processor, let data {
        if docket_MHD_post_process(processor, data, size.pointee) != .YES {
          request.refused = true
          request.fields = []
        }
      }
      size.pointee = 0
      return .YES
    }
    if let processor = request.processor {
      docket_MHD_destroy_post_processor(processor)
      request.processor = nil
    }
    let parsed = HTTPRequest(
      method: String(cString: method), path: String(cString: url),
      query: values(connection, .GET_ARGUMENT_KIND),
      headers: Dictionary(
        values(connection, .HEADER_KIND).map { ($0.name.lowercased(), $0.value) },
        uniquingKeysWith: { first, _ in first }),
      cookies: Dictionary(
        values(connection, .COOKIE_KIND).map { ($0.name, $0.value) },
        uniquingKeysWith: { first, _ in first }),
      form: request.fields.map { ($0.name, String(decoding: $0.value, as: UTF8.self)) },
      bodyRefused: request.refused, fromLoopback: docket_http_from_loopback(connection) != 0)
    let response = server.handler(parsed)
    return send(response, to: connection, server: server)
  }

  private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(
    name: String, value: String
  )] {
    let box = ValuesBox()
    _ = docket_MHD_get_connection_values(
      connection, kind,
      { cls, _, key, value in
        guard let cls, let key else { return .YES }
        Unmanaged<ValuesBox>.fromOpaque(cls).takeUnretainedValue().values.append(
          (String(cString: key), value.map { String(cString: $0) } ?? ""))
        return .YES
      }, Unmanaged.passUnretained(box).toOpaque())
    return box.values
  }

  private static func send(
    _ response: HTTPResponse, to connection: OpaquePointer, server: ServerContext
  ) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
      made = bytes.withUnsafeBytes { buffer in
        docket_MHD_create_response_from_buffer(
          buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
          .RESPMEM_MUST_COPY)
      }
    case .stream(let stream):
      let reader = StreamReader(stream: stream)
      server.track(stream)
      // libmicrohttpd calls the free callback (which releases the reader and closes the stream)
      // only for a response it made.
      let retained = Unmanaged.passRetained(reader)
      made = docket_MHD_create_response_from_callback(
        docket_http_size_unknown, 4096,
        { cls, _, buffer, max in
          guard let cls, let buffer else { return docket_http_end_with_error }
          return Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue().read(
            into: buffer, max: max)
        }, retained.toOpaque(),
        { cls in
          guard let cls else { return }
          let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeRetainedValue()
          reader.stream.close()
        })
      if made == nil {
        retained.release()
        stream.close()
      }
    }
    guard let made else { return .NO }
    defer { docket_MHD_destroy_response(made) }
    for header in response.headers {
      // A header libmicrohttpd refuses (a line end in it) ends the connection rather than
      // sending an answer without it.
      guard docket_MHD_add_response_header(made, header.name, header.value) == .YES else {
        return .NO
      }
    }
    return docket_MHD_queue_response(connection, UInt32(response.status), made)
  }
}

/// The daemon pointer, stopped once.
private final class Daemon: @unchecked Sendable {
  // The pointer is only passed to libmicrohttpd, which is thread-safe; `stopped` is guarded.
  let pointer: OpaquePointer
  private let stopped = NSLock()
  private var isStopped = false

  init(pointer: OpaquePointer) { self.pointer = pointer }

  /// True the first time only.
  func markStopped() -> Bool {
    stopped.lock()
    defer { stopped.unlock() }
    if isStopped { return false }
    isStopped = true
    return true
  }

  /// `body` with the pointer, unless the server has stopped (it cannot stop meanwhile).
  func whileRunning<Value>(_ body: (OpaquePointer) -> Value) -> Value? {
    stopped.lock()
    defer { stopped.unlock() }
    return isStopped ? nil : body(pointer)
  }
}

/// The handler and the streams open now (to end them when the server stops).
private final class ServerContext: @unchecked Sendable {
  // `streams` is only touched under `lock`; `handler` never changes.
  let handler: HTTPServer.Handler
  private let lock = NSLock()
  private var streams: [ObjectIdentifier: WeakStream] = [:]
  private var stopping = false

  init(handler: @escaping HTTPServer.Handler) { self.handler = handler }

  /// Keeps `stream` to end it when the server stops; one that starts after that ends at once.
  func track(_ stream: any ResponseStream) {
    lock.lock()
    if stopping {
      lock.unlock()
      stream.close()
      return
    }
    defer { lock.unlock() }
    streams = streams.filter { $0.value.stream != nil }
    streams[ObjectIdentifier(stream)] = WeakStream(stream: stream)
  }

  func closeStreams() {
    lock.lock()
    stopping = true
    let open = streams.values.compactMap(\.stream)
    streams = [:]
    lock.unlock()
    for stream in open { stream.close() }
  }
}

private struct WeakStream {
  weak var stream: (any ResponseStream)?
}

/// One request's state between libmicrohttpd's calls: the form fields read so far.
private final class RequestContext: @unchecked Sendable {
  // Used by the one thread that serves the connection.
  var processor: OpaquePointer?
  var fields: [(name: String, value: [UInt8])] = []
  var bodySize = 0
  var refused = false

  deinit {
    // A request cut off before its end still has its form reader.
    if let processor { _ = docket_MHD_destroy_post_processor(processor) }
  }

  /// A piece of a field's value; a value may come in several pieces (offset > 0).
  func receive(field: String, offset: UInt64, data: UnsafePointer<CChar>?, size: Int) {
    let bytes =
      data.map { pointer in
        pointer.withMemoryRebound(to: UInt8.self, capacity: size) {
          Array(UnsafeBufferPointer(start: $0, count: size))
        }
      } ?? []
    if offset > 0, let last = fields.last, last.name == field {
      fields[fields.count - 1].value += bytes
    } else {
      fields.append((field, bytes))
    }
  }
}

private final class ValuesBox {
  var values: [(name: String, value: String)] = []
}

/// Copies a stream's bytes into libmicrohttpd's buffer, a piece at a time.
private final class StreamReader: @unchecked Sendable {
  // Used by the one thread that serves the connection.
  let stream: any ResponseStream
  private var pending: [UInt8] = []
  private var sent = 0

  init(stream: any ResponseStream) { self.stream = stream }

  func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
    if sent == pending.count {
      guard let next = stream.next() else { return docket_http_end_of_stream }
      pending = next
      sent = 0
      if pending.isEmpty { return 0 }
    }
    let count = min(max, pending.count - sent)
    pending.withUnsafeBytes { source in
      UnsafeMutableRawPointer(buffer).copyMemory(
        from: source.baseAddress! + sent, byteCount: count)
    }
    sent += count
    return count
  }
}
