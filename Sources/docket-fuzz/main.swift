import DocketFuzz
import Foundation

// Built with `-sanitize=fuzzer` and `-D DOCKET_FUZZ` (scripts/fuzz.sh), this is a libFuzzer
// program: it hands the command line (libFuzzer's options and corpus folders) to libFuzzer's
// driver, which calls `LLVMFuzzerTestOneInput` with each input for the target named by
// DOCKET_FUZZ_TARGET. In a plain build, `docket-fuzz TARGET FILE|FOLDER…` runs the inputs given
// through TARGET once each.

#if DOCKET_FUZZ
  import CFuzzer

  let fuzzed: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["DOCKET_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      fatalError("DOCKET_FUZZ_TARGET names no target: \(name.debugDescription); targets: \(names)")
    }
    return target
  }()

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    fuzzed.run(bytes)
    return 0
  }

  // libFuzzer's driver reads its own options and folders from the command line.
  var count = CommandLine.argc
  var words: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&count, &words, fuzzOneInput))
#else
  let arguments = CommandLine.arguments
  guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(
      Data("usage: docket-fuzz TARGET [FILE|FOLDER…]; targets: \(names)\n".utf8))
    exit(2)
  }
  var inputs = 0
  for path in arguments.dropFirst(2) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      FileHandle.standardError.write(Data("docket-fuzz: no file or folder \(path)\n".utf8))
      exit(1)
    }
    let files =
      isFolder.boolValue
      ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
        path + "/" + $0
      } : [path]
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else { continue }
      target.run(Array(data))
      inputs += 1
    }
  }
  print("\(target.rawValue): \(inputs) inputs, no failure")
#endif
