import Terminal

/// The terminal's input: bytes as they arrive, in pieces of any size. The first byte of the input
/// chooses where it is cut. Read in pieces, the bytes must give the same keys as read at once: a
/// sequence or a character cut between two reads is held, not misread.
enum KeysFuzz {
  static func run(_ bytes: [UInt8]) {
    guard let seed = bytes.first else { return }
    let input = Array(bytes.dropFirst())
    var whole = KeyDecoder()
    let atOnce = whole.decode(input) + whole.flushPendingEscape()

    var pieces = KeyDecoder()
    var inPieces: [Key] = []
    var start = 0
    var step = Int(seed % 7) + 1
    while start < input.count {
      let end = min(input.count, start + step)
      inPieces += pieces.decode(Array(input[start..<end]))
      start = end
      step = step % 7 + 1
    }
    inPieces += pieces.flushPendingEscape()
    require(atOnce == inPieces, "keys read in pieces differ: \(atOnce) and \(inPieces)")
  }
}
