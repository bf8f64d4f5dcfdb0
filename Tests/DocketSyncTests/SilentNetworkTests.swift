import Database
import DocketCore
import DocketSync
import Foundation
import Locking
import Postgres
import Testing

/// A TCP proxy on the loopback between a client and a server that can go silent: the
/// connections open when it does stop forwarding and stay open, as a dropped Wi-Fi or a stalled
/// proxy leaves them (the client's bytes are taken, nothing comes back). Connections made after
/// it is back forward again.
final class SilentProxy: @unchecked Sendable {
  let port: UInt16
  private let listener: Int32
  private let upstream: UInt16
  /// The connections that went silent; set when the proxy is closed.
  private let state = Locked<(silenced: Set<Int32>, open: Set<Int32>, closed: Bool)>(
    ([], [], false))

  init(to upstream: UInt16) throws {
    self.upstream = upstream
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, Foundation.listen(descriptor, 16) == 0 else {
      Foundation.close(descriptor)
      throw POSIXError(.EADDRINUSE)
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    listener = descriptor
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// The connections open now go silent for good.
  func goSilent() {
    state.withLock { $0.silenced.formUnion($0.open) }
  }

  func close() {
    state.withLock { $0.closed = true }
  }

  deinit {
    close()
    Foundation.close(listener)
  }

  private var closed: Bool { state.withLock { $0.closed } }

  private func acceptLoop() {
    while !closed {
      var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      guard poll(&waiting, 1, 100) > 0 else { continue }
      let client = accept(listener, nil, nil)
      guard client >= 0 else { continue }
      let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = upstream.bigEndian
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        Foundation.close(client)
        Foundation.close(server)
        continue
      }
      state.withLock { _ = $0.open.insert(client) }
      let thread = Thread { [self] in pump(client, server) }
      thread.start()
    }
  }

  /// Forwards both ways until either side closes or the proxy does; once silenced, forwards
  /// nothing and keeps both sockets open until the proxy is closed.
  private func pump(_ client: Int32, _ server: Int32) {
    defer {
      Foundation.close(client)
      Foundation.close(server)
      state.withLock { _ = $0.open.remove(client) }
    }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !closed {
      if state.withLock({ $0.silenced.contains(client) }) {
        usleep(50_000)
        continue
      }
      var sockets = [
        pollfd(fd: client, events: Int16(POLLIN), revents: 0),
        pollfd(fd: server, events: Int16(POLLIN), revents: 0),
      ]
      guard poll(&sockets, 2, 100) > 0 else { continue }
      if state.withLock({ $0.silenced.contains(client) }) { continue }
      for (from, to) in [(0, server), (1, client)] where sockets[from].revents != 0 {
        let count = read(sockets[from].fd, &buffer, buffer.count)
        if count <= 0 { return }
        var sent = 0
        while sent < count {
          // A peer gone is a closed connection here, not a SIGPIPE that ends the test run.
          let written = buffer.withUnsafeBytes {
            send(to, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
          }
          if written <= 0 { return }
          sent += written
        }
      }
    }
  }
}

/// A network that goes silent in the middle of a sync, the sockets left open (SPEC §10): the
/// sync ends with words within its bound, the server lets go of the silent client's transaction
/// by itself, and once the network is back the next sync completes, nothing lost or twice.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SilentNetworkTests {
  /// The test server's address through `proxy`, with the password libpq would find for the
  /// server itself (the password file names the server's port, not the proxy's).
  static func address(through proxy: SilentProxy) throws -> String {
    let direct = try PostgresServer.address()
    guard let url = URLComponents(string: direct), let port = url.port,
      let file = ProcessInfo.processInfo.environment["PGPASSFILE"]
    else { throw PostgresServer.Missing() }
    let password = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
      .first { $0.hasPrefix("127.0.0.1:\(port):") }.map { String($0.split(separator: ":")[4]) }
    var through = url
    through.port = Int(proxy.port)
    through.password = password
    return through.string!
  }

  static func serverPort() throws -> UInt16 {
    guard let port = URLComponents(string: try PostgresServer.address())?.port else {
      throw PostgresServer.Missing()
    }
    return UInt16(port)
  }

  @Test func aPushWhoseNetworkGoesSilentEndsWithWordsAndTheNextCompletes() throws {
    let remote = try TestRemote(.postgres)
    let a = try Replica("A", remote: remote)
    let b = try Replica("B", remote: remote)
    try a.sync()
    let proxy = try SilentProxy(to: try Self.serverPort())
    defer { proxy.close() }
    for index in 0..<5 { try a.issue("Issue \(index)") }
    let silent = PostgresRemote(
      address: try Self.address(through: proxy), space: remote.space!, device: a.device)
    silent.silence = .seconds(2)
    silent.serverIdleLimit = .seconds(1)
    // The push is all sent but its commit, and then nothing more comes back.
    silent.beforeCommit = { _ in proxy.goSilent() }
    var engine = a.engine()
    engine.remote = silent
    let started = ContinuousClock.now
    do {
      _ = try engine.run()
      Issue.record("the sync went on over a silent network")
    } catch let error as RemoteError {
      guard case .unreachable(let reason) = error.problem else {
        Issue.record("not said as unreachable: \(error)")
        return
      }
      #expect(reason.contains("did not answer"))
    }
    #expect(ContinuousClock.now - started < .seconds(15))
    // Not yet pushed, and the server lets go of the transaction (its idle limit is a second):
    // the next push, over a network that is back and with the production limits, waits for its
    // locks at most that long, well within its own lock timeout.
    #expect(try a.queue.read { try $0.unpushedChangeCount() } == 5)
    var again = a.engine()
    again.remote = PostgresRemote(
      address: try Self.address(through: proxy), space: remote.space!, device: a.device)
    #expect(try again.run().pushed == 5)
    try b.sync()
    #expect(try b.queue.read { try $0.fetchOne("SELECT count(*) FROM issues", as: Int.self) } == 5)
    #expect(try b.dump() == a.dump())
  }

  /// The production bounds: a silent network ends a sync within 30 s, and the server lets go of
  /// the transaction before the client gives up.
  @Test func theBoundsAreSeconds() {
    #expect(PostgresConnection.silenceLimit == .seconds(30))
    let remote = PostgresRemote(address: "postgres://h/db", space: "s", device: "d")
    #expect(remote.serverIdleLimit < remote.silence)
    #expect(PostgresListener.pingAfter + PostgresListener.silence <= .seconds(30))
  }

  /// The app's live connection hears nothing from a silent network: it asks, gets no answer,
  /// says the connection is lost and connects again (through the proxy, now back).
  @Test func theListenerNoticesASilentNetworkAndConnectsAgain() throws {
    let remote = try TestRemote(.postgres)
    let proxy = try SilentProxy(to: try Self.serverPort())
    defer { proxy.close() }
    let address = try Self.address(through: proxy)
    let events = Locked<[LiveEvent]>([])
    let stopped = Locked(false)
    let thread = Thread {
      PostgresListener.listen(
        address: address, channel: PostgresRemote.schemaName(space: remote.space!),
        device: "me", stopped: { stopped.withLock { $0 } },
        send: { event in events.withLock { $0.append(event) } }, pingAfter: .milliseconds(300),
        silence: .seconds(1))
    }
    thread.start()
    defer { stopped.withLock { $0 = true } }
    func wait(for count: Int, _ what: (LiveEvent) -> Bool) -> Bool {
      for _ in 0..<200 {
        if events.withLock({ $0.filter(what).count }) >= count { return true }
        usleep(50_000)
      }
      return false
    }
    #expect(wait(for: 1) { $0 == .connected })
    proxy.goSilent()
    #expect(
      wait(for: 1) {
        if case .lost = $0 { return true }
        return false
      })
    #expect(wait(for: 2) { $0 == .connected })
  }
}
