import Foundation

/// Pages already drawn, kept while the data they show has not changed and for at most a second
/// (their relative times and Recent's window move with the clock). Many pages asking for the same
/// view (a refresh on every open page after a change, a list reloaded) then cost one drawing.
final class PageCache: @unchecked Sendable {
  // Every var is read and written under `lock`.
  private let lock = NSLock()
  private var version: UInt64 = 0
  private var pages: [String: (made: Date, status: Int, body: [UInt8])] = [:]
  private let maximumAge: TimeInterval
  private let capacity: Int

  init(maximumAge: TimeInterval = 1, capacity: Int = 256) {
    self.maximumAge = maximumAge
    self.capacity = capacity
  }

  /// The page kept under `key` for the data at `version`, if it is young enough.
  func page(_ key: String, version: UInt64, now: Date) -> (status: Int, body: [UInt8])? {
    lock.lock()
    defer { lock.unlock() }
    guard version == self.version, let entry = pages[key],
      now.timeIntervalSince(entry.made) < maximumAge, now >= entry.made
    else { return nil }
    return (entry.status, entry.body)
  }

  /// Keeps a page drawn from the data at `version`; a newer version drops every older page.
  func keep(_ key: String, version: UInt64, now: Date, status: Int, body: [UInt8]) {
    lock.lock()
    defer { lock.unlock() }
    if version != self.version {
      guard version > self.version else { return }
      self.version = version
      pages = [:]
    }
    if pages.count >= capacity {
      pages = pages.filter { now.timeIntervalSince($0.value.made) < maximumAge }
    }
    if pages.count >= capacity { return }
    pages[key] = (now, status, body)
  }
}
