import HTTPServer

/// The script and style sheet of the pages, served from the binary.
enum WebAssets {
  static let script = Array(embeddedScript.utf8)
  static let style = Array(embeddedStyle.utf8)

  static func response(for path: String) -> HTTPResponse {
    switch path {
    case "/static/app.js":
      return HTTPResponse(
        status: 200,
        headers: [
          ("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache"),
        ],
        body: .bytes(script))
    case "/static/app.css":
      return HTTPResponse(
        status: 200,
        headers: [("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "no-cache")],
        body: .bytes(style))
    case "/favicon.ico":
      // No icon: an empty answer, so that browsers do not log a missing one.
      return HTTPResponse(status: 204, headers: [("Cache-Control", "max-age=86400")])
    default:
      return HTTPResponse(status: 404, headers: [("Content-Type", "text/plain")], text: "Not found")
    }
  }
}
