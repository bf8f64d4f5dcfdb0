import DocketCore
import DocketWeb
import Foundation
import HTTPServer

/// `docket serve [--bind ADDRESS] [--port N] [--read-only] [--tls-cert FILE --tls-key FILE]`:
/// the tracker in a browser, until Ctrl-C.
struct ServeCommand {
  let context: CommandContext

  func run() throws {
    let arguments = context.arguments
    let l10n = context.l10n
    let address = arguments.value("bind") ?? "127.0.0.1"
    var port: UInt16 = 8080
    if let text = arguments.value("port") {
      guard let value = UInt16(text) else {
        throw CommandFailure.usage(
          UsageText.message(
            for: .badValue(option: "--port", value: text, allowed: "0–65535"), l10n))
      }
      port = value
    }
    let certificatePath = arguments.value("tls-cert")
    let keyPath = arguments.value("tls-key")
    guard (certificatePath == nil) == (keyPath == nil) else {
      throw CommandFailure.usage(l10n("error.serve.tlsPair"))
    }
    func read(_ path: String) throws -> String {
      do {
        return try String(contentsOfFile: path, encoding: .utf8)
      } catch {
        throw CommandFailure.failed(l10n("error.serve.unreadable", .string(path)))
      }
    }
    let certificate = try certificatePath.map(read)
    let key = try keyPath.map(read)
    // The address the browsers use, when a reverse proxy stands in front: shown, and answered to.
    var publicURL: URLComponents?
    if let given = arguments.value("public-url") {
      guard let parts = URLComponents(string: given), ["http", "https"].contains(parts.scheme),
        let host = parts.host, !host.isEmpty, parts.path.isEmpty || parts.path == "/",
        parts.query == nil, parts.fragment == nil, parts.user == nil
      else {
        throw CommandFailure.usage(l10n("error.serve.publicURL", .string(given)))
      }
      publicURL = parts
    }
    let extraHosts = arguments.values("allow-host") + (publicURL?.host.map { [$0] } ?? [])
    let database = try context.database()
    // The pairing code is this start's; what a paired browser holds lasts across starts.
    let (csrf, cookie) = try database.write { db in
      (
        try db.webSecret("csrf", make: WebSecurity.randomSecret),
        try db.webSecret("cookie", make: { String(WebSecurity.randomSecret().prefix(8)) })
      )
    }
    let security = WebSecurity(
      token: WebSecurity.randomSecret(), csrf: csrf,
      allowedHosts: WebSecurity.hosts(for: address, extra: extraHosts),
      usesTLS: certificate != nil, cookie: "docket_" + cookie)
    let live = LiveChanges(path: context.databasePath)
    let app = WebApp(
      database: database, security: security, readOnly: arguments.has("read-only"), live: live)

    // Ctrl-C, a polite kill and the terminal closing are waited for below; the server's threads
    // never take them.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    sigaddset(&stopSignals, SIGHUP)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
    signal(SIGPIPE, SIG_IGN)

    // Watching before the first request, so that no page is drawn without knowing the version.
    live.start()
    let server: HTTPServer
    do {
      server = try HTTPServer(
        address: address, port: port, certificate: certificate, key: key,
        handler: { app.handle($0) })
    } catch .libraryMissing(let reason) {
      throw CommandFailure.failed(l10n("error.serve.library", .string(reason)))
    } catch {
      throw CommandFailure.failed(
        l10n("error.serve.cannotListen", .string(address), .integer(Int(port))))
    }
    let scheme = certificate == nil ? "http" : "https"
    let shownHost: String
    switch address {
    case "0.0.0.0", "::": shownHost = ProcessInfo.processInfo.hostName
    default: shownHost = address.contains(":") ? "[\(address)]" : address
    }
    var url = "\(scheme)://\(shownHost):\(server.port)/?token=\(security.token)"
    if var publicURL {
      publicURL.path = "/"
      publicURL.queryItems = [URLQueryItem(name: "token", value: security.token)]
      url = publicURL.string ?? url
    }
    context.console.line(l10n("serve.serving", .string(context.databasePath)))
    context.console.line(l10n("serve.open", .string(url)))
    // A phone that scans a loopback address reaches itself: the code only where it can reach.
    if publicURL != nil || !["127.0.0.1", "::1", "localhost"].contains(address) {
      showQRCode(url)
    } else {
      context.console.line(l10n("serve.phoneHint"))
    }
    context.console.line(l10n("serve.pairing"))
    if arguments.has("read-only") { context.console.line(l10n("serve.readOnly")) }
    if !["127.0.0.1", "::1", "localhost"].contains(address) && certificate == nil {
      context.console.writeError(l10n("serve.warning.cleartext", .string(address)) + "\n")
    }
    context.console.line(l10n("serve.stop"))
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    live.stop()
    server.stop()
    context.console.line(l10n("serve.stopped"))
  }

  /// The address as a QR code for a phone's camera, when output is a terminal wide enough.
  private func showQRCode(_ url: String) {
    let console = context.console
    guard console.outputIsTerminal else { return }
    switch QRCodeText.encode(url) {
    case .success(let code):
      guard code.columns <= console.width ?? 80 else {
        console.line(context.l10n("serve.noQRCode", .string(context.l10n("serve.qrTooWide"))))
        return
      }
      // Dark on light whatever the terminal's colours (and NO_COLOR: these are no decoration,
      // a scanner needs them), but where the terminal can show none.
      let plain = ProcessInfo.processInfo.environment["TERM"] == "dumb"
      for line in code.lines(colors: !plain) { console.line(line) }
    case .failure(let failure):
      console.line(context.l10n("serve.noQRCode", .string(failure.reason)))
    }
  }
}
