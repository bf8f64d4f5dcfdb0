import DocketCore
import Foundation
import JSONText

/// Reads a file of issues: finds its format from the content (or takes the one given), then reads
/// every record, stopping at the first bad one.
public enum TransferReader {
  /// `repository` names the GitHub repository the issues come from (`owner/name`), where the
  /// file does not say (gh writes `url` only when asked). `progress` hears how many bytes are
  /// read, about once a mebibyte.
  public static func read(
    _ bytes: [UInt8], format given: TransferFormat? = nil, repository: String? = nil,
    progress: ((Int) -> Void)? = nil
  ) throws(ImportError) -> IncomingBatch {
    // Told only of bytes further on: a file read in part and then again (a document read as it
    // goes that is read whole after all, a first value that was not the whole file) would
    // otherwise be said to go back.
    var furthest = 0
    let progress = progress.map { progress in
      { (read: Int) in
        guard read > furthest else { return }
        furthest = read
        progress(read)
      }
    }
    // Docket's own document is read once, with its progress: its first value is the whole of
    // it, and says what it is (finding the format from that value and then reading the file
    // would read it all twice). A first value with more after it starts records one a line.
    if given == nil || given == .docket {
      var reader = JSONReader(bytes: bytes)
      if reader.peek() == UInt8(ascii: "{") {
        reader.progress = progress
        if let batch = try DocketFormat.stream(&reader) {
          guard reader.isAtEnd else { throw ImportError(reader.unexpected("the end of the file")) }
          return batch
        }
        let first: JSON
        do { first = try reader.readValue() } catch { throw ImportError(error) }
        let whole = reader.isAtEnd
        if given == .docket {
          guard whole else { throw ImportError(reader.unexpected("the end of the file")) }
          return try DocketFormat.read(first)
        }
        if whole, first["format"]?.string == "docket" { return try DocketFormat.read(first) }
      }
    }
    let format: TransferFormat
    if let given { format = given } else { format = try detect(bytes) }
    switch format {
    case .docket: return try DocketFormat.read(bytes, progress: progress)
    case .taskwarrior: return try TaskwarriorFormat.read(bytes, progress: progress)
    case .github: return try GitHubFormat.read(bytes, repository: repository, progress: progress)
    case .csv: throw ImportError(.unknownFormat)
    }
  }

  /// The format of `bytes` from its first record: Docket's document names itself; a task has a
  /// `uuid` and a `description`; a GitHub issue a `number` and a `title`.
  public static func detect(_ bytes: [UInt8]) throws(ImportError) -> TransferFormat {
    var reader = JSONReader(bytes: bytes)
    let first: JSON
    let start = reader.peek()
    do {
      if start == UInt8(ascii: "[") {
        var found: JSON?
        do {
          try reader.forEachElement { element, _, _ in
            found = element
            throw StopReading()
          }
        } catch is StopReading {
        }
        // An empty list: nothing to import, in any format.
        guard let found else { return .taskwarrior }
        first = found
      } else {
        first = try reader.readValue()
      }
    } catch let error as JSONSyntaxError {
      throw ImportError(error)
    } catch {
      throw ImportError(.unknownFormat)
    }
    if first["format"]?.string == "docket" { return .docket }
    if first["uuid"] != nil, first["description"] != nil { return .taskwarrior }
    if first["number"] != nil, first["title"] != nil { return .github }
    throw ImportError(.unknownFormat, line: 1)
  }

  private struct StopReading: Error {}

  /// Every record of a JSON array, or of one JSON value a line (JSON Lines), with its line and
  /// its number from 1.
  static func forEachRecord(
    _ bytes: [UInt8], progress: ((Int) -> Void)? = nil,
    _ body: (Record) throws(ImportError) -> Void
  ) throws(ImportError) {
    var reader = JSONReader(bytes: bytes)
    reader.progress = progress
    // The number of the record being read, for an error inside it.
    var current = 1
    do {
      if reader.peek() == UInt8(ascii: "[") {
        try reader.forEachElement { element, index, line in
          try body(try Record(element, line: line, number: index + 1))
          current = index + 2
        }
        guard reader.isAtEnd else { throw reader.unexpected("the end of the file") }
      } else {
        var number = 0
        while !reader.isAtEnd {
          number += 1
          current = number
          let line = reader.nextLine()
          try body(try Record(try reader.readValue(), line: line, number: number))
        }
      }
    } catch let error as ImportError {
      throw error
    } catch let error as JSONSyntaxError {
      throw ImportError(error, record: current)
    } catch {
      throw ImportError(.unknownFormat)
    }
  }
}
