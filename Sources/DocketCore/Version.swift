/// Docket's version, as `docket --version` prints it.
public enum DocketVersion {
  public static let current = "0.1.0"
}
