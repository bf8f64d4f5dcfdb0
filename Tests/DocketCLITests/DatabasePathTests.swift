import Foundation
import Testing

/// `--db` as a newcomer's script may give it: an empty path (an unset shell variable) is
/// refused, never taken for the default database; a folder is said to be one.
@Suite struct DatabasePathTests {
  let box: Sandbox

  init() throws { box = try Sandbox() }

  @Test func anEmptyDatabasePathIsRefusedAndTheDefaultIsNotTouched() throws {
    let run = try box.docket(["--db", "", "add", "x"], database: false)
    #expect(run.status == 2)
    #expect(run.error.contains("--db was given an empty path"))
    #expect(run.error.contains(box.path(".local/share/docket/docket.sqlite")))
    #expect(!FileManager.default.fileExists(atPath: box.path(".local/share/docket")))
    let german = try box.docket(
      ["--db", "", "list"], database: false, environment: ["LANG": "de_DE.UTF-8"])
    #expect(german.status == 2)
    #expect(german.error.contains("leerer Pfad"))
  }

  @Test func aFolderGivenAsTheDatabaseIsSaidToBeOne() throws {
    let folder = box.path("notes")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for path in [folder, folder + "/"] {
      let run = try box.docket(["--db", path, "list"], database: false)
      #expect(run.status != 0)
      #expect(run.error.contains("\(folder) is a folder, not a database file"), "\(run.error)")
      #expect(run.error.contains("\(folder)/docket.sqlite"))
      #expect(!run.error.contains("disk I/O"))
    }
    let viaEnvironment = try box.docket(
      ["list"], database: false, environment: ["DOCKET_DB": folder])
    #expect(viaEnvironment.error.contains("is a folder"))
  }
}
