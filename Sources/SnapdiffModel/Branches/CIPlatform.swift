/// A CI service's documented variables that name the branch being built and, for a pull or
/// merge request, the branch it targets. The one table of them: `--branch auto`
/// (``AutoBranch``) and `check`'s default branch read it.
public struct CIPlatform: Sendable {
  /// `GitHub Actions`.
  public var name: String
  /// A pull (merge) request's source branch and target branch: both set on a request build.
  var requestBranch: String
  var requestBase: String
  /// A branch build's branch, first set wins.
  var branch: [String]
  /// Only when this variable has this value (`GITHUB_REF_NAME` names a tag on a tag build).
  var branchCondition: (variable: String, value: String)?
  /// The repository's default branch, when the CI says it.
  var defaultBranch: String?
  /// A prefix the branch variable may carry (`origin/` in Jenkins' `GIT_BRANCH`).
  var remotePrefix: String?
  /// Variables of which one must be set for the platform to count: Jenkins' `BRANCH_NAME` and
  /// `GIT_BRANCH` are names other tools and shells use too.
  var markers: [String] = []
  /// The commit being built (`GITHUB_SHA`), recorded with a run: flaky snapshots are found among
  /// runs of the same commit.
  var commitVariable: String? = nil

  /// In the order they are tried.
  public static let all: [CIPlatform] = [
    // https://docs.github.com/en/actions/reference/variables-reference: GITHUB_HEAD_REF and
    // GITHUB_BASE_REF are set on pull_request(_target) events only; GITHUB_REF_NAME is the
    // branch or the tag, which GITHUB_REF_TYPE tells apart. No variable names the default branch.
    CIPlatform(
      name: "GitHub Actions", requestBranch: "GITHUB_HEAD_REF", requestBase: "GITHUB_BASE_REF",
      branch: ["GITHUB_REF_NAME"], branchCondition: ("GITHUB_REF_TYPE", "branch"), commitVariable: "GITHUB_SHA"),
    // https://docs.gitlab.com/ci/variables/predefined_variables/: CI_MERGE_REQUEST_* in merge
    // request pipelines, CI_COMMIT_BRANCH in branch pipelines (not in merge request ones).
    CIPlatform(
      name: "GitLab CI", requestBranch: "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
      requestBase: "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", branch: ["CI_COMMIT_BRANCH"],
      defaultBranch: "CI_DEFAULT_BRANCH", commitVariable: "CI_COMMIT_SHA"),
    // https://devcenter.bitrise.io/en/references/available-environment-variables.html:
    // BITRISE_GIT_BRANCH is the source branch; BITRISEIO_GIT_BRANCH_DEST the pull request's target.
    CIPlatform(
      name: "Bitrise", requestBranch: "BITRISE_GIT_BRANCH", requestBase: "BITRISEIO_GIT_BRANCH_DEST",
      branch: ["BITRISE_GIT_BRANCH"], commitVariable: "BITRISE_GIT_COMMIT"),
    // https://developer.apple.com/documentation/xcode/environment-variable-reference:
    // CI_PULL_REQUEST_SOURCE_BRANCH / CI_PULL_REQUEST_TARGET_BRANCH on pull request builds,
    // CI_BRANCH on branch builds.
    CIPlatform(
      name: "Xcode Cloud", requestBranch: "CI_PULL_REQUEST_SOURCE_BRANCH",
      requestBase: "CI_PULL_REQUEST_TARGET_BRANCH", branch: ["CI_BRANCH"], commitVariable: "CI_COMMIT"),
    // A Jenkins' own ${JENKINS_URL}env-vars.html (Pipeline: Multibranch,
    // https://plugins.jenkins.io/workflow-multibranch): CHANGE_BRANCH and CHANGE_TARGET for a
    // change request in a multibranch project (BRANCH_NAME is then `PR-24`), BRANCH_NAME for a
    // branch; the git plugin's GIT_BRANCH (`origin/main`) in other jobs. Only where Jenkins'
    // JENKINS_URL or JENKINS_HOME says it is Jenkins.
    CIPlatform(
      name: "Jenkins", requestBranch: "CHANGE_BRANCH", requestBase: "CHANGE_TARGET",
      branch: ["BRANCH_NAME", "GIT_BRANCH"], remotePrefix: "origin/", markers: ["JENKINS_URL", "JENKINS_HOME"],
      commitVariable: "GIT_COMMIT"),
  ]

  /// Every variable that names the branch, for error messages.
  public static var variableNames: String {
    var names: [String] = []
    for platform in all {
      for name in [platform.requestBranch] + platform.branch where !names.contains(name) {
        names.append(name)
      }
    }
    return names.joined(separator: ", ")
  }

  /// The branch (and base, when the CI says it) from the first platform whose variables name
  /// a branch: a request build's source and target, else a branch build's branch and the
  /// repository's default branch.
  public static func branch(in environment: [String: String]) -> (branch: String, base: String?, source: String)? {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    for platform in all {
      if !platform.markers.isEmpty, !platform.markers.contains(where: { value($0) != nil }) { continue }
      if let branch = value(platform.requestBranch), let base = value(platform.requestBase) {
        return (
          platform.trimmed(branch), platform.trimmed(base),
          "\(platform.name) pull request (\(platform.requestBranch), \(platform.requestBase))"
        )
      }
      if let condition = platform.branchCondition, value(condition.variable) != condition.value { continue }
      for variable in platform.branch {
        guard let branch = value(variable) else { continue }
        let base = platform.defaultBranch.flatMap(value).map(platform.trimmed)
        let names = [variable] + (base == nil ? [] : [platform.defaultBranch!])
        return (platform.trimmed(branch), base, "\(platform.name) (\(names.joined(separator: ", ")))")
      }
    }
    return nil
  }

  /// The commit being built, from the first platform (its markers set) whose commit variable
  /// is set; `nil` outside a CI.
  public static func commit(in environment: [String: String]) -> String? {
    func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    for platform in all {
      if !platform.markers.isEmpty, !platform.markers.contains(where: { value($0) != nil }) { continue }
      if let commit = platform.commitVariable.flatMap(value) { return commit }
    }
    return nil
  }

  private func trimmed(_ branch: String) -> String {
    guard let remotePrefix, branch.hasPrefix(remotePrefix), branch.count > remotePrefix.count else { return branch }
    return String(branch.dropFirst(remotePrefix.count))
  }
}
