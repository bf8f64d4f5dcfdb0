import Foundation
import Terminal
import Testing

/// A program started away from the terminal reads and writes the files it is given, with the
/// environment it is given, and is found on the PATH only when asked.
@Suite struct SpawnedProgramTests {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "docket-spawned-\(UUID().uuidString)")

  func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return status
  }

  @Test func readsAndWritesItsFilesWithItsEnvironment() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in").path
    let output = folder.appendingPathComponent("out").path
    let error = folder.appendingPathComponent("err").path
    try "from the file\n".write(toFile: input, atomically: true, encoding: .utf8)
    let pid = try SpawnedProgram.start(
      "/bin/sh", ["-c", "echo \"$DOCKET_WORD\"; cat; echo oops >&2"],
      environment: ["DOCKET_WORD": "given"], input: input, output: output, error: error)
    #expect(wait(pid) == 0)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "given\nfrom the file\n")
    #expect(try String(contentsOfFile: error, encoding: .utf8) == "oops\n")
    let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func isLookedForOnThePathOnlyWhenAsked() throws {
    #expect(throws: POSIXError.self) { try SpawnedProgram.start("sh", ["-c", "exit 0"]) }
    let pid = try SpawnedProgram.start("sh", ["-c", "exit 3"], searchingPath: true)
    #expect(wait(pid) >> 8 & 0xff == 3)
  }
}
