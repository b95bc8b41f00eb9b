/// The branch a run's frames come from and the branch it was forked from, when the command
/// line does not say: from the CI's variables (``CIPlatform``: a pull or merge request's source
/// and target, else the branch built and, where the CI names it, the default branch), else from
/// git's `HEAD` (read from `.git`, no process started; no base). `--branch auto`
/// (``AutoBranch``) asks git for the base too.
///
/// ```swift
/// let (branch, base) = RunBranch.detect(environment: ProcessEnvironment.variables, directory: ".")
/// ```
public enum RunBranch {
  public static func detect(environment: [String: String], directory: String) -> (branch: String?, base: String?) {
    if let ci = CIPlatform.branch(in: environment) { return (ci.branch, ci.base == ci.branch ? nil : ci.base) }
    return (gitHead(from: directory), nil)
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
