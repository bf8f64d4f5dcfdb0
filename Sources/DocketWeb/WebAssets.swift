import Foundation
import HTTPServer

/// The script, style sheet, service worker and icons of the pages, served from the binary.
/// None holds anything of the tracker's, so none needs a paired browser: a browser fetches the
/// manifest and its icons without cookies.
enum WebAssets {
  static let script = Array(embeddedScript.utf8)
  /// The core's rules for the browser's own copy, and the copy kept and shown offline.
  static let copyScript = Array(embeddedCopyScript.utf8)
  /// How the full-text index cuts and folds words, for the copy's search (scripts/make-word-table.py).
  static let wordsScript = Array(embeddedWordsScript.utf8)
  static let offlineScript = Array(embeddedOfflineScript.utf8)
  static let style = Array(embeddedStyle.utf8)
  static let serviceWorker = Array(embeddedServiceWorker.utf8)

  /// Each icon's address and its PNG bytes (drawn by `scripts/make-icons.py`).
  static let icons: [String: [UInt8]] = {
    let embedded = [
      ("icon-192", embeddedIcon_icon_192), ("icon-512", embeddedIcon_icon_512),
      ("icon-maskable-512", embeddedIcon_icon_maskable_512),
      ("apple-touch-icon", embeddedIcon_apple_touch_icon), ("favicon-32", embeddedIcon_favicon_32),
    ]
    var icons: [String: [UInt8]] = [:]
    for (name, base64) in embedded {
      icons["/static/icons/\(name).png"] = Data(base64Encoded: base64).map { Array($0) } ?? []
    }
    return icons
  }()

  /// The addresses `response(for:)` answers.
  static func serves(_ path: String) -> Bool {
    path.hasPrefix("/static/") || path == "/favicon.ico" || path == "/sw.js"
  }

  static func response(for path: String) -> HTTPResponse {
    if let icon = icons[path] { return image(icon) }
    switch path {
    case "/static/app.js": return text(script, type: "text/javascript")
    case "/static/copy.js": return text(copyScript, type: "text/javascript")
    case "/static/words.js": return text(wordsScript, type: "text/javascript")
    case "/static/offline.js": return text(offlineScript, type: "text/javascript")
    case "/static/app.css": return text(style, type: "text/css")
    // From the root, so that it may keep every page of the app.
    case "/sw.js": return text(serviceWorker, type: "text/javascript")
    case "/favicon.ico": return image(icons["/static/icons/favicon-32.png"] ?? [])
    default:
      return HTTPResponse(status: 404, headers: [("Content-Type", "text/plain")], text: "Not found")
    }
  }

  /// Asked for again on every load (`no-cache`), so that a new binary's script and style are
  /// used at once.
  private static func text(_ bytes: [UInt8], type: String) -> HTTPResponse {
    HTTPResponse(
      status: 200,
      headers: [("Content-Type", type + "; charset=utf-8"), ("Cache-Control", "no-cache")],
      body: .bytes(bytes))
  }

  private static func image(_ bytes: [UInt8]) -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "max-age=604800")],
      body: .bytes(bytes))
  }
}
