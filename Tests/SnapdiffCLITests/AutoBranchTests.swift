import Foundation
import SnapdiffCore
import Testing

/// `check --branch auto` (issue #31 item 4): the branch and its base from real git repositories
/// made here, and from CI-like environments passed to the real process.
@Suite("--branch auto")
struct AutoBranchTests {
  let home = "Home - test_search/Home"

  /// Every variable the resolution reads, emptied (empty counts as unset), so that the CI this
  /// suite runs on does not answer for the test; git stops at the workspace.
  func isolated(_ workspace: Workspace, _ environment: [String: String] = [:]) -> [String: String] {
    var variables: [String: String] = [
      "GIT_CEILING_DIRECTORIES": (workspace.root as NSString).deletingLastPathComponent
    ]
    for name in [
      "GITHUB_HEAD_REF", "GITHUB_BASE_REF", "GITHUB_REF_NAME", "GITHUB_REF_TYPE", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
      "CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "CI_COMMIT_BRANCH", "CI_DEFAULT_BRANCH", "BITRISE_GIT_BRANCH",
      "BITRISEIO_GIT_BRANCH_DEST", "CI_PULL_REQUEST_SOURCE_BRANCH", "CI_PULL_REQUEST_TARGET_BRANCH", "CI_BRANCH",
      "CHANGE_BRANCH", "CHANGE_TARGET", "BRANCH_NAME", "GIT_BRANCH", "JENKINS_URL", "JENKINS_HOME",
    ] {
      variables[name] = ""
    }
    return variables.merging(environment) { $1 }
  }

  /// `git arguments…` in the workspace, which must succeed; its output, trimmed.
  @discardableResult
  func git(_ workspace: Workspace, _ arguments: [String]) throws -> String {
    let identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]
    let output = try ExternalTool.run(["git"] + identity + arguments, in: workspace.root)
    #expect(output.status == 0, "git \(arguments.joined(separator: " ")): \(output.standardError)")
    return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A repository on `main` with one commit, then `feature/login` with one more.
  func repository(_ workspace: Workspace) throws {
    try git(workspace, ["init", "-q", "-b", "main"])
    try workspace.writeFrame(home, Workspace.screen([]))
    try git(workspace, ["add", "frames"])
    try git(workspace, ["commit", "-q", "-m", "first screen"])
    try git(workspace, ["checkout", "-q", "-b", "feature/login"])
    try workspace.writeFrame(home, Workspace.screen([PixelRect(x: 2, y: 2, width: 3, height: 3)]))
    try git(workspace, ["commit", "-q", "-am", "the screen changes"])
  }

  func recorded(_ workspace: Workspace) throws -> (String?, String?) {
    let run = try workspace.lastRun()
    return (run["branch"] as? String, run["baseBranch"] as? String)
  }

