import Foundation

/// A remote as a person writes it, read the one way every face reads it: a PostgreSQL server
/// (`postgres://…`, `postgresql://…`, or libpq's keyword form `host=… dbname=… user=…`), or else
/// a folder's path. A password in a server's address is never shown (`redacted`) and never kept
/// (`withoutPassword`): `docket remote set` moves it to libpq's password file.
public enum RemoteAddress: Equatable, Sendable {
  case folder(String)
  /// A connection string as libpq reads it, a URL or keywords.
  case postgres(String)

  public init(_ text: String) {
    self = Self.isPostgres(text) ? .postgres(text) : .folder(text)
  }

  /// Whether `text` names a PostgreSQL server rather than a folder.
  private static func isPostgres(_ text: String) -> Bool {
    isURL(text) || isKeywords(text)
  }

  /// `postgres://…` or `postgresql://…`, the scheme in any case.
  public static func isURL(_ text: String) -> Bool {
    let lowered = text.drop { $0 == " " }.prefix(13).lowercased()
    return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
  }

  /// libpq's keyword form: it starts with one of libpq's keywords and `=` (`host=db dbname=x`).
  /// A folder's path may hold `=` too (`~/sync/a=b`), but not start with a keyword of libpq's
  /// followed by it.
  /// Decided by the first pair alone: the rest, a quote left open or a password with a quote in
  /// it, is libpq's to refuse, never a folder made under a name with a password in it.
  public static func isKeywords(_ text: String) -> Bool {
    guard let first = keywords(text, firstOnly: true).first, !first.value.isEmpty else {
      return false
    }
    return libpqKeywords.contains(first.key.lowercased())
  }

  /// The parameters libpq takes in a connection string.
  static let libpqKeywords: Set<String> = [
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding",
    "connect_timeout", "client_encoding", "options", "application_name",
    "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
    "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode", "requiressl",
    "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl",
    "sslcrldir", "sslsni", "requirepeer", "require_auth", "ssl_min_protocol_version",
    "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service",
    "target_session_attrs", "load_balance_hosts",
  ]

  /// The keyword form's pairs, each with the range of its value in `text` (quotes included), as
  /// libpq splits them: `key = value`, a value in single quotes with `\'` and `\\` inside.
  /// Empty when `text` is not of that form.
  static func keywords(_ text: String, firstOnly: Bool = false) -> [(
    key: String, value: Range<String.Index>, pair: Range<String.Index>
  )] {
    var pairs: [(key: String, value: Range<String.Index>, pair: Range<String.Index>)] = []
    var index = text.startIndex
    func skipSpace() {
      while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
    }
    while true {
      skipSpace()
      guard index < text.endIndex else { return pairs }
      let keyStart = index
      while index < text.endIndex,
        text[index].isLetter || text[index].isNumber || text[index] == "_"
      {
        index = text.index(after: index)
      }
      let key = String(text[keyStart..<index])
      skipSpace()
      guard !key.isEmpty, index < text.endIndex, text[index] == "=" else { return [] }
      index = text.index(after: index)
      skipSpace()
      let valueStart = index
      if index < text.endIndex, text[index] == "'" {
        index = text.index(after: index)
        var closed = false
        while index < text.endIndex {
          if text[index] == "\\" {
            index = text.index(after: index)
            if index < text.endIndex { index = text.index(after: index) }
            continue
          }
          if text[index] == "'" {
            index = text.index(after: index)
            closed = true
            break
          }
          index = text.index(after: index)
        }
        guard closed else { return [] }
      } else {
        // Unquoted, a backslash takes the character after it (`\ ` a space), as libpq reads it.
        while index < text.endIndex, !text[index].isWhitespace {
          if text[index] == "\\" {
            index = text.index(after: index)
            if index == text.endIndex { break }
          }
          index = text.index(after: index)
        }
      }
      pairs.append((key, valueStart..<index, keyStart..<index))
      if firstOnly { return pairs }
    }
  }

  /// The address with any password in it replaced by `***`, for a message about it.
  public static func redacted(_ address: String) -> String {
    replacingPassword(in: address, with: "***")
  }

  /// The address without its password: what the settings keep.
  public static func withoutPassword(_ address: String) -> String {
    replacingPassword(in: address, with: nil)
  }

  /// The address with its password (a URL's user information or `password=` parameter, or the
  /// keyword `password`) replaced by `replacement`, or taken out when it is nil.
  static func replacingPassword(in address: String, with replacement: String?) -> String {
    if !isURL(address) {
      let pairs = keywords(address)
      guard !pairs.isEmpty else {
        // Keywords libpq will refuse: from a `password` on, nothing is known to be safe to show
        // or keep.
        guard let at = address.range(of: "password", options: .caseInsensitive) else {
          return address
        }
        return String(address[..<at.lowerBound]) + (replacement.map { "password=" + $0 } ?? "")
      }
      var text = address
      // From the end, so that the ranges before stay where they are.
      for pair in pairs.reversed() where pair.key.lowercased() == "password" {
        if let replacement {
          text.replaceSubrange(pair.value, with: replacement)
        } else {
          text.removeSubrange(pair.pair)
        }
      }
      return replacement == nil
        ? text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") : text
    }
    guard let scheme = address.range(of: "://") else { return address }
    var text = address
    // The user information ends where libpq ends it: at the first `@`, unless a `/` comes first
    // (then there is none). A password may hold `?`, `:` and `&`; a `/` or `@` in it is written
    // percent-encoded. Words shown to a person hide more: a password typed with a bare `/` or `@`
    // makes an address libpq refuses, and the error that says so must not show it, so there the
    // user information runs to the last `@` before the parameters.
    // (the last before the first `/`, else before the first `?`: a password may hold either).
    let afterScheme = text[scheme.upperBound...]
    let end =
      replacement == nil
      ? afterScheme.firstIndex { $0 == "@" || $0 == "/" }
      : afterScheme[..<(afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex)].lastIndex(
        of: "@")
        ?? afterScheme[..<(afterScheme.firstIndex(of: "?") ?? afterScheme.endIndex)].lastIndex(
          of: "@")
    if let end, text[end] == "@",
      let colon = text[scheme.upperBound..<end].firstIndex(of: ":")
    {
      text.replaceSubrange(
        replacement == nil ? colon..<end : text.index(after: colon)..<end, with: replacement ?? "")
    }
    // And a `password=` among the parameters (its key percent-encoded or not).
    guard let start = text.range(of: "://")?.upperBound else { return text }
    let userEnd = text[start...].firstIndex { $0 == "@" || $0 == "/" }
    let hostStart = userEnd.flatMap { text[$0] == "@" ? text.index(after: $0) : nil } ?? start
    if let query = text[hostStart...].firstIndex(of: "?") {
      let parameters = text[text.index(after: query)...].split(
        separator: "&", omittingEmptySubsequences: false
      ).compactMap { parameter -> String? in
        let key = parameter.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        guard (key.removingPercentEncoding ?? key).lowercased() == "password" else {
          return String(parameter)
        }
        return replacement.map { "password=" + $0 }
      }
      text =
        String(text[..<query]) + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    }
    return text
  }
}
