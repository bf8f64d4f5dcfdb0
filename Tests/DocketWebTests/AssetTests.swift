import DocketWeb
import Foundation
import HTTPServer
import Testing

/// The script and style sheet served are the files in Sources/DocketWeb/Assets, as
/// the build embedded them.
@Suite struct AssetTests {
  static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/DocketWeb/Assets")

  @Test(arguments: [
    ("app.js", "/static/app.js", "text/javascript"), ("app.css", "/static/app.css", "text/css"),
    ("sw.js", "/sw.js", "text/javascript"), ("copy.js", "/static/copy.js", "text/javascript"),
    ("words.js", "/static/words.js", "text/javascript"),
    ("offline.js", "/static/offline.js", "text/javascript"),
  ])
  func theServedFileIsTheFileInTheTree(name: String, path: String, type: String) throws {
    let web = try WebTester()
    let file = try String(contentsOf: Self.assets.appendingPathComponent(name), encoding: .utf8)
    let answer = web.get(path, cookies: [:])
    #expect(answer.status == 200)
    #expect(answer.header("Content-Type")?.hasPrefix(type) == true)
    // The embedded copy leaves out the file's last line end; everything else is the same.
    #expect(answer.text + "\n" == file, "\(name) as served")
  }

  /// The width and height a PNG's header states.
  static func pngSize(_ body: HTTPResponse.Body) -> (Int, Int)? {
    guard case .bytes(let bytes) = body else { return nil }
    guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
      bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]  // IHDR
    else { return nil }
    let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
  }

  @Test func theManifestNamesTheAppItsIconsAndAWindowOfItsOwn() throws {
    let web = try WebTester()
    // Browsers fetch the manifest without cookies: it holds nothing of the tracker's.
    let answer = web.get("/manifest.webmanifest", headers: ["accept-language": "de"], cookies: [:])
    #expect(answer.status == 200)
    #expect(answer.header("Content-Type") == "application/manifest+json")
    let manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
    #expect(manifest["name"] as? String == "Docket")
    #expect(manifest["short_name"] as? String == "Docket")
    #expect(manifest["start_url"] as? String == "/")
    #expect(manifest["display"] as? String == "standalone")
    #expect(manifest["lang"] as? String == "de")
    #expect((manifest["description"] as? String)?.contains("Projekte") == true)
    #expect((manifest["theme_color"] as? String)?.hasPrefix("#") == true)
    #expect((manifest["background_color"] as? String)?.hasPrefix("#") == true)
    let icons = try #require(manifest["icons"] as? [[String: String]])
    #expect(Set(icons.compactMap { $0["sizes"] }) == ["192x192", "512x512"])
    #expect(icons.contains { $0["purpose"] == "maskable" })
    // Each icon is there, a PNG of the size it states.
    for icon in icons {
      let path = try #require(icon["src"])
      let image = web.get(path, cookies: [:])
      #expect(image.status == 200 && image.header("Content-Type") == "image/png", "\(path)")
      let size = try #require(Self.pngSize(image.body), "\(path) is a PNG")
      #expect("\(size.0)x\(size.1)" == icon["sizes"], "\(path)")
    }
  }

  @Test func everyPageLinksTheManifestAndTheTouchIconUnderItsPolicy() throws {
    let web = try WebTester()
    for path in ["/", "/tags", "/awards"] {
      let page = web.get(path)
      #expect(page.status == 200)
      for link in [
        "<link rel=\"manifest\" href=\"/manifest.webmanifest\">",
        "<link rel=\"apple-touch-icon\" href=\"/static/icons/apple-touch-icon.png\">",
        "<meta name=\"apple-mobile-web-app-capable\" content=\"yes\">",
      ] {
        #expect(page.text.contains(link), "\(path): \(link)")
      }
      let policy = try #require(page.header("Content-Security-Policy"))
      #expect(policy.contains("manifest-src 'self'") && policy.contains("worker-src 'self'"))
    }
    for path in ["/static/icons/apple-touch-icon.png", "/favicon.ico"] {
      let image = web.get(path, cookies: [:])
      #expect(image.header("Content-Type") == "image/png", "\(path)")
      #expect(Self.pngSize(image.body).map { $0.0 == $0.1 } == true, "\(path)")
    }
    #expect(web.get("/static/icons/none.png", cookies: [:]).status == 404)
  }

  @Test func theScriptUsesNoEvalAndWritesNoMarkupFromText() throws {
    let script = try String(
      contentsOf: Self.assets.appendingPathComponent("app.js"), encoding: .utf8)
    for forbidden in ["eval(", "innerHTML", "outerHTML", "document.write", "new Function"] {
      #expect(!script.contains(forbidden), "\(forbidden)")
    }
  }
}