  @Test("git: a feature branch gets the default branch as its base and says the merge-base")
  func featureBranchFromGit() throws {
    try withWorkspace { workspace in
      try repository(workspace)
      let check = try workspace.snapdiff(["check", "frames", "--branch", "auto"], environment: isolated(workspace))
      #expect(check.status == 0, "\(check.standardError)")
      #expect(try recorded(workspace) == ("feature/login", "main"))
      let mergeBase = try git(workspace, ["merge-base", "HEAD", "main"])
      #expect(
        check.standardError.contains(
          "--branch auto: branch feature/login, base main (merge-base \(mergeBase.prefix(12))), from git (HEAD; "
            + "default branch from the branch named main)"), "\(check.standardError)")
    }
  }

  @Test("git: on the default branch, no base (no overlay)")
  func defaultBranchHasNoBase() throws {
    try withWorkspace { workspace in
      try repository(workspace)
      try git(workspace, ["checkout", "-q", "main"])
      let check = try workspace.snapdiff(["check", "frames", "--branch", "auto"], environment: isolated(workspace))
      #expect(check.status == 0, "\(check.standardError)")
      #expect(try recorded(workspace) == ("main", nil))
      #expect(check.standardError.contains("branch main (the default branch: no overlay)"), "\(check.standardError)")
    }
  }

  @Test("git: the default branch is what origin/HEAD points at, whatever its name")
  func defaultBranchFromOriginHead() throws {
    try withWorkspace { workspace in
      try repository(workspace)
      // As `git clone` leaves it for a repository whose default branch is `trunk`.
      try git(workspace, ["update-ref", "refs/remotes/origin/trunk", "main"])
      try git(workspace, ["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk"])
      try git(workspace, ["branch", "-q", "-m", "main", "old-main"])
      let check = try workspace.snapdiff(["check", "frames", "--branch", "auto"], environment: isolated(workspace))
      #expect(check.status == 0, "\(check.standardError)")
      #expect(try recorded(workspace) == ("feature/login", "trunk"))
      let mergeBase = try git(workspace, ["merge-base", "HEAD", "origin/trunk"])
      #expect(check.standardError.contains("merge-base \(mergeBase.prefix(12))"), "\(check.standardError)")
      #expect(check.standardError.contains("default branch from origin/HEAD"), "\(check.standardError)")
      // A base given by name still wins.
      let named = try workspace.snapdiff(
        ["check", "frames", "--branch", "auto", "--base-branch", "release"], environment: isolated(workspace))
      #expect(named.status == 0)
      #expect(try recorded(workspace) == ("feature/login", "release"))
    }
  }

  @Test("a detached HEAD without CI variables, or no repository: exit 2, saying what to pass")
  func detachedHeadIsAnError() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame(home, Workspace.screen([]))
      let outside = try workspace.snapdiff(["check", "frames", "--branch", "auto"], environment: isolated(workspace))
      #expect(outside.status == 2)
      #expect(outside.standardError.contains("not in a git repository"), "\(outside.standardError)")
      #expect(!FileManager.default.fileExists(atPath: workspace.root + "/.snapdiff/runs/last"))

      try repository(workspace)
      try git(workspace, ["checkout", "-q", "--detach", "HEAD"])
      let commit = try git(workspace, ["rev-parse", "--short", "HEAD"])
      let detached = try workspace.snapdiff(["check", "frames", "--branch", "auto"], environment: isolated(workspace))
      #expect(detached.status == 2)
      #expect(
        detached.standardError.contains("git's HEAD is detached at \(commit) and no CI variable names the branch"),
        "\(detached.standardError)")
      #expect(detached.standardError.contains("pass --branch NAME"))
    }
  }

  @Test("CI variables win over git's detached checkout: GitHub Actions pull request and push, GitLab, Jenkins")
  func branchesFromCIVariables() throws {
    try withWorkspace { workspace in
      try repository(workspace)
      try git(workspace, ["checkout", "-q", "--detach", "HEAD"])  // as actions/checkout leaves a pull request
      func check(_ environment: [String: String]) throws -> (ProcessOutput, (String?, String?)) {
        let output = try workspace.snapdiff(
          ["check", "frames", "--branch", "auto"], environment: isolated(workspace, environment))
        #expect(output.status == 0, "\(output.standardError)")
        return (output, try recorded(workspace))
      }

      let pullRequest = try check([
        "GITHUB_ACTIONS": "true", "GITHUB_HEAD_REF": "feature/login", "GITHUB_BASE_REF": "main",
        "GITHUB_REF_NAME": "7/merge", "GITHUB_REF_TYPE": "branch",
      ])
      #expect(pullRequest.1 == ("feature/login", "main"))
      let mergeBase = try git(workspace, ["merge-base", "HEAD", "main"])
      #expect(
        pullRequest.0.standardError.contains(
          "base main (merge-base \(mergeBase.prefix(12))), from GitHub Actions pull request (GITHUB_HEAD_REF, GITHUB_BASE_REF)"
        ), "\(pullRequest.0.standardError)")

      // A push to main: the default branch from git, so no base.
      let push = try check(["GITHUB_ACTIONS": "true", "GITHUB_REF_NAME": "main", "GITHUB_REF_TYPE": "branch"])
      #expect(push.1 == ("main", nil))
      #expect(push.0.standardError.contains("from GitHub Actions (GITHUB_REF_NAME)"), "\(push.0.standardError)")
      // A tag push names no branch: git's detached HEAD then is an error.
      let tag = try workspace.snapdiff(
        ["check", "frames", "--branch", "auto"],
        environment: isolated(workspace, ["GITHUB_REF_NAME": "v1.0", "GITHUB_REF_TYPE": "tag"]))
      #expect(tag.status == 2)

      let gitlab = try check(["CI_COMMIT_BRANCH": "feature/x", "CI_DEFAULT_BRANCH": "develop"])
      #expect(gitlab.1 == ("feature/x", "develop"))
      let mergeRequest = try check([
        "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "mr/one", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "develop",
      ])
      #expect(mergeRequest.1 == ("mr/one", "develop"))
      let xcodeCloud = try check(["CI_PULL_REQUEST_SOURCE_BRANCH": "pr/xc", "CI_PULL_REQUEST_TARGET_BRANCH": "main"])
      #expect(xcodeCloud.1 == ("pr/xc", "main"))
      let bitrise = try check(["BITRISE_GIT_BRANCH": "pr/bitrise", "BITRISEIO_GIT_BRANCH_DEST": "main"])
      #expect(bitrise.1 == ("pr/bitrise", "main"))
      // Jenkins' git plugin names the remote branch; a change request names its source. Not
      // Jenkins (no JENKINS_URL): GIT_BRANCH is someone else's, and the detached HEAD an error.
      let jenkinsURL = "https://ci.example.com/"
      let jenkins = try check(["JENKINS_URL": jenkinsURL, "GIT_BRANCH": "origin/feature/jenkins"])
      #expect(jenkins.1 == ("feature/jenkins", "main"))
      let change = try check([
        "JENKINS_URL": jenkinsURL, "BRANCH_NAME": "PR-24", "CHANGE_BRANCH": "feature/pr", "CHANGE_TARGET": "main",
      ])
      #expect(change.1 == ("feature/pr", "main"))
      let notJenkins = try workspace.snapdiff(
        ["check", "frames", "--branch", "auto"], environment: isolated(workspace, ["GIT_BRANCH": "origin/x"]))
      #expect(notJenkins.status == 2)
    }
  }

  @Test("snapdiff test --branch auto opens the service's run on the branch and its base: the branch's overlay")
  func testCommandOpensRunOnBranch() throws {
    try withWorkspace { workspace in
      try repository(workspace)
      try TestCommandTests.runner.write(toFile: workspace.root + "/runner.py", atomically: true, encoding: .utf8)
      try workspace.writeFrame("Home", Workspace.screen([]))
      let test = try workspace.snapdiff(
        ["test", "--branch", "auto", "--record", "missing", "--", "python3", "runner.py", "Home"],
        environment: isolated(workspace))
      #expect(test.status == 0, "\(test.standardOutput)\(test.standardError)")
      #expect(test.standardError.contains("--branch auto: branch feature/login, base main"), "\(test.standardError)")
      let summary = try #require(test.standardOutput.split(separator: "\n").first { $0.hasPrefix("Run ") })
      let run = String(summary.dropFirst(4).prefix { $0 != ":" })
      let data = try Data(contentsOf: URL(fileURLWithPath: workspace.root + "/.snapdiff/runs/\(run)/run.json"))
      let record = try JSONSerialization.jsonObject(with: data) as! [String: Any]
      #expect(record["branch"] as? String == "feature/login")
      #expect(record["baseBranch"] as? String == "main")
      // The new snapshot's baseline went to the branch's overlay, not the store.
      #expect(FileManager.default.fileExists(atPath: workspace.root + "/baselines/.branches/feature%2Flogin/Home.png"))
      #expect(!workspace.hasBaseline("Home"))
    }
  }
}
