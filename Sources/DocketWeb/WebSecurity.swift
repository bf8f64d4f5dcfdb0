import Foundation
import HTTPServer

/// The rules every request passes before it reaches a page: the Host it names, the pairing code
/// or a paired browser's cookie, and for a change the CSRF token and the Origin.
public struct WebSecurity: Sendable {
  /// The pairing code of this start, printed in the address `docket serve` shows: a browser that
  /// opens it is paired, and its cookie keeps it paired across starts.
  public let token: String
  /// The secret every form carries back (kept in the database, so that a page open across a
  /// restart of the server can still post).
  public let csrf: String
  /// Host names (lower case, without port) requests may name; others are refused, so a page of
  /// another site that rebinds its name to this address cannot read from it.
  public let allowedHosts: Set<String>
  public let usesTLS: Bool

  /// The name of the cookie a paired browser keeps. Each database names its own: cookies are
  /// shared by every port of a host, and two servers on one machine must not overwrite each
  /// other's.
  public let cookie: String
  public static let languageCookie = "docket_lang"

  public init(
    token: String, csrf: String, allowedHosts: Set<String>, usesTLS: Bool,
    cookie: String = "docket_token"
  ) {
    self.token = token
    self.cookie = cookie
    self.csrf = csrf
    self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
    self.usesTLS = usesTLS
  }

