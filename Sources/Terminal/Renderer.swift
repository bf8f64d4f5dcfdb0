/// Turns buffers into terminal output, writing only what changed since the previous frame.
///
/// Cursor moves are emitted only where the next changed cell is not where the cursor already
/// stands, and style codes only when the style changes. The whole frame is one string, for one
/// write.
public struct Renderer: Sendable {
  private var previous: Buffer?

  public init() {}

  /// Forget the previous frame: the next one is drawn in full (after a resize or a resume).
  public mutating func invalidate() { previous = nil }

  /// The output that takes the terminal from the previous frame to `buffer`.
  public mutating func frame(_ buffer: Buffer) -> String {
    var output = ""
    let full = previous.map { $0.width != buffer.width || $0.height != buffer.height } ?? true
    if full { output += "\u{1B}[0m\u{1B}[2J" }
    var style: CellStyle?
    var cursor: (x: Int, y: Int)?
    for row in 0..<buffer.height {
      var column = 0
      while column < buffer.width {
        let cell = buffer[column, row]
        let unchanged = !full && previous?[column, row] == cell
        if cell.text.isEmpty || unchanged {
          column += 1
          continue
        }
        if cursor == nil || cursor! != (column, row) {
          output += "\u{1B}[\(row + 1);\(column + 1)H"
        }
        if style != cell.style {
          output += cell.style.sgr
          style = cell.style
        }
        output += cell.text
        let columns = max(1, DisplayWidth.of(cell.text))
        // A wide character rewrites its right half: skip it, and the cursor moves past both.
        column += columns
        cursor = (column, row)
      }
    }
    if style != nil, style != .plain { output += "\u{1B}[0m" }
    if let target = buffer.cursor {
      output += "\u{1B}[\(target.y + 1);\(target.x + 1)H\u{1B}[?25h"
    } else if previous?.cursor != nil || full {
      output += "\u{1B}[?25l"
    }
    previous = buffer
    return output
  }
}
