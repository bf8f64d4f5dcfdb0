import Foundation
import Testing

@testable import DocketCLI

/// `make install` and `make uninstall`, into a temporary root as a packager would, with the
/// manual page rendered as `man` would.
@Suite struct InstallTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let installed = [
    "usr/bin/docket", "usr/share/man/man1/docket.1", "usr/share/man/de/man1/docket.1",
    "usr/share/bash-completion/completions/docket", "usr/share/zsh/site-functions/_docket",
    "usr/share/fish/vendor_completions.d/docket.fish",
  ]

  /// Runs a program and returns its exit status, standard output and standard error.
  func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = Self.root
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, out, err)
  }

  @Test func installPutsEveryFileWhereItsReaderLooksAndUninstallTakesThemAway() throws {
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent(
      "docket-install-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: destination) }
    let binary = Sandbox.binary.path
    let (status, _, errors) = try run(
      "/usr/bin/make",
      [
        "--no-print-directory", "install-files", "DESTDIR=\(destination.path)", "PREFIX=/usr",
        "BINARY=\(binary)",
      ])
    #expect(status == 0, "\(errors)")
    for file in Self.installed {
      let path = destination.appendingPathComponent(file).path
      #expect(FileManager.default.fileExists(atPath: path), "\(file) is missing")
    }
    let installedBinary = destination.appendingPathComponent("usr/bin/docket").path
    #expect(FileManager.default.isExecutableFile(atPath: installedBinary))
    #expect(try run(installedBinary, ["--version"]).1.hasPrefix("docket "))

    // Both manual pages render without a warning, and name every command of `docket help`.
    for page in ["usr/share/man/man1/docket.1", "usr/share/man/de/man1/docket.1"] {
      let path = destination.appendingPathComponent(page).path
      let (rendered, text, warnings) = try run(
        "/usr/bin/groff", ["-man", "-Tutf8", "-ww", path])
      #expect(rendered == 0)
      #expect(warnings.isEmpty, "\(page): \(warnings)")
      // groff writes bold with backspaces; without them the text reads as on screen.
      let plain = text.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
      for spec in CommandSpec.all {
        #expect(plain.contains("docket " + spec.name), "\(page) lacks \(spec.name)")
      }
    }

    let removed = try run(
      "/usr/bin/make",
      ["--no-print-directory", "uninstall", "DESTDIR=\(destination.path)", "PREFIX=/usr"])
    #expect(removed.0 == 0)
    for file in Self.installed {
      #expect(
        !FileManager.default.fileExists(atPath: destination.appendingPathComponent(file).path))
    }
  }
}
