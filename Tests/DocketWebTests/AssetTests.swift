import DocketWeb
import Foundation
import Testing

/// The script and style sheet served are the files in Sources/DocketWeb/Assets, as
/// the build embedded them.
@Suite struct AssetTests {
  static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/DocketWeb/Assets")

  @Test(arguments: [("app.js", "text/javascript"), ("app.css", "text/css")])
  func theServedFileIsTheFileInTheTree(name: String, type: String) throws {
    let web = try WebTester()
    let file = try String(contentsOf: Self.assets.appendingPathComponent(name), encoding: .utf8)
    let answer = web.get("/static/\(name)", cookies: [:])
    #expect(answer.status == 200)
    #expect(answer.header("Content-Type")?.hasPrefix(type) == true)
    // The embedded copy leaves out the file's last line end; everything else is the same.
    #expect(answer.text + "\n" == file, "\(name) as served")
  }

  @Test func theScriptUsesNoEvalAndWritesNoMarkupFromText() throws {
    let script = try String(
      contentsOf: Self.assets.appendingPathComponent("app.js"), encoding: .utf8)
    for forbidden in ["eval(", "innerHTML", "outerHTML", "document.write", "new Function"] {
      #expect(!script.contains(forbidden), "\(forbidden)")
    }
  }
}
