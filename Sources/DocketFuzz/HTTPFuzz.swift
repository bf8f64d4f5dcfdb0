import Database
import DocketCore
import DocketWeb
import Foundation
import HTTPServer

/// Raw bytes sent to `docket serve` over a loopback socket: one server for the whole run, on a
/// database file with a few issues, with fixed secrets (`fuzz-token`, `fuzz-csrf`, a browser
/// paired under cookie `docket_fuzz`) that the corpus holds, so the fuzzer reaches past the door. Every answer must be
/// HTTP and never 500 (an error of Docket's own; libmicrohttpd answers 505 to an unknown
/// version, rightly), the connection must end once the input has, and the server must
/// go on answering a plain request.
enum HTTPFuzz {
  static let token = "fuzz-token"
  static let cookie = "docket_fuzz"
  static let browser = BrowserCredential(
    id: UUID(uuidString: "0000f000-0000-4000-8000-0000000000f1")!,
    secret: String(repeating: "f0", count: 32))

  struct Running: @unchecked Sendable {
    let server: HTTPServer
    let app: WebApp
  }

  static let running: Running = {
    signal(SIGPIPE, SIG_IGN)
    let folder = NSTemporaryDirectory() + "docket-fuzz-http-\(getpid())"
    let path = folder + "/docket.sqlite"
    do {
      let queue = try DocketDatabase.open(path: path)
      try queue.write { db in
        for index in 0..<5 {
          _ = try db.createIssue(
            id: UUID(uuidString: "00000000-0000-4000-8000-00000000000\(index)")!,
            title: "Issue \(index) <b>bold</b>", detail: "Detail \(index)",
            completed: index == 3, tagNames: ["bug", "UI work"], now: SearchFuzz.now)
        }
        try db.pairBrowser(browser, name: "Fuzzer", now: SearchFuzz.now)
      }
      // A stream whose client has gone is noticed at its next heartbeat; the fuzzer drops one
      // at every `/events` it reaches, and at the default 15 s they would pile up to the
      // connection limit.
      let live = LiveChanges(path: path, heartbeat: 1)
      live.start()
      let app = WebApp(
        database: queue,
        security: WebSecurity(
          token: token, csrf: "fuzz-csrf", allowedHosts: ["127.0.0.1", "localhost"],
          usesTLS: false, cookie: cookie),
        readOnly: false, live: live)
      let server = try HTTPServer(address: "127.0.0.1", port: 0, handler: { app.handle($0) })
      return Running(server: server, app: app)
    } catch {
      fatalError("the fuzzer's server: \(error)")
    }
  }()

  nonisolated(unsafe) static var runs = 0

  static func run(_ bytes: [UInt8]) {
    let answer = exchange(bytes)
    if let status = status(of: answer) {
      require(
        status >= 100 && status != 500,
        "status \(status) for \(String(decoding: bytes, as: UTF8.self).debugDescription)")
    }
    runs += 1
    if runs % 256 == 0 {
      let plain = Array(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(cookie)=\(browser.cookie)\r\n\r\n".utf8)
      let asked = Date()
      let answer = status(of: exchange(plain, patience: 60))
      let waited = Date().timeIntervalSince(asked)
      require(
        answer == 200 && waited < 5,
        "a plain request: \(answer.map(String.init) ?? "no answer") after \(waited) s")
    }
  }

  /// The status of the first answer in `answer`, if it starts as HTTP does.
  static func status(of answer: [UInt8]) -> Int? {
    let head = String(decoding: answer.prefix(12), as: UTF8.self)
    guard head.hasPrefix("HTTP/1."), head.count == 12 else { return nil }
    return Int(head.suffix(3))
  }

  /// Sends `bytes`, ends the sending side, and reads until the server closes. An event stream
  /// (which never ends by itself) is read until its first wait; anything else that keeps the
  /// connection open after the input has ended is a hang.
  static func exchange(_ bytes: [UInt8], patience: Int = 5) -> [UInt8] {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    require(socket >= 0, "no socket: \(errno)")
    defer { close(socket) }
    var timeout = timeval(tv_sec: patience, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = running.server.port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    require(connected == 0, "the server took no connection: \(errno)")
    bytes.withUnsafeBytes { buffer in
      var sent = 0
      while sent < buffer.count {
        let count = send(socket, buffer.baseAddress! + sent, buffer.count - sent, 0)
        if count < 0, errno == EINTR { continue }
        // The server may answer and close before reading everything (a refusal): fine.
        if count <= 0 { break }
        sent += count
      }
    }
    shutdown(socket, Int32(SHUT_WR))
    var answer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while answer.count < 8 << 20 {
      let count = read(socket, &chunk, chunk.count)
      if count == 0 { break }
      if count < 0 {
        // libFuzzer's timer interrupts a read now and then: read on.
        if errno == EINTR { continue }
        if errno != EAGAIN && errno != EWOULDBLOCK { break }
        let head = String(decoding: answer.prefix(4096), as: UTF8.self)
        require(
          head.contains("text/event-stream"),
          "the connection stayed open after the input ended (\(running.app.live.listeners) streams open): \(String(decoding: bytes, as: UTF8.self).debugDescription)"
        )
        break
      }
      answer += chunk[0..<count]
      let head = String(decoding: answer.prefix(4096), as: UTF8.self)
      if head.contains("text/event-stream"), head.contains("\r\n\r\n") { break }
    }
    return answer
  }
}
