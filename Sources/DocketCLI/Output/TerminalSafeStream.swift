import Foundation
import Terminal

/// Bytes bound for a terminal made safe there as they go (`SafeText`): an export read on the
/// terminal shows an escape sequence in a title as `␛[31m`, and nothing in it is obeyed. The
/// bytes come in pieces that may end inside a character; its start waits for the next piece.
final class TerminalSafeStream {
  private var pending: [UInt8] = []
  private let write: (String) -> Void

  init(write: @escaping (String) -> Void) { self.write = write }

  func take(_ bytes: UnsafeRawBufferPointer) {
    pending.append(contentsOf: bytes)
    var whole = Self.wholeCharacters(pending)
    // A carriage return at the end may start a CR LF that the next piece ends.
    if whole > 0, pending[whole - 1] == 0x0D { whole -= 1 }
    say(pending[..<whole])
    pending.removeFirst(whole)
  }

  /// What is left (a character cut off at the very end is shown as a replacement).
  func finish() {
    say(pending[...])
    pending = []
  }

  private func say(_ bytes: ArraySlice<UInt8>) {
    guard !bytes.isEmpty else { return }
    // Lines may end in CR LF (a CSV file's): on the terminal a line break is enough.
    let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    write(SafeText.sanitized(text, keeping: [.lineBreaks, .tabs]))
  }

  /// How many of `bytes` end on a character boundary: a trailing lead byte and its continuation
  /// bytes, fewer than the lead byte announces, wait.
  static func wholeCharacters(_ bytes: [UInt8]) -> Int {
    var start = bytes.count
    while start > 0, bytes.count - start < 3, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
    guard start > 0 else { return bytes.count }
    let lead = bytes[start - 1]
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    return length > bytes.count - (start - 1) ? start - 1 : bytes.count
  }
}
