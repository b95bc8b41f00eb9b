import SnapdiffCore
import SnapdiffWire

extension OpenRunRequest {
  /// The request with `"branch": "auto"` resolved, and its commit fields checked.
  ///
  /// The service cannot see the client's checkout (its git, its CI's variables), so `auto` is
  /// resolved from the variables the client sends in `ci`, through the same table as `check
  /// --branch auto` (`AutoBranch`, `CIPlatform`) without git: a pull request's source and target,
  /// else the branch built (and the default branch where the CI names it). Without `ci`, or when
  /// no variable in it names a branch, the request is refused, saying what to send. The commit
  /// defaults to the CI's (`GITHUB_SHA`, …) from `ci` too.
  ///
  /// - Throws: `APIError` 400.
  func resolvingAutoBranch() throws -> OpenRunRequest {
    var request = self
    for (name, value) in [("commit", commit), ("mergeBase", mergeBase)] {
      guard let value else { continue }
      guard (1...100).contains(value.utf8.count), value.allSatisfy({ $0.isLetter || $0.isNumber }),
        value.allSatisfy(\.isASCII)
      else {
        throw APIError.badRequest("'\(name)' must be a commit hash: 1 to 100 letters and digits")
      }
    }
    if let ci {
      guard ci.count <= 200, ci.allSatisfy({ $0.key.utf8.count <= 100 && $0.value.utf8.count <= 1000 }) else {
        throw APIError.badRequest("'ci' holds at most 200 variables, names of 100 bytes, values of 1000")
      }
      if request.commit == nil { request.commit = CIPlatform.commit(in: ci) }
    }
    guard branch == AutoBranch.keyword else { return request }
    guard let ci else {
      throw APIError.badRequest(
        "'branch': 'auto' needs the client's CI variables in 'ci' (the service cannot see your checkout or CI): "
          + "send {\"ci\": {\"GITHUB_HEAD_REF\": …, \"GITHUB_BASE_REF\": …}} with the variables your CI sets "
          + "(\(CIPlatform.variableNames)), or the branch by name; snapdiff test --branch auto and the test API "
          + "resolve 'auto' on the client")
    }
    let resolved: AutoBranch
    do {
      resolved = try AutoBranch.resolve(environment: ci, git: nil)
    } catch {
      throw APIError.badRequest(error.description)
    }
    request.branch = resolved.branch
    // A base given by name wins, as `--base-branch` does on the command line.
    if request.baseBranch == nil { request.baseBranch = resolved.base }
    if request.baseBranch == request.branch { request.baseBranch = nil }
    return request
  }
}
