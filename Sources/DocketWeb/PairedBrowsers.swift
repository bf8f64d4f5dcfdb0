import Database
import DocketCore
import Foundation

/// A browser paired with `docket serve`: a device of this database, named for people ("Safari on
/// iPhone"), that stays paired across restarts of the server until it is revoked
/// (`docket browsers revoke`). Its cookie holds its id and a secret; the database keeps the
/// secret's SHA-256 only.
public struct PairedBrowser: Equatable, Sendable {
  public var id: UUID
  public var name: String
  public var paired: Date
  /// When it last asked for something (kept to the hour, so that reading writes seldom).
  public var seen: Date
}

/// What a browser's cookie holds: which paired browser it is, and its secret.
public struct BrowserCredential: Equatable, Sendable {
  public var id: UUID
  public var secret: String

  /// `ID.SECRET`, as the cookie holds it; nil for anything else.
  public init?(cookie: String) {
    let parts = cookie.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let id = UUID(text: String(parts[0])), parts[1].utf8.count == 64,
      parts[1].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else { return nil }
    self.id = id
    secret = String(parts[1])
  }

  public init(id: UUID, secret: String) {
    self.id = id
    self.secret = secret
  }

  public var cookie: String { id.lowercasedText + "." + secret }
}

extension Connection {
  static let browserKeyPrefix = "web_browser:"
  /// How stale a browser's `seen` may grow before a request writes it again.
  static let browserSeenGranularity: TimeInterval = 3600

  /// The browsers paired with this database, the first paired first.
  public func pairedBrowsers() throws -> [PairedBrowser] {
    try fetchAll(
      """
      SELECT substr(key, \(Self.browserKeyPrefix.count + 1)), json_extract(value, '$.name'),
        json_extract(value, '$.paired'), json_extract(value, '$.seen')
      FROM settings WHERE key LIKE '\(Self.browserKeyPrefix)%' AND json_valid(value)
      """
    ) { row -> PairedBrowser? in
      guard let id = UUID(text: try row.get(0, as: String.self)),
        let name = try row.get(1, as: String?.self),
        let paired = try row.get(2, as: Double?.self)
      else { return nil }
      let seen = try row.get(3, as: Double?.self) ?? paired
      return PairedBrowser(
        id: id, name: name, paired: Date(timeIntervalSince1970: paired),
        seen: Date(timeIntervalSince1970: seen))
    }
    .compactMap { $0 }
    .sorted { ($0.paired, $0.id.lowercasedText) < ($1.paired, $1.id.lowercasedText) }
  }

  /// Pairs a browser under `name`, made unique among the paired ("Chrome on Android 2").
  @discardableResult
  public func pairBrowser(_ credential: BrowserCredential, name: String, now: Date) throws
    -> PairedBrowser
  {
    try transaction {
      let taken = Set(try pairedBrowsers().map { $0.name.lowercased() })
      var unique = name
      var number = 2
      while taken.contains(unique.lowercased()) {
        unique = "\(name) \(number)"
        number += 1
      }
      try execute(
        """
        INSERT OR REPLACE INTO settings (key, value)
        VALUES (?, json_object('name', ?, 'secret', ?, 'paired', ?, 'seen', ?))
        """,
        [
          Self.browserKeyPrefix + credential.id.lowercasedText, unique,
          SHA256.hex(credential.secret), now.timeIntervalSince1970, now.timeIntervalSince1970,
        ])
      return PairedBrowser(id: credential.id, name: unique, paired: now, seen: now)
    }
  }

  /// The paired browser a credential is, when its secret is the one paired; nil otherwise (never
  /// paired, or revoked).
  func pairedBrowser(_ credential: BrowserCredential) throws -> PairedBrowser? {
    guard
      let found = try fetchOne(
        """
        SELECT json_extract(value, '$.name'), json_extract(value, '$.secret'),
          json_extract(value, '$.paired'), json_extract(value, '$.seen')
        FROM settings WHERE key = ? AND json_valid(value)
        """, [Self.browserKeyPrefix + credential.id.lowercasedText],
        { row in
          (
            try row.get(0, as: String?.self), try row.get(1, as: String?.self),
            try row.get(2, as: Double?.self), try row.get(3, as: Double?.self)
          )
        }),
      let name = found.0, let secret = found.1, let paired = found.2,
      WebSecurity.same(secret, SHA256.hex(credential.secret))
    else { return nil }
    return PairedBrowser(
      id: credential.id, name: name, paired: Date(timeIntervalSince1970: paired),
      seen: Date(timeIntervalSince1970: found.3 ?? paired))
  }

  /// Notes that a paired browser asked for something at `now`.
  func noteBrowserSeen(_ id: UUID, now: Date) throws {
    try execute(
      "UPDATE settings SET value = json_set(value, '$.seen', ?) WHERE key = ? AND json_valid(value)",
      [now.timeIntervalSince1970, Self.browserKeyPrefix + id.lowercasedText])
  }

  /// Unpairs a browser: its cookie is refused from its next request on. False when no browser
  /// had the id.
  @discardableResult
  public func revokeBrowser(_ id: UUID) throws -> Bool {
    try execute("DELETE FROM settings WHERE key = ?", [Self.browserKeyPrefix + id.lowercasedText])
    return changedRowCount > 0
  }

  /// A secret of the web app that lasts across starts (the CSRF token, the cookie's name),
  /// made the first time.
  public func webSecret(_ name: String, make: () -> String) throws -> String {
    let key = "web_" + name
    return try transaction {
      if let stored = try fetchOne(
        "SELECT value FROM settings WHERE key = ?", [key], as: String.self), !stored.isEmpty
      {
        return stored
      }
      let made = make()
      try execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", [key, made])
      return made
    }
  }
}

/// A name for a browser from its `User-Agent`, as people call it: "Safari on iPhone", "Firefox
/// on Linux", "w3m".
enum BrowserName {
  static func of(userAgent: String?, on: (String, String) -> String) -> String {
    let agent = userAgent ?? ""
    let browser: String = {
      let known: [(mark: String, name: String)] = [
        ("Edg/", "Edge"), ("Edge/", "Edge"), ("OPR/", "Opera"),
        ("SamsungBrowser/", "Samsung Internet"),
        ("FxiOS/", "Firefox"), ("Firefox/", "Firefox"), ("CriOS/", "Chrome"),
        ("Chromium/", "Chromium"), ("HeadlessChrome/", "Chrome"), ("Chrome/", "Chrome"),
        ("Safari/", "Safari"), ("w3m/", "w3m"), ("Lynx/", "Lynx"), ("ELinks", "ELinks"),
        ("curl/", "curl"),
      ]
      return known.first { agent.contains($0.mark) }?.name ?? "Browser"
    }()
    let platforms: [(mark: String, name: String)] = [
      ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
      ("Macintosh", "Mac"), ("Windows", "Windows"), ("Linux", "Linux"),
    ]
    guard let platform = platforms.first(where: { agent.contains($0.mark) })?.name else {
      return browser
    }
    return on(browser, platform)
  }
}
