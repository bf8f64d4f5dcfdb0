/// A key press, a paste, or a mouse event, decoded from what the terminal sent.
public enum Key: Equatable, Hashable, Sendable {
  case character(Character)
  case control(Character)
  case alt(Character)
  case enter, tab, backTab, backspace, escape, delete, insert
  case up, down, left, right, home, end, pageUp, pageDown
  case function(Int)
  /// Text pasted while bracketed paste is on: one event, not keystrokes.
  case paste(String)
  case mouse(MouseEvent)
  /// A sequence this decoder does not know, kept for what it was.
  case unknown([UInt8])
}

public struct MouseEvent: Equatable, Hashable, Sendable {
  public enum Kind: Equatable, Hashable, Sendable {
    case press(button: Int)
    case release
    case wheelUp
    case wheelDown
  }

  public var kind: Kind
  /// Zero-based cell coordinates.
  public var x: Int
  public var y: Int

  public init(kind: Kind, x: Int, y: Int) {
    self.kind = kind
    self.x = x
    self.y = y
  }
}
