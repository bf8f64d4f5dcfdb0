import Foundation
import Locking
import Postgres

/// What a live remote says while the app is open.
public enum LiveEvent: Equatable, Sendable {
  /// Listening (again): anything pushed from now on is heard. Pushed meanwhile is not, so a
  /// sync is due.
  case connected
  /// Another device pushed.
  case changed
  /// The server went away (its reason); tried again after `retry`.
  case lost(String, retry: Duration)
  /// Listening cannot work however often it is tried (the password refused, libpq missing): its
  /// reason; nothing more comes.
  case failed(String)
}

/// Listens on a PostgreSQL space's channel (`LISTEN docket_<space>`) on a connection of its own,
/// on a thread of its own, waiting on the socket: nothing is asked of the server until it says
/// something. Every push sends a notification with the pushing device's id; this device's own are
/// passed over. When the connection goes, it says so and connects again after 1 s, 2 s, 4 s, … up
/// to 30 s. A network that goes silent without closing the connection (a Wi-Fi dropped) shows no
/// error on a socket that only waits: after `pingAfter` without a word from the server the
/// listener asks it for one, and takes no answer within `silence` for a lost connection.
public enum PostgresListener {
  /// The longest wait between attempts to connect again.
  public static let longestRetry: Duration = .seconds(30)
  /// How long the server may say nothing before the listener asks it something.
  public static let pingAfter: Duration = .seconds(15)
  /// How long an answer to that may take before the connection counts as lost.
  public static let silence: Duration = .seconds(10)

  /// Events until the stream is dropped (the app closing, the remote changed).
  public static func events(
    address: String, space: String, device: String, pingAfter: Duration = pingAfter
  ) -> AsyncStream<LiveEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self)
    let stopped = StopFlag()
    continuation.onTermination = { _ in stopped.flag.withLock { $0 = true } }
    let thread = Thread {
      listen(
        address: address, channel: PostgresRemote.schemaName(space: space), device: device,
        stopped: { stopped.flag.withLock { $0 } }, send: { continuation.yield($0) },
        pingAfter: pingAfter)
      continuation.finish()
    }
    thread.name = "docket-listen"
    thread.start()
    return stream
  }

  /// The loop: connect, listen, wait; on failure wait and again. Returns once `stopped`.
  public static func listen(
    address: String, channel: String, device: String, stopped: () -> Bool,
    send: (LiveEvent) -> Void, pingAfter: Duration = pingAfter, silence: Duration = silence
  ) {
    var retry: Duration = .seconds(1)
    while !stopped() {
      do throws(PostgresError) {
        let connection = try PostgresConnection(
          address, defaults: PostgresRemote.connectionDefaults, silence: silence)
        try connection.execute("LISTEN " + PostgresConnection.identifier(channel))
        send(.connected)
        retry = .seconds(1)
        var heardFrom = ContinuousClock.now
        while !stopped() {
          if ContinuousClock.now - heardFrom > pingAfter {
            try connection.execute("SELECT 1")
            heardFrom = ContinuousClock.now
            // What arrived with the answer is kept by libpq, not left on the socket.
            if try connection.notifications().contains(where: {
              $0.channel == channel && $0.payload != device
            }) {
              send(.changed)
            }
          }
          // A quarter of a second at most, so that closing the app is not held up.
          var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
          let ready = poll(&descriptor, 1, 250)
          if ready < 0, errno != EINTR {
            throw PostgresError(
              state: nil, message: String(cString: strerror(errno)), connectionLost: true)
          }
          guard ready > 0 else { continue }
          heardFrom = ContinuousClock.now
          let heard = try connection.notifications()
          if heard.contains(where: { $0.channel == channel && $0.payload != device }) {
            send(.changed)
          }
        }
      } catch {
        if stopped() { return }
        // A refused password is not tried every 30 s (a server may lock the role out for it).
        if error.isAuthentication || PostgresConnection.libraryProblem != nil {
          send(.failed(error.message))
          return
        }
        send(.lost(error.reason, retry: retry))
        let until = ContinuousClock.now + retry
        while !stopped(), ContinuousClock.now < until { usleep(100_000) }
        retry = min(retry * 2, longestRetry)
      }
    }
  }
}

/// Set when the stream's reader is gone; read by the listening thread.
private final class StopFlag: Sendable {
  let flag = Locked(false)
}
