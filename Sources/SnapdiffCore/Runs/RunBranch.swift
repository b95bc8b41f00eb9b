/// The branch a run's frames come from and the branch it was forked from, when the command
/// line does not say: from CI variables (GitHub Actions' pull requests `GITHUB_HEAD_REF` /
/// `GITHUB_BASE_REF`, GitLab's merge requests `CI_MERGE_REQUEST_SOURCE_BRANCH_NAME` /
/// `CI_MERGE_REQUEST_TARGET_BRANCH_NAME`; on a push, `GITHUB_REF_NAME` or `CI_COMMIT_BRANCH`),
/// else from git's `HEAD` (read from `.git`, no process started). The base branch is known only
/// from CI variables.
///
/// ```swift
/// let (branch, base) = RunBranch.detect(environment: ProcessEnvironment.variables, directory: ".")
/// ```
public enum RunBranch {
  public static func detect(environment: [String: String], directory: String) -> (branch: String?, base: String?) {
    func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
    let pushBranch = environment["GITHUB_REF_TYPE"] == "branch" ? variable("GITHUB_REF_NAME") : nil
    let branch =
      variable("GITHUB_HEAD_REF") ?? variable("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") ?? pushBranch
      ?? variable("CI_COMMIT_BRANCH") ?? gitHead(from: directory)
    let base = variable("GITHUB_BASE_REF") ?? variable("CI_MERGE_REQUEST_TARGET_BRANCH_NAME")
    return (branch, base)
  }

  /// The branch git's `HEAD` names in `directory` or the nearest folder above it with a
  /// `.git` (a folder, or a worktree's file `gitdir: PATH`); `nil` when detached or not in git.
  public static func gitHead(from directory: String) -> String? {
    var folder = FileSystem.absolute(directory)
    while true {
      let dotGit = folder + "/.git"
      var gitDirectory: String?
      if FileSystem.isDirectory(dotGit) {
        gitDirectory = dotGit
      } else if FileSystem.isFile(dotGit), let text = try? FileIO.read(dotGit, limit: 1 << 16) {
        let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first ?? ""
        if line.hasPrefix("gitdir: ") {
          gitDirectory = FileSystem.absolute(String(line.dropFirst(8)), relativeTo: folder)
        }
      }
      if let gitDirectory {
        guard let head = try? FileIO.read(gitDirectory + "/HEAD", limit: 1 << 16) else { return nil }
        let line = String(decoding: head, as: UTF8.self).split(separator: "\n").first ?? ""
        let prefix = "ref: refs/heads/"
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
      }
      guard let slash = folder.lastIndex(of: "/"), folder != "/" else { return nil }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
  }
}
