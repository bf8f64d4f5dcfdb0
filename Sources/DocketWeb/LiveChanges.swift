import Database
import Foundation
import HTTPServer

/// Tells open pages that the data changed: a watcher looks at the database's change counter a
/// few times a second (a command, the terminal app or a sync in another process bumps it), the
/// app's own writes say so at once, and every open event stream wakes and sends one event.
/// `currentVersion` looks at once, for a page that must not be older than the last commit.
public final class LiveChanges: @unchecked Sendable {
  // Every var but the checker's is read and written under `condition`; the checker's connection
  // and the last value it read only under `checkLock`.
  private let condition = NSCondition()
  private var counter: UInt64 = 0
  private var stopped = false
  private var openStreams = 0
  /// The database file watched; nil when only the app's own writes count.
  private let path: String?
  private let interval: TimeInterval
  private let heartbeat: TimeInterval
  private var thread: Thread?
  private let checkLock = NSLock()
  private var checker: Connection?
  private var lastDataVersion = 0

  /// Watches the database file at `path` (nil: only the app's own writes count).
  public init(path: String?, interval: TimeInterval = 0.1, heartbeat: TimeInterval = 15) {
    self.path = path
    self.interval = interval
    self.heartbeat = heartbeat
  }

  /// Starts watching; a commit made after this call is never missed.
  public func start() {
    guard let path, let connection = try? Connection(path: path) else { return }
    checkLock.lock()
    checker = connection
    lastDataVersion = (try? connection.fetchOne("PRAGMA data_version", as: Int.self)) ?? 0
    checkLock.unlock()
    let interval = self.interval
    let thread = Thread { [weak self] in
      while let self, !self.isStopped {
        Thread.sleep(forTimeInterval: interval)
        self.look()
      }
    }
    thread.name = "docket.web.live"
    condition.lock()
    self.thread = thread
    condition.unlock()
    thread.start()
  }

  /// Reads the database's change counter (SQLite's `data_version`, which moves when another
  /// connection commits); a move counts as a change.
  private func look() {
    checkLock.lock()
    guard let checker else {
      checkLock.unlock()
      return
    }
    let now = (try? checker.fetchOne("PRAGMA data_version", as: Int.self)) ?? lastDataVersion
    // Counted before the lock is let go: a request that looks next sees the new version.
    // (Locks are always taken in this order: checkLock, then condition.)
    if now != lastDataVersion { changed() }
    lastDataVersion = now
    checkLock.unlock()
  }

  /// The count of changes up to the last commit, looked at now.
  public func currentVersion() -> UInt64 {
    look()
    return version
  }

  private var isStopped: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopped
  }

  /// Something changed: every open stream sends an event.
  public func changed() {
    condition.lock()
    counter += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Ends every stream and the watcher.
  public func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  /// How many pages are listening now.
  public var listeners: Int {
    condition.lock()
    defer { condition.unlock() }
    return openStreams
  }

  /// The count of changes so far; a page records it before it reads, and its stream starts
  /// from it, so that a change made while the page was on its way is not missed.
  public var version: UInt64 {
    condition.lock()
    defer { condition.unlock() }
    return counter
  }

  /// A new stream of events for one page: the first event comes at once when there were
  /// changes after `since` (the version the page was drawn at).
  public func stream(since: UInt64? = nil) -> ResponseStream {
    condition.lock()
    defer { condition.unlock() }
    openStreams += 1
    return EventStream(live: self, seen: since ?? counter)
  }

  /// Waits until the version passes `seen`, the stream or the server closes, or the heartbeat
  /// is due. Returns the new version, `seen` for a heartbeat, or nil for the end.
  fileprivate func wait(after seen: UInt64, closed: () -> Bool) -> UInt64? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: heartbeat)
    while counter == seen && !stopped && !closed() {
      if !condition.wait(until: deadline) { break }
    }
    if stopped || closed() { return nil }
    return counter
  }

  fileprivate func close(_ stream: EventStream) {
    condition.lock()
    if !stream.isClosed {
      stream.isClosed = true
      openStreams -= 1
    }
    condition.broadcast()
    condition.unlock()
  }
}

/// One page's server-sent events: `change` when the data changed, a comment now and then so
/// that a connection whose page went away is noticed.
private final class EventStream: ResponseStream, @unchecked Sendable {
  // `isClosed` is guarded by the live object's condition; `seen` and `started` are used by the
  // one thread that serves the connection.
  let live: LiveChanges
  var seen: UInt64
  var isClosed = false
  var started = false

  init(live: LiveChanges, seen: UInt64) {
    self.live = live
    self.seen = seen
  }

  func next() -> [UInt8]? {
    if !started {
      started = true
      // Reconnect a second after the server comes back.
      return Array("retry: 1000\n: connected\n\n".utf8)
    }
    guard let version = live.wait(after: seen, closed: { isClosed }) else { return nil }
    if version == seen { return Array(": still here\n\n".utf8) }
    seen = version
    return Array("event: change\ndata: \(version)\n\n".utf8)
  }

  func close() { live.close(self) }
}
