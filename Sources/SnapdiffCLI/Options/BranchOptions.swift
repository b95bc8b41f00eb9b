import ArgumentParser
import SnapdiffCore

/// `--branch NAME|auto` and `--base-branch NAME`, for `check` and `test`.
struct BranchOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The branch the frames come from, or auto: from the CI's variables (GitHub Actions, GitLab CI, Bitrise, Xcode Cloud, Jenkins), else git's checked-out branch, with its base (on the default branch: none, so no overlay).",
      valueName: "name|auto"))
  var branch: String?

  @Option(
    help: ArgumentHelp(
      "The branch it was forked from (with --branch auto, default: the CI's target branch, else git's default branch).",
      valueName: "name"))
  var baseBranch: String?

  /// A name whose overlay folder could not exist (over 255 bytes encoded, …) is refused before
  /// any work, with the flag's name (exit 64).
  func validate() throws {
    try BranchArguments.validate([("--branch", branch), ("--base-branch", baseBranch)])
  }

  /// The branch and base: the flags' names; for `auto`, ``AutoBranch``'s answer (printed on
  /// standard error unless `quiet`), each flag given by name still winning, and the merge-base
  /// git found (recorded in run.json); without `--branch`, `absent` (what the command does then).
  ///
  /// - Throws: `ConfigurationError` when `auto` finds no branch (exit 2).
  func resolved(
    environment: [String: String], quiet: Bool, absent: () -> (branch: String?, base: String?)
  ) throws -> (branch: String?, base: String?, mergeBase: String?) {
    guard let branch else {
      let detected = absent()
      return (detected.branch, baseBranch ?? detected.base, nil)
    }
    guard branch == AutoBranch.keyword else { return (branch, baseBranch, nil) }
    var auto = try AutoBranch.resolve(environment: environment, git: GitCommand.runner(environment: environment))
    if let baseBranch {
      auto.base = baseBranch == auto.branch ? nil : baseBranch
      auto.isDefaultBranch = baseBranch == auto.branch
      auto.mergeBase = nil
      auto.source += "; base from --base-branch"
    }
    if !quiet { Console.status("snapdiff: --branch auto: \(auto)\n") }
    return (auto.branch, auto.base, auto.mergeBase)
  }
}