  /// A secret of 32 random bytes, as 64 hex digits.
  public static func randomSecret() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator))
    }
    .joined()
  }

  /// The names a server on `address` answers to: the loopback names, the address itself, this
  /// machine's name, and `extra`.
  public static func hosts(for address: String, extra: [String]) -> Set<String> {
    var hosts: Set<String> = ["localhost", "127.0.0.1", "::1"]
    if address != "0.0.0.0" && address != "::" { hosts.insert(address.lowercased()) }
    if address == "0.0.0.0" || address == "::" || !["127.0.0.1", "::1"].contains(address) {
      let name = ProcessInfo.processInfo.hostName.lowercased()
      if !name.isEmpty { hosts.insert(name) }
    }
    for name in extra { hosts.insert(name.lowercased()) }
    return hosts
  }

  /// The host name of a Host header without its port: `[::1]:8080` → `::1`.
  static func hostName(_ header: String) -> String {
    let value = header.lowercased()
    if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
      return String(value[value.index(after: value.startIndex)..<end])
    }
    if let colon = value.lastIndex(of: ":"), value.filter({ $0 == ":" }).count == 1 {
      return String(value[..<colon])
    }
    return value
  }

  /// Whether a page served over TLS under `host` tells the browser to keep to https there
  /// (`Strict-Transport-Security`, for a day: it holds for every port of the name, and a
  /// `docket serve` without TLS under it would be shut out for as long). Not for loopback
  /// names, where it would hold for every other server on this machine, nor for addresses,
  /// which browsers do not keep it for.
  public static func keepsToHTTPS(host: String) -> Bool {
    let name = hostName(host)
    if name.isEmpty || name == "localhost" || name.hasSuffix(".localhost") { return false }
    if name.contains(":") { return false }
    return !name.allSatisfy { $0.isNumber || $0 == "." }
  }

  /// How the browser reached this server: whether over https, and the host (with its port)
  /// it asked for. A reverse proxy on this machine that terminates TLS says so with
  /// `X-Forwarded-Proto` and `X-Forwarded-Host`; from any other address they are ignored. (A
  /// proxy that passes on neither looks like a browser on this machine, and is taken as one.)
  func reached(_ request: HTTPRequest) -> (secure: Bool, host: String) {
    let host = request.header("Host") ?? ""
    guard request.fromLoopback else { return (usesTLS, host) }
    func last(_ name: String) -> String? {
      // A proxy adds to what came with the request: the last value is its own, the ones
      // before it the client's, which anyone can send.
      request.header(name)?.split(separator: ",").last.map {
        $0.trimmingCharacters(in: .whitespaces)
      }
    }
    let secure = last("X-Forwarded-Proto").map { $0.lowercased() == "https" } ?? usesTLS
    return (secure, last("X-Forwarded-Host") ?? host)
  }

  /// Whether `host` (a Host header's value) is only a name or an address and a port, safe to
  /// put in a whole address: nothing a URL would read as a user, a path or another host.
  static func isPlainHost(_ host: String) -> Bool {
    !host.isEmpty
      && host.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || ".-:[]".unicodeScalars.contains($0)
      }
  }

  /// The `Host` names a name this server answers to, and so does the host a proxy on this
  /// machine forwarded: a page whose name was pointed at this address is refused, whatever
  /// else it sends.
  func hostIsAllowed(_ request: HTTPRequest) -> Bool {
    guard let host = request.header("Host"), !host.isEmpty,
      allowedHosts.contains(Self.hostName(host))
    else { return false }
    let forwarded = reached(request).host
    return !forwarded.isEmpty && allowedHosts.contains(Self.hostName(forwarded))
  }

  /// The paired browser's credential the request's cookie holds, if it holds one.
  func credential(_ request: HTTPRequest) -> BrowserCredential? {
    request.cookies[cookie].flatMap { BrowserCredential(cookie: $0) }
  }

  func tokenMatches(_ value: String) -> Bool { Self.same(value, token) }

  /// A change may go ahead: the form carries the CSRF token and the request comes from this
  /// server's own pages. That is its `Origin`; a text browser (w3m, lynx) sends none, and then a
  /// browser's `Sec-Fetch-Site: same-origin` or a `Referer` on this server stands in for it.
  func changeIsAllowed(_ request: HTTPRequest) -> Bool {
    guard let sent = request.formValue("csrf"), Self.same(sent, csrf) else { return false }
    let (secure, host) = reached(request)
    guard !host.isEmpty else { return false }
    let own = (secure ? "https://" : "http://") + host.lowercased()
    if let origin = request.header("Origin") { return origin.lowercased() == own }
    if let site = request.header("Sec-Fetch-Site") { return site.lowercased() == "same-origin" }
    // Lynx sends no Referer from an address with a query, as every page's is. Every browser that
    // runs another site's pages sends Origin or Sec-Fetch-Site with a post, so a request with
    // none of the three is no such page's: the CSRF token, checked above, decides.
    guard let referer = request.header("Referer")?.lowercased() else { return true }
    guard referer.hasPrefix(own) else { return false }
    // The host must end where this server's does: not `localhost:8080.example.com`.
    let rest = referer.dropFirst(own.count)
    return rest.isEmpty || rest.first == "/" || rest.first == "?"
  }

  /// The cookie of a paired browser: sent only to this server, never to scripts, never on a
  /// request that another site starts; kept for 400 days (the longest browsers keep one), and
  /// sent again whenever the browser is seen, so that one in use never runs out.
  func pairingCookie(_ credential: BrowserCredential, secure: Bool) -> String {
    "\(cookie)=\(credential.cookie); Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict"
      + (secure ? "; Secure" : "")
  }

  func languageCookie(_ language: String, secure: Bool) -> String {
    "\(Self.languageCookie)=\(language); Path=/; Max-Age=31536000; HttpOnly; SameSite=Strict"
      + (secure ? "; Secure" : "")
  }

  /// Compares in time that does not depend on where the texts differ.
  static func same(_ left: String, _ right: String) -> Bool {
    let a = Array(left.utf8)
    let b = Array(right.utf8)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }

  /// The headers of every answer: only the app's own script and style, no framing, no sniffing,
  /// and no referrer to other sites. (The address that holds the token is left at once, and a
  /// browser told to send no referrer at all sends `Origin: null` with its own forms.)
  static let headers: [(name: String, value: String)] = [
    (
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; "
        + "frame-ancestors 'none'; base-uri 'none'"
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
  ]
}
