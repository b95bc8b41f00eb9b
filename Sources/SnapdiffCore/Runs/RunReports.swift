/// Writes a run's reports into its folder: `junit.xml` and `index.html`.
public enum RunReports {
  public static func write(_ record: RunRecord, to folder: RunFolder) throws {
    // Filled in when the report renderers land.
  }
}

extension RunReports {
  /// Writes reg-cli's `reg.json` for the run at `path`.
  public static func writeRegJSON(_ record: RunRecord, folder: RunFolder, to path: String) throws {
  }
}
