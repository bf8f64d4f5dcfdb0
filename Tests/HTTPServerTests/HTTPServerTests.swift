import Foundation
import HTTPServer
import Locking
import Testing

@Suite struct HTTPServerTests {
  /// A server that answers with what it was asked, as text.
  func echoServer(address: String = "127.0.0.1") throws -> HTTPServer {
    try HTTPServer(address: address, port: 0) { request in
      var lines = ["\(request.method) \(request.path)"]
      lines += request.query.map { "query \($0.name)=\($0.value)" }
      lines += request.form.map { "form \($0.name)=\($0.value)" }
      lines += request.cookies.sorted { $0.key < $1.key }.map { "cookie \($0.key)=\($0.value)" }
      if let host = request.header("HOST") { lines.append("host \(host)") }
      if request.bodyRefused { lines.append("refused") }
      return HTTPResponse(
        status: 200, headers: [("Content-Type", "text/plain"), ("X-Echo", "yes")],
        text: lines.joined(separator: "\n"))
    }
  }

  @Test func aGetReachesTheHandlerWithItsQueryHeadersAndCookies() throws {
    let server = try echoServer()
    defer { server.stop() }
    #expect(server.port != 0)
    let answer = try RawClient(port: server.port).send(
      "GET /issues?q=a%20b&tag=x&tag=y HTTP/1.1\r\nHost: localhost:\(server.port)\r\n"
        + "Cookie: session=abc; lang=de\r\nConnection: close\r\n\r\n")
    #expect(answer.status == 200)
    #expect(answer.headers["x-echo"] == "yes")
    #expect(
      answer.body
        == """
        GET /issues
        query q=a b
        query tag=x
        query tag=y
        cookie lang=de
        cookie session=abc
        host localhost:\(server.port)
        """)
  }

  @Test func aPostedFormArrivesAsFieldsInOrderWithRepeatsAndEmptyValues() throws {
    let server = try echoServer()
    defer { server.stop() }
    let body = "title=%3Cb%3E+%26+%C3%BC&tag=A&tag=B&empty="
    let answer = try RawClient(port: server.port).send(
      "POST /issues HTTP/1.1\r\nHost: localhost\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    #expect(answer.status == 200)
    #expect(
      answer.body
        == "POST /issues\nform title=<b> & ü\nform tag=A\nform tag=B\nform empty=\nhost localhost")
  }

  @Test func aBodyThatIsNotAFormOrTooLargeIsMarkedRefused() throws {
    let server = try echoServer()
    defer { server.stop() }
    let json = "{\"title\":\"x\"}"
    let answer = try RawClient(port: server.port).send(
      "POST /issues HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n" + json)
    #expect(answer.body.hasSuffix("refused"))
    let large = "title=" + String(repeating: "a", count: HTTPServer.bodyLimit + 10)
    let big = try RawClient(port: server.port).send(
      "POST /issues HTTP/1.1\r\nHost: localhost\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\n"
        + "Content-Length: \(large.utf8.count)\r\nConnection: close\r\n\r\n" + large)
    #expect(big.body.hasSuffix("refused"))
    #expect(!big.body.contains("form title"))
  }

  @Test func aStreamSendsAsItComesAndEndsWhenTheServerStops() throws {
    let stream = TestStream()
    let server = try HTTPServer(address: "127.0.0.1", port: 0) { _ in
      HTTPResponse(
        status: 200, headers: [("Content-Type", "text/event-stream")], body: .stream(stream))
    }
    let port = server.port
    let received = Locked<[UInt8]>([])
    let reader = Thread {
      let bytes = try? RawClient(port: port).exchange(
        Array("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), readAtMost: 1 << 16)
      received.withLock { $0 = bytes ?? [] }
    }
    reader.start()
    stream.push("data: one\n\n")
    stream.push("data: two\n\n")
    // Wait (bounded) until both reached the stream's reader, then stop the server: the open
    // stream must end, or stop() would wait for ever.
    for _ in 0..<200 where !stream.drained { usleep(10_000) }
    server.stop()
    for _ in 0..<500 where received.withLock({ $0.isEmpty }) { usleep(10_000) }
    let text = String(decoding: received.withLock { $0 }, as: UTF8.self)
    #expect(text.contains("text/event-stream"))
    #expect(text.contains("data: one\n\n"))
    #expect(text.contains("data: two\n\n"))
    #expect(stream.isClosed)
  }

  /// This machine's first IPv4 address that is not a loopback one.
  static func networkAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var entry = list
    while let current = entry {
      defer { entry = current.pointee.ifa_next }
      guard let address = current.pointee.ifa_addr, address.pointee.sa_family == AF_INET else {
        continue
      }
      var v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      inet_ntop(AF_INET, &v4.sin_addr, &text, socklen_t(text.count))
      let name = String(
        decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !name.hasPrefix("127.") { return name }
    }
    return nil
  }

  @Test func theHandlerKnowsWhetherTheClientIsOnThisMachine() throws {
    let server = try HTTPServer(address: "0.0.0.0", port: 0) { request in
      HTTPResponse(status: 200, text: request.fromLoopback ? "loopback" : "network")
    }
    defer { server.stop() }
    let request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    #expect(try RawClient(port: server.port).send(request).body == "loopback")
    // From this machine's network address the client is not on a loopback address.
    let address = try #require(Self.networkAddress(), "a network address of this machine")
    #expect(try RawClient(port: server.port, host: address).send(request).body == "network")
  }

  @Test func anAddressThatIsNotThisMachinesIsRefused() {
    #expect(throws: HTTPServer.StartError.self) {
      _ = try HTTPServer(address: "not an address", port: 0) { _ in HTTPResponse(status: 200) }
    }
    #expect(throws: HTTPServer.StartError.self) {
      _ = try HTTPServer(address: "192.0.2.1", port: 0) { _ in HTTPResponse(status: 200) }
    }
  }

  @Test func aTakenPortIsRefused() throws {
    let first = try echoServer()
    defer { first.stop() }
    #expect(throws: HTTPServer.StartError.self) {
      _ = try HTTPServer(address: "127.0.0.1", port: first.port) { _ in HTTPResponse(status: 200) }
    }
  }
}

/// A stream fed by the test; `next` waits for what is pushed.
final class TestStream: ResponseStream, @unchecked Sendable {
  // Every field is read and written under `condition`.
  private let condition = NSCondition()
  private var queue: [[UInt8]] = []
  private var closed = false
  private var taken = 0
  private var pushed = 0

  func push(_ text: String) {
    condition.lock()
    queue.append(Array(text.utf8))
    pushed += 1
    condition.broadcast()
    condition.unlock()
  }

  var drained: Bool {
    condition.lock()
    defer { condition.unlock() }
    return taken == pushed
  }

  var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return closed
  }

  func next() -> [UInt8]? {
    condition.lock()
    defer { condition.unlock() }
    while queue.isEmpty && !closed { condition.wait() }
    if queue.isEmpty { return nil }
    taken += 1
    return queue.removeFirst()
  }

  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
