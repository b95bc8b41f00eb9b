import SnapdiffCore

/// What `check` and `merge` add on GitHub Actions, when `GITHUB_STEP_SUMMARY` names the step's
/// summary file: the run's summary appended to it (``GitHubJobSummary``), and an `::error`
/// annotation on standard output for each snapshot that fails the run
/// (``GitHubWorkflowCommand``). Nothing elsewhere: exit codes and the other reports are the same
/// on every CI.
enum GitHubOutput {
  /// The variable GitHub sets to the step's summary file.
  static let summaryVariable = "GITHUB_STEP_SUMMARY"

  /// Appends the summary and prints the annotations when `GITHUB_STEP_SUMMARY` is set.
  ///
  /// - Parameters:
  ///   - report: the run's `index.html` as the user can type it.
  ///   - failing: whether a snapshot fails the run (as the exit status decides).
  /// - Throws: `FileError` when the summary file cannot be written (exit 2: the summary is
  ///   part of what was asked for).
  static func write(
    _ run: RunRecord, report: String, environment: [String: String] = ProcessEnvironment.variables,
    failing: (SnapshotRecord) -> Bool
  ) throws {
    guard let summaryPath = environment[summaryVariable], !summaryPath.isEmpty else { return }
    let markdown = GitHubJobSummary.markdown(
      run, failing: failing, report: report, artifactsURL: artifactsURL(environment))
    try reportingErrors { _ = try FileIO.appendLine(Array(markdown.utf8), to: summaryPath) }
    let failures = run.snapshots.filter(failing).sorted { ($0.status, $0.key) < ($1.status, $1.key) }
    for line in GitHubWorkflowCommand.annotations(for: failures, report: report) { print(line) }
  }

  /// The workflow run's page, where its artifacts are listed:
  /// `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID`.
  static func artifactsURL(_ environment: [String: String]) -> String? {
    guard let server = environment["GITHUB_SERVER_URL"], !server.isEmpty,
      let repository = environment["GITHUB_REPOSITORY"], !repository.isEmpty,
      let runID = environment["GITHUB_RUN_ID"], !runID.isEmpty
    else { return nil }
    return "\(server)/\(repository)/actions/runs/\(runID)"
  }
}
