import CSQLite
import Foundation

/// One of SQLite's full-text tokenizers, run from Swift: text is cut and folded into exactly the
/// tokens the full-text index holds, so code that matches text by itself agrees with the index.
public final class FullTextTokenizer {
  private let methods: fts5_tokenizer
  private let tokenizer: OpaquePointer

  /// `arguments` are the tokenizer's name and options as a table declares them, for example
  /// `["unicode61", "remove_diacritics", "2"]`. Nil when the connection has no such tokenizer.
  public init?(_ connection: Connection, arguments: [String]) {
    guard let name = arguments.first, let api = docket_fts5_api(connection.handle) else {
      return nil
    }
    let options = arguments.dropFirst().map { strdup($0) }
    defer { for option in options { free(option) } }
    var pointers = options.map { UnsafePointer<CChar>($0) }
    var found = fts5_tokenizer()
    let made = pointers.withUnsafeMutableBufferPointer { buffer in
      docket_fts5_tokenizer(api, name, buffer.baseAddress, Int32(buffer.count), &found)
    }
    guard let made else { return nil }
    methods = found
    tokenizer = made
  }

  deinit { methods.xDelete?(tokenizer) }

  /// Calls `body` with each token of `text`, in order.
  public func forEachToken(
    in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    guard let tokenize = methods.xTokenize, let base = text.baseAddress, !text.isEmpty else {
      return
    }
    withoutActuallyEscaping(body) { body in
      var box = body
      withUnsafeMutablePointer(to: &box) { context in
        _ = base.withMemoryRebound(to: CChar.self, capacity: text.count) { characters in
          tokenize(tokenizer, context, FTS5_TOKENIZE_DOCUMENT, characters, Int32(text.count)) {
            context, _, token, count, _, _ in
            guard let context, let token, count > 0 else { return SQLITE_OK }
            let body = context.assumingMemoryBound(
              to: ((UnsafeBufferPointer<UInt8>) -> Void).self
            ).pointee
            token.withMemoryRebound(to: UInt8.self, capacity: Int(count)) {
              body(UnsafeBufferPointer(start: $0, count: Int(count)))
            }
            return SQLITE_OK
          }
        }
      }
    }
  }
}
