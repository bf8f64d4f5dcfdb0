import Foundation
import HTTPServer
import Testing

/// Requests that are malformed, huge or slow: each gets an error or is dropped, and the server
/// goes on answering everyone else.
@Suite struct HostileRequestTests {
  func server() throws -> HTTPServer {
    try HTTPServer(address: "127.0.0.1", port: 0) { request in
      HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], text: "fine")
    }
  }

  /// A well-formed request still gets its answer.
  func stillAnswers(_ port: UInt16) throws {
    let answer = try RawClient(port: port).send(
      "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    #expect(answer.status == 200)
    #expect(answer.body == "fine")
  }

  @Test(arguments: [
    "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n",
    "GET / HTTP/1.1\r\nNo colon here\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n",
  ])
  func aMalformedRequestIsRefusedAndTheServerGoesOn(request: String) throws {
    let server = try server()
    defer { server.stop() }
    let raw = try RawClient(port: server.port).exchange(Array(request.utf8), readAtMost: 65536)
    let text = String(decoding: raw, as: UTF8.self)
    let status =
      text.hasPrefix("HTTP/")
      ? text.split(separator: " ").dropFirst().first.flatMap { Int($0) } : nil
    // What cannot be read as a request never reaches the handler: an error status, or the
    // connection closed without an answer. (A negative length or a broken chunk may be answered
    // before the body is read, which is not a fault.)
    let unreadable = ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n"]
    if unreadable.contains(request) {
      #expect(status == nil || status! >= 400, "\(text.prefix(80))")
      #expect(!text.contains("fine"))
    }
    try stillAnswers(server.port)
  }

  @Test func aHugeHeaderOrPathIsRefusedAndTheServerGoesOn() throws {
    let server = try server()
    defer { server.stop() }
    let longPath = "GET /" + String(repeating: "a", count: 200_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"
    let longHeader =
      "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 200_000) + "\r\n\r\n"
    for request in [longPath, longHeader] {
      let raw = try RawClient(port: server.port).exchange(Array(request.utf8), readAtMost: 65536)
      let text = String(decoding: raw, as: UTF8.self)
      #expect(!text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(80))")
    }
    try stillAnswers(server.port)
  }

  /// Whether the server has closed `socket` (a read returns the end, or the connection reset).
  func isClosed(_ socket: Int32) -> Bool {
    var byte: UInt8 = 0
    let count = recv(socket, &byte, 1, Int32(MSG_DONTWAIT))
    return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
  }

  /// The deadlines and how long clients trickle: seconds in `make test`; under `make stress`,
  /// the server's own deadlines (30 s for a head, 60 s for a body) and minutes of trickling.
  static let stress = ProcessInfo.processInfo.environment["DOCKET_STRESS"] != nil
  static let (headSeconds, bodySeconds, trickleSeconds) = stress ? (30, 60, 150.0) : (2, 4, 10.0)

  /// Clients that send a byte every fraction of a second, never finishing a head or a body
  /// (slowloris), are cut at the deadline though they never fall silent; a slow answer is not.
  @Test func tricklingClientsAreCutAtTheDeadlineAndOthersAreAnswered() throws {
    let server = try HTTPServer(
      address: "127.0.0.1", port: 0, headSeconds: Self.headSeconds, bodySeconds: Self.bodySeconds
    ) {
      request in
      if request.path == "/slow" { Thread.sleep(forTimeInterval: Double(Self.bodySeconds) + 1) }
      return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")], text: "fine")
    }
    defer { server.stop() }
    let client = RawClient(port: server.port)
    var heads: [Int32] = []
    var bodies: [Int32] = []
    defer { for socket in heads + bodies { close(socket) } }
    for _ in 0..<20 {
      heads.append(try client.connected())
      let body = try client.connected()
      let start =
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\na="
      _ = start.withCString { write(body, $0, strlen($0)) }
      bodies.append(body)
    }
    let slowAnswer = try client.connected()
    defer { close(slowAnswer) }
    _ = "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".withCString { write(slowAnswer, $0, strlen($0)) }

    let connected = Date()

    // A byte every 0.3 s on every connection; others are answered throughout (slowly, under a
    // sanitizer, but answered).
    var headsCut: TimeInterval?
    var bodiesCut: TimeInterval?
    while Date().timeIntervalSince(connected) < Self.trickleSeconds {
      for socket in heads { _ = "X".withCString { send(socket, $0, 1, Int32(MSG_NOSIGNAL)) } }
      for socket in bodies { _ = "b".withCString { send(socket, $0, 1, Int32(MSG_NOSIGNAL)) } }
      if headsCut == nil, heads.allSatisfy(isClosed) {
        headsCut = Date().timeIntervalSince(connected)
      }
      if bodiesCut == nil, bodies.allSatisfy(isClosed) {
        bodiesCut = Date().timeIntervalSince(connected)
      }
      if headsCut != nil, bodiesCut != nil { break }
      let asked = Date()
      try stillAnswers(server.port)
      #expect(Date().timeIntervalSince(asked) < 3)
      Thread.sleep(forTimeInterval: 0.3)
    }
    // Each kind is cut at its own deadline, counted from when it connected (all connected by
    // `connected`), and not long after.
    let headsAt = try #require(headsCut, "heads still trickling after \(Self.trickleSeconds) s")
    let bodiesAt = try #require(bodiesCut, "bodies still trickling after \(Self.trickleSeconds) s")
    #expect(headsAt >= Double(Self.headSeconds) - 0.5, "heads cut early: \(headsAt) s")
    #expect(headsAt < Double(Self.bodySeconds) - 0.5, "heads cut late: \(headsAt) s")
    #expect(bodiesAt >= Double(Self.bodySeconds) - 0.5, "bodies cut early: \(bodiesAt) s")
    #expect(server.cutConnections >= 40)
    // The answer that took longer to make than both deadlines arrived whole.
    var answer = [UInt8](repeating: 0, count: 4096)
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(
      slowAnswer, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let count = read(slowAnswer, &answer, answer.count)
    #expect(
      count > 0
        && String(decoding: answer[0..<max(count, 0)], as: UTF8.self).hasPrefix("HTTP/1.1 200"))
  }

  @Test func slowClientsHoldingConnectionsDoNotStopOthers() throws {
    let server = try server()
    defer { server.stop() }
    let client = RawClient(port: server.port)
    // Fifty connections that send half a request and then nothing.
    var slow: [Int32] = []
    defer { for socket in slow { close(socket) } }
    for _ in 0..<50 {
      let socket = try client.connected()
      let half = "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "
      _ = half.withCString { write(socket, $0, strlen($0)) }
      slow.append(socket)
    }
    let start = Date()
    try stillAnswers(server.port)
    #expect(Date().timeIntervalSince(start) < 2)
  }
}
