/// Writes a run's reports into its folder: `junit.xml` and `index.html`, and on request
/// reg-cli's `reg.json`.
public enum RunReports {
  /// Renders `junit.xml` and `index.html` from `record` into `folder`, atomically.
  public static func write(_ record: RunRecord, to folder: RunFolder) throws {
    try folder.confinement.write(Array(JUnitReport.render(record).utf8), to: folder.path + "/" + JUnitReport.fileName)
    try folder.confinement.write(Array(HTMLReport.render(record).utf8), to: folder.path + "/" + HTMLReport.fileName)
  }

  /// Writes reg-cli's `reg.json` for the run to `path`, its folders relative to the file.
  public static func writeRegJSON(_ record: RunRecord, folder: RunFolder, to path: String) throws {
    let absolute = FileSystem.absolute(path)
    let directory = PathText.parent(of: absolute)
    let json = RegJSONReport.render(record) { relative in
      FileSystem.relativePath(from: directory, to: folder.resolve(relative))
    }
    try FileIO.writeAtomically(Array(json.utf8), to: absolute)
  }
}
