import Files
import Foundation

/// A password given in a PostgreSQL address goes to libpq's password file (`~/.pgpass`, or
/// `PGPASSFILE`), readable by its owner only, and the address is kept without it: Docket's settings
/// never hold a password, and libpq finds it there on every sync.
public enum PostgresPasswordFile {
  /// The file libpq reads.
  public static func path(environment: [String: String]) -> String {
    if let file = environment["PGPASSFILE"], !file.isEmpty { return file }
    return (environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass"
  }

  /// The line for a connection's parameters as libpq parsed them
  /// (`host:port:database:user:password`, `:` and `\` escaped); nil without a password.
  static func line(for parameters: [String: String], environment: [String: String] = [:])
    -> String?
  {
    guard let password = parameters["password"] else { return nil }
    // What the address leaves out, libpq takes from PGHOST, PGPORT, PGDATABASE and PGUSER.
    var parameters = parameters
    for (key, variable) in [
      ("host", "PGHOST"), ("port", "PGPORT"), ("dbname", "PGDATABASE"), ("user", "PGUSER"),
    ] where parameters[key] == nil {
      parameters[key] = environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }
    func escaped(_ field: String) -> String {
      field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:")
    }
    // A socket's folder is matched by `localhost`; what the address leaves out, by `*`.
    var host = parameters["host"] ?? "localhost"
    if host.hasPrefix("/") || host.isEmpty { host = "localhost" }
    let fields = [
      escaped(host), parameters["port"].map(escaped) ?? "*",
      parameters["dbname"].map(escaped) ?? "*",
      parameters["user"].map(escaped) ?? "*", escaped(password),
    ]
    return fields.joined(separator: ":")
  }

  /// Writes the password of `parameters` into the file at `path`, first, in place of a line for
  /// the same host, port, database and user, and leaves the file readable by its owner only.
  /// The other lines are kept byte for byte (whatever their encoding); a file that is there but
  /// cannot be read is an error, never taken for an empty one. A link is followed: the file it
  /// names is replaced, and the link stays.
  public static func store(
    _ parameters: [String: String], at path: String, environment: [String: String]
  ) throws {
    guard let line = line(for: parameters, environment: environment) else { return }
    let key = line.keyFields
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var lines = try contents(of: target).split(separator: 0x0A, omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    lines.removeAll { String(decoding: $0, as: UTF8.self).keyFields == key }
    var bytes = Array(line.utf8) + [0x0A]
    for kept in lines { bytes += kept + [0x0A] }
    do {
      try FileReplacement.replace(target, mode: 0o600) { descriptor in
        bytes.withUnsafeBytes { FileWriting.writeAll(descriptor, $0) }
      }
    } catch let failure as FileReplacement.Failure {
      throw POSIXError(POSIXErrorCode(rawValue: failure.code) ?? .EIO)
    }
  }

  /// The file's bytes; none where there is no file.
  private static func contents(of path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return [] }
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      if count == 0 { return bytes }
      bytes += buffer[..<count]
    }
  }
}

extension String {
  /// A password-file line's first four fields (escapes kept), which say what it is for.
  fileprivate var keyFields: [Substring] {
    var fields: [Substring] = []
    var start = startIndex
    var index = startIndex
    var escaping = false
    while index < endIndex, fields.count < 4 {
      let character = self[index]
      if escaping {
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == ":" {
        fields.append(self[start..<index])
        start = self.index(after: index)
      }
      index = self.index(after: index)
    }
    return fields
  }
}
