/// Where Docket keeps its database.
public enum DatabaseLocation {
  public enum Platform: Sendable {
    case linux, macOS

    public static var current: Platform {
      #if os(macOS)
        return .macOS
      #else
        return .linux
      #endif
    }
  }

  /// The database path: `--db PATH` when given (an explicit choice wins over the environment),
  /// else `$DOCKET_DB`, else the platform's data folder: `$XDG_DATA_HOME/docket/docket.sqlite`
  /// (`~/.local/share/…` when unset) on Linux, `~/Library/Application Support/Docket/…` on macOS.
  public static func path(
    flag: String?, environment: [String: String], platform: Platform = .current
  ) -> String {
    let home = environment["HOME"] ?? "/"
    if let flag, !flag.isEmpty { return expandingTilde(flag, home: home) }
    if let variable = environment["DOCKET_DB"], !variable.isEmpty {
      return expandingTilde(variable, home: home)
    }
    switch platform {
    case .macOS:
      return join(home, "Library/Application Support/Docket/docket.sqlite")
    case .linux:
      if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
        return join(dataHome, "docket/docket.sqlite")
      }
      return join(home, ".local/share/docket/docket.sqlite")
    }
  }

  static func expandingTilde(_ path: String, home: String) -> String {
    if path == "~" { return home }
    if path.hasPrefix("~/") { return join(home, String(path.dropFirst(2))) }
    return path
  }

  static func join(_ folder: String, _ rest: String) -> String {
    folder.hasSuffix("/") ? folder + rest : folder + "/" + rest
  }
}
