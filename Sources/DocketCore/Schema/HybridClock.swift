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

  /// How far ahead of this device's own clock another device's stamp may be and still count:
  /// five minutes, which covers clocks that are set by the network (NTP keeps them within a
  /// second) and a clock left alone for months, and is still too little for one wrong clock to
  /// move every other one with it. A change stamped further ahead waits (it is held) until
  /// this device's clock gets there or its own device, set right, retires it.
  public static let maxDrift: TimeInterval = 300

  /// The furthest stamp that counts at wall time `wall`: the stamp of `wall + maxDrift`.
  public static func bound(wall: Date) -> Int64 {
    stamp(wall.addingTimeInterval(maxDrift))
  }

  /// The stamp past which this device's own clock is taken to have run ahead and is repaired
  /// (`SyncEngine+Clock`): twice the drift ahead of `wall`. What arrives moves the clock up to
  /// the drift ahead at most, and local edits and a wall clock set back by a second or two keep
  /// it near there: only a clock that was itself set ahead gets this far.
  public static func repairBound(wall: Date) -> Int64 {
    stamp(wall.addingTimeInterval(2 * maxDrift))
  }

  /// The wall time a stamp carries.
  public static func date(_ stamp: Int64) -> Date {
    Date(timeIntervalSince1970: Double(stamp >> counterBits) / 1000)
  }
}
