/// `--branch auto`: the branch a run's frames come from and the branch it is compared against,
/// read from the CI's documented variables, else from git, so that a branch overlay needs no
/// name written by hand.
///
/// In this order:
/// 1. A pull or merge request on a CI (``CIPlatform/all``): its source and target branches.
/// 2. A branch build on a CI: the branch, and the repository's default branch as the base when
///    the CI says it (GitLab), else git's (below).
/// 3. git: the checked-out branch (`git symbolic-ref HEAD`); the default branch from
///    `origin/HEAD`, else `main` or `master` (local or `origin/`), and the merge-base with it.
///
/// On the default branch itself there is no base: the run reads and writes the store, no
/// overlay. A detached `HEAD` with no CI variable naming the branch is an error (CI checkouts
/// are detached; the CI's variables name the branch there).
///
/// The environment and git are passed in, so that tests (and the test-side API, which cannot
/// start processes on iOS) decide what they are:
///
/// ```swift
/// let resolved = try AutoBranch.resolve(environment: ProcessEnvironment.variables) { arguments in
///   runGit(arguments)  // standard output without its last newline; nil when git failed
/// }
/// print(resolved.description)  // branch feature/login, base main (merge-base 1a2b3c4d), from git
/// ```
public struct AutoBranch: Sendable, Equatable, CustomStringConvertible {
  /// The branch the frames come from.
  public var branch: String
  /// The branch it is compared against (its overlay is read after the branch's); nil on the
  /// default branch itself, or when nothing says which branch it was forked from.
  public var base: String?
  /// The commit where the branch left its base (`git merge-base HEAD BASE`), when git has both.
  public var mergeBase: String?
  /// Where `branch` and `base` were read: `GitHub Actions pull request (GITHUB_HEAD_REF,
  /// GITHUB_BASE_REF)`, `git (HEAD; default branch from origin/HEAD)`.
  public var source: String
  /// The branch is the repository's default branch, so it has no base.
  public var isDefaultBranch = false

  public init(branch: String, base: String?, mergeBase: String? = nil, source: String) {
    self.branch = branch
    self.base = base
    self.mergeBase = mergeBase
    self.source = source
  }

  /// Runs `git ARGUMENTS…` in the working folder: its standard output without the last
  /// newline, or nil when git failed, is not installed, or the folder is not in a repository.
  public typealias GitRunner = (_ arguments: [String]) -> String?

  /// The word that asks for this resolution in `--branch` and `SNAPDIFF_BRANCH`.
  public static let keyword = "auto"

  /// `branch feature/login, base main (merge-base 1a2b3c4d), from git (HEAD; …)`, or on the
  /// default branch `branch main (the default branch: no overlay), from …`.
  public var description: String {
    var text = "branch \(branch)"
    if let base {
      text += ", base \(base)"
      if let mergeBase { text += " (merge-base \(mergeBase.prefix(12)))" }
    } else if isDefaultBranch {
      text += " (the default branch: no overlay)"
    } else {
      text += " (no base branch known: no overlay; --base-branch NAME says it)"
    }
    return text + ", from " + source
  }

  /// Resolves the branch and its base (see the type's description).
  ///
  /// - Parameters:
  ///   - environment: the process's environment variables (empty values count as unset).
  ///   - git: runs git; nil where no process can be started (the test-side API on iOS).
  /// - Throws: `ConfigurationError` when neither the CI nor git names a branch (detached
  ///   `HEAD`, not a repository), saying what to pass instead.
  public static func resolve(environment: [String: String], git: GitRunner?) throws(ConfigurationError)
    -> AutoBranch
  {
    if let ci = CIPlatform.branch(in: environment) {
      var resolved = AutoBranch(branch: ci.branch, base: ci.base, source: ci.source)
      if resolved.base == nil, let git, let found = defaultBranch(git: git) {
        resolved.base = found.name
        resolved.source += "; default branch from git (\(found.source))"
      }
      return resolved.settled(git: git)
    }
    guard let git else {
      throw ConfigurationError(
        "branch auto: no CI variable names the branch (\(CIPlatform.variableNames)) and git cannot be run here; "
          + "set the branch by name")
    }
    guard git(["rev-parse", "--is-inside-work-tree"]) == "true" else {
      throw ConfigurationError(
        "branch auto: no CI variable names the branch (\(CIPlatform.variableNames)) and the working folder is not "
          + "in a git repository (or git is not installed); pass --branch NAME")
    }
    guard let head = git(["symbolic-ref", "--quiet", "--short", "HEAD"]), !head.isEmpty else {
      let commit = git(["rev-parse", "--short", "HEAD"]).map { " at \($0)" } ?? ""
      throw ConfigurationError(
        "branch auto: git's HEAD is detached\(commit) and no CI variable names the branch "
          + "(\(CIPlatform.variableNames)); check out a branch or pass --branch NAME")
    }
    var resolved = AutoBranch(branch: head, base: nil, source: "git (HEAD")
    if let found = defaultBranch(git: git) {
      resolved.base = found.name
      resolved.source += "; default branch from \(found.source)"
    }
    resolved.source += ")"
    return resolved.settled(git: git)
  }

  /// On the default branch: no base. Elsewhere: the merge-base with the base, when git has it.
  private func settled(git: GitRunner?) -> AutoBranch {
    var resolved = self
    guard let base else { return resolved }
    if base == branch {
      resolved.base = nil
      resolved.isDefaultBranch = true
      return resolved
    }
    if let git, let reference = Self.reference(of: base, git: git) {
      resolved.mergeBase = git(["merge-base", "HEAD", reference])
    }
    return resolved
  }

  /// The repository's default branch: what `origin/HEAD` points at (set by `git clone`), else
  /// `main` or `master`, local or fetched from `origin`.
  static func defaultBranch(git: GitRunner) -> (name: String, source: String)? {
    let remotePrefix = "origin/"
    if let remoteHead = git(["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]),
      remoteHead.hasPrefix(remotePrefix), remoteHead.count > remotePrefix.count
    {
      return (String(remoteHead.dropFirst(remotePrefix.count)), "origin/HEAD")
    }
    for name in ["main", "master"] where reference(of: name, git: git) != nil {
      return (name, "the branch named \(name)")
    }
    return nil
  }

  /// The ref git knows `branch` by: the local branch, else `origin`'s (CI clones often have
  /// only the remote one).
  static func reference(of branch: String, git: GitRunner) -> String? {
    for reference in ["refs/heads/" + branch, "refs/remotes/origin/" + branch]
    where git(["rev-parse", "--verify", "--quiet", reference]) != nil {
      return reference
    }
    return nil
  }
}
