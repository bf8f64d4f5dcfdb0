import Foundation
import Localization

// Writes the Swift source that carries a text file in the binary, as a string literal (which
// compiles in a moment, where an array of bytes of the same file takes minutes). Run by the
// EmbedResources build-tool plugin into the build folder, so nothing generated is committed.
//
//   DocketEmbed catalog CATALOG OUTPUT       the string catalog, its source language and outline
//   DocketEmbed text OUTPUT NAME=FILE…       each file as a constant `NAME`
//   DocketEmbed binary OUTPUT NAME=FILE…     each file's bytes in Base64, as a constant `NAME`

/// A file's text as the binary holds it: without its last line end.
func text(of path: String) throws -> String {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  guard var text = String(data: data, encoding: .utf8) else {
    throw EmbedError("\(path) is not UTF-8")
  }
  // A string literal reads a carriage return in its lines as a line end, which would change
  // the text and every byte offset after it.
  guard !text.utf8.contains(UInt8(ascii: "\r")) else {
    throw EmbedError("\(path) has a carriage return; save it with plain line ends")
  }
  if text.hasSuffix("\n") { text.removeLast() }
  return text
}

/// `text` as a multi-line raw string literal, with as many `#` as it takes that nothing inside
/// reads as the literal's end or as an escape.
func rawLiteral(_ text: String) -> String {
  var hashes = "#"
  while text.contains("\"\"\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
  return hashes + "\"\"\"\n" + text + "\n\"\"\"" + hashes
}

/// A single-line string literal of `value`, every character that needs it escaped.
func literal(_ value: String) -> String {
  var escaped = "\""
  for scalar in value.unicodeScalars {
    switch scalar {
    case "\"", "\\": escaped += "\\" + String(scalar)
    case _ where scalar.value < 0x20 || scalar.value == 0x7F:
      escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
    default: escaped.unicodeScalars.append(scalar)
    }
  }
  return escaped + "\""
}

func catalogSource(_ path: String) throws -> String {
  let catalog = try text(of: path)
  // The outline is worked out here, with the code that reads the catalog at run time, so a run
  // finds its texts without reading the whole catalog first.
  let outline = try StringCatalog.outline(of: Array(catalog.utf8))
  var source = """
    // Made by the EmbedResources plugin from \(URL(fileURLWithPath: path).lastPathComponent).

    /// The string catalog, embedded in the binary.
    let embeddedCatalogJSON = \(rawLiteral(catalog))

    /// The catalog's source language.
    let embeddedCatalogSourceLanguage = \(literal(outline.sourceLanguage))

    /// Where the value of each key of `strings` lies in `embeddedCatalogJSON`, as UTF-8 offsets.
    let embeddedCatalogOutline: [(key: String, start: Int, end: Int)] = [

    """
  for (key, range) in outline.ranges.sorted(by: { $0.value.lowerBound < $1.value.lowerBound }) {
    source += "  (\(literal(key)), \(range.lowerBound), \(range.upperBound)),\n"
  }
  return source + "]\n"
}

/// Each `NAME=FILE` of `pairs` as a constant: the file's text, or with `binary` its bytes in
/// Base64 (a short string literal, where an array of its bytes would take long to compile).
func constantsSource(_ pairs: ArraySlice<String>, binary: Bool) throws -> String {
  var source = "// Made by the EmbedResources plugin.\n"
  for pair in pairs {
    guard let equals = pair.firstIndex(of: "="), !pair[..<equals].isEmpty else {
      throw EmbedError("\(pair): expected NAME=FILE")
    }
    let path = String(pair[pair.index(after: equals)...])
    let name = URL(fileURLWithPath: path).lastPathComponent
    if binary {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      source += "\n/// \(name) in Base64, embedded in the binary.\n"
      source += "let \(pair[..<equals]) = \(literal(bytes.base64EncodedString()))\n"
    } else {
      source += "\n/// \(name), embedded in the binary.\n"
      source += "let \(pair[..<equals]) = \(rawLiteral(try text(of: path)))\n"
    }
  }
  return source
}

struct EmbedError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Writes the source the arguments ask for; ends the process.
func run() -> Never {
  let arguments = CommandLine.arguments
  do {
    let source: String
    let output: String
    switch arguments.dropFirst().first {
    case "catalog" where arguments.count == 4:
      source = try catalogSource(arguments[2])
      output = arguments[3]
    case "text" where arguments.count >= 3:
      source = try constantsSource(arguments[3...], binary: false)
      output = arguments[2]
    case "binary" where arguments.count >= 3:
      source = try constantsSource(arguments[3...], binary: true)
      output = arguments[2]
    default:
      throw EmbedError("usage: DocketEmbed catalog CATALOG OUTPUT | text|binary OUTPUT NAME=FILE…")
    }
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
  } catch {
    FileHandle.standardError.write(Data("DocketEmbed: \(error)\n".utf8))
    exit(1)
  }
  // Without the exit handlers: under the address sanitizer, the leak check at exit would count
  // the runtime's caches, made once, as leaks and fail the build.
  _exit(0)
}

#if DOCKET_FUZZ
  // The fuzz build (scripts/fuzz.sh) links every program with libFuzzer, which asks for a fuzz
  // target even where, as here, the program's own `main` runs.
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { 0 }
#endif

run()
