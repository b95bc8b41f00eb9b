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
    guard let head = headLine(from: directory) else { return nil }
    let prefix = "ref: refs/heads/"
    return head.line.hasPrefix(prefix) ? String(head.line.dropFirst(prefix.count)) : nil
  }

  /// The commit the run's frames come from: the CI's variable (``CIPlatform/commit(in:)``),
  /// else the commit git's `HEAD` names in `directory` (read from `.git`: a detached `HEAD`'s
  /// hash, or its branch's ref, loose or packed); `nil` when neither says.
  public static func commit(environment: [String: String], directory: String) -> String? {
    if let commit = CIPlatform.commit(in: environment) { return commit }
    guard let head = headLine(from: directory) else { return nil }
    func isHash(_ text: String) -> Bool { text.count >= 40 && text.allSatisfy(\.isHexDigit) }
    if isHash(head.line) { return head.line }
    let prefix = "ref: "
    guard head.line.hasPrefix(prefix) else { return nil }
    let reference = String(head.line.dropFirst(prefix.count))
    // A worktree's own folder holds its HEAD; refs live in the repository's (its `commondir`).
    var folders = [head.gitDirectory]
    if let common = try? FileIO.read(head.gitDirectory + "/commondir", limit: 1 << 16) {
      let path = String(decoding: common, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
      folders.append(FileSystem.absolute(path, relativeTo: head.gitDirectory))
    }
    for folder in folders {
      if let bytes = try? FileIO.read(folder + "/" + reference, limit: 1 << 16) {
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        if isHash(line) { return line }
      }
      if let packed = try? FileIO.read(folder + "/packed-refs", limit: 1 << 24) {
        for line in String(decoding: packed, as: UTF8.self).split(separator: "\n") {
          let parts = line.split(separator: " ")
          if parts.count == 2, parts[1] == reference, isHash(String(parts[0])) { return String(parts[0]) }
        }
      }
    }
    return nil
  }

  /// The first line of git's `HEAD` for `directory` or the nearest folder above it with a `.git`
  /// (a folder, or a worktree's file `gitdir: PATH`), and the git folder it is in.
  private static func headLine(from directory: String) -> (line: String, gitDirectory: String)? {
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
        return (String(line), gitDirectory)
      }
      guard let slash = folder.lastIndex(of: "/"), folder != "/" else { return nil }
      folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
  }
}
