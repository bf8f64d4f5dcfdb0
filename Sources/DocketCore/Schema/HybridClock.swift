import Foundation

/// A hybrid logical clock stamp: milliseconds of wall time in the high bits and a counter in
/// the low 16, one Int64 that orders like the pair. A device's next stamp is later than both its
/// wall clock and every stamp it has given or seen, so a wall clock that jumps back, or runs an
/// hour behind another device's, never makes a new edit older than one it has already seen.
public enum HybridClock {
  public static let counterBits: Int64 = 16

  /// The stamp that follows `previous` at wall time `wall`.
  public static func tick(after previous: Int64, wall: Date) -> Int64 {
    max(previous + 1, stamp(wall))
  }

  /// The earliest stamp at `wall`: its milliseconds, counter zero.
  public static func stamp(_ wall: Date) -> Int64 {
    Int64((wall.timeIntervalSince1970 * 1000).rounded(.down)) << counterBits
  }

  /// The wall time a stamp carries.
  public static func date(_ stamp: Int64) -> Date {
    Date(timeIntervalSince1970: Double(stamp >> counterBits) / 1000)
  }
}
