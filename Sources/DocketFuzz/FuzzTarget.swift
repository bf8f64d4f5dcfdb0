/// The places where outside bytes enter Docket, each as a target for libFuzzer (`scripts/fuzz.sh`,
/// RELIABILITY.md). A target takes any bytes and must end with a result or a clear error; a
/// crash, a hang, or a promise below broken (`require`) stops the fuzzer with the input saved.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The search text of every face: parsed, then run against a database.
  case search
  /// The command line's words (NUL between words).
  case arguments
  /// The terminal's input bytes, read in pieces as they arrive.
  case keys
  /// A string catalog (`Localizable.xcstrings`), then texts looked up and formatted from it.
  case catalog
  /// A file given to `docket import`, in each format, then imported (as a dry run).
  case `import`
  /// A sync change file or snapshot from a remote, and the names of the files in a folder.
  case changes
  /// Raw bytes sent to `docket serve` over a socket.
  case http

  public func run(_ bytes: [UInt8]) {
    switch self {
    case .search: SearchFuzz.run(bytes)
    case .arguments: ArgumentsFuzz.run(bytes)
    case .keys: KeysFuzz.run(bytes)
    case .catalog: CatalogFuzz.run(bytes)
    case .import: ImportFuzz.run(bytes)
    case .changes: ChangesFuzz.run(bytes)
    case .http: HTTPFuzz.run(bytes)
    }
  }
}

/// Whether `message` is words a person can act on: not the fallback for an error nothing
/// explained ("Unexpected error: …"), and no placeholder of its template left unfilled. A
/// message may quote the input (an unknown command, a bad value), so a placeholder counts as
/// unfilled where the message has more of it than the input (`%` written as it is, or escaped in
/// JSON as `\u0025`).
func isExplained(_ message: String, input: [UInt8]) -> Bool {
  guard !message.hasPrefix("Unexpected error:"), !message.hasPrefix("Unerwarteter Fehler:") else {
    return false
  }
  let text = String(decoding: input, as: UTF8.self)
  func count(_ part: String, in text: String) -> Int {
    text.components(separatedBy: part).count - 1
  }
  return ["%@", "%lld"].allSatisfy { placeholder in
    let quoted = count(placeholder, in: text) + count("\\u0025" + placeholder.dropFirst(), in: text)
    return count(placeholder, in: message) <= quoted
  }
}

/// Stops the run when a promise does not hold; libFuzzer keeps the input that broke it.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError(message()) }
}
