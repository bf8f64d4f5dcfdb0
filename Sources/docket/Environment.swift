#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's environment, read straight from `environ`: Foundation's `ProcessInfo` builds
/// the same dictionary more slowly, and every command pays for it at start-up.
func processEnvironment() -> [String: String] {
  var result: [String: String] = [:]
  var pointer = environ
  while let entry = pointer.pointee {
    let text = String(cString: entry)
    if let equals = text.firstIndex(of: "=") {
      let key = String(text[..<equals])
      // The first of repeated names wins, as getenv would answer.
      if result[key] == nil { result[key] = String(text[text.index(after: equals)...]) }
    }
    pointer += 1
  }
  return result
}
