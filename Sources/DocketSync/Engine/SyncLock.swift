import Foundation

/// One sync of a database at a time, across processes (the app's background sync and `docket
/// sync` in a shell would write the same change file): an advisory lock on a file beside the
/// database, held for the sync. The system lets it go when the process ends, however it ends.
public struct SyncLock {
  private let descriptor: Int32

  /// Waits up to `wait` for a sync that runs to end; then fails with `SyncBusy`. An in-memory
  /// database (no path) needs no lock.
  public init(database path: String, wait: Duration = .seconds(10)) throws {
    guard !path.isEmpty, path != ":memory:" else {
      descriptor = -1
      return
    }
    let file = path + ".sync-lock"
    let descriptor = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RemoteError(location: file, problem: .system(String(cString: strerror(errno))))
    }
    let deadline = ContinuousClock.now + wait
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      if errno == EINTR { continue }
      guard errno == EWOULDBLOCK else {
        // A file system without locks (some network and FUSE ones): sync goes on unlocked, as
        // it would with one sync at a time.
        close(descriptor)
        self.descriptor = -1
        return
      }
      guard ContinuousClock.now < deadline else {
        close(descriptor)
        throw SyncBusy()
      }
      usleep(50_000)
    }
    self.descriptor = descriptor
  }

  public func release() {
    guard descriptor >= 0 else { return }
    flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}

/// Another sync of this database is running and did not end in time.
public struct SyncBusy: Error, Equatable, Sendable {}
