import Foundation
import HTTPServer
import Localization

/// The web app manifest: what a browser needs to install the app on a home screen or a desktop
/// (its names, icons, colours, and that it opens in a window of its own at the list).
enum WebManifest {
  static let themeColor = "#0b57d0"
  static let darkThemeColor = "#151515"
  static let backgroundColor = "#ffffff"

  static func document(_ l10n: Localizer) -> [String: Any] {
    let icon = { (name: String, size: Int, purpose: String) -> [String: Any] in
      [
        "src": "/static/icons/\(name).png", "sizes": "\(size)x\(size)", "type": "image/png",
        "purpose": purpose,
      ]
    }
    return [
      "id": "/", "name": "Docket", "short_name": "Docket",
      "description": l10n("web.manifest.description"), "lang": l10n.language,
      "start_url": "/", "scope": "/", "display": "standalone",
      "theme_color": themeColor, "background_color": backgroundColor,
      "icons": [
        icon("icon-192", 192, "any"), icon("icon-512", 512, "any"),
        icon("icon-maskable-512", 512, "maskable"),
      ],
    ]
  }

  static func response(_ l10n: Localizer) -> HTTPResponse {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: document(l10n), options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return HTTPResponse(
      status: 200,
      headers: [("Content-Type", "application/manifest+json"), ("Cache-Control", "no-cache")],
      body: .bytes(Array(data)))
  }
}
