import Foundation

/// Pages already drawn, kept while the data they show has not changed and for at most a second
/// (their relative times and Recent's window move with the clock). Many pages asking for the same
/// view (a refresh on every open page after a change, a list reloaded) then cost one drawing:
/// while one request draws a page, the others that want it wait for that drawing.
final class PageCache: @unchecked Sendable {
  typealias Page = (status: Int, body: [UInt8])

  // Every var is read and written under `condition`.
  private let condition = NSCondition()
  private var version: UInt64 = 0
  private var pages: [String: (made: Date, page: Page)] = [:]
  /// The bytes of the pages kept.
  private var bytes = 0
  /// How many drawings of each page are under way.
  private var drawing: [String: Int] = [:]
  private let maximumAge: TimeInterval
  private let capacity: Int
  private let byteLimit: Int

  init(maximumAge: TimeInterval = 1, capacity: Int = 256, byteLimit: Int = 32 << 20) {
    self.maximumAge = maximumAge
    self.capacity = capacity
    self.byteLimit = byteLimit
  }

  /// The page under `key` for the data at `version`: a kept one if it is young enough, else the
  /// one another request is drawing now, else one drawn here by `draw` (and kept).
  func page(_ key: String, version: UInt64, now: Date, draw: () throws -> Page) rethrows -> Page {
    condition.lock()
    // Bounded: a drawing that takes longer than this is not waited for.
    let deadline = Date(timeIntervalSinceNow: 2)
    while true {
      if let kept = fresh(key, version: version, now: now) {
        condition.unlock()
        return kept
      }
      if drawing[key, default: 0] == 0 { break }
      if !condition.wait(until: deadline) { break }
    }
    drawing[key, default: 0] += 1
    condition.unlock()
    defer {
      condition.lock()
      drawing[key, default: 1] -= 1
      if drawing[key] == 0 { drawing[key] = nil }
      condition.broadcast()
      condition.unlock()
    }
    let page = try draw()
    keep(key, version: version, now: now, page: page)
    return page
  }

  /// The page kept under `key` for the data at `version`, if it is young enough.
  func page(_ key: String, version: UInt64, now: Date) -> Page? {
    condition.lock()
    defer { condition.unlock() }
    return fresh(key, version: version, now: now)
  }

  private func fresh(_ key: String, version: UInt64, now: Date) -> Page? {
    // A page drawn a moment after `now` (by a request that started later) is as good.
    guard version == self.version, let entry = pages[key],
      now.timeIntervalSince(entry.made) < maximumAge
    else { return nil }
    return entry.page
  }

  /// Keeps a page drawn from the data at `version`; a newer version drops every older page.
  func keep(_ key: String, version: UInt64, now: Date, status: Int, body: [UInt8]) {
    keep(key, version: version, now: now, page: (status, body))
  }

  private func keep(_ key: String, version: UInt64, now: Date, page: Page) {
    condition.lock()
    defer { condition.unlock() }
    if version != self.version {
      guard version > self.version else { return }
      self.version = version
      pages = [:]
      bytes = 0
    }
    // Pages past their age go, so an idle server keeps nothing for long.
    pages = pages.filter { now.timeIntervalSince($0.value.made) < maximumAge }
    bytes = pages.values.reduce(0) { $0 + $1.page.body.count }
    if let old = pages[key] { bytes -= old.page.body.count }
    guard pages.count < capacity, bytes + page.body.count <= byteLimit else { return }
    pages[key] = (now, page)
    bytes += page.body.count
  }
}
