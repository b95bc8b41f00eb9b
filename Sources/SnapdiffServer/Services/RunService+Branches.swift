import SnapdiffCore
import SnapdiffWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A branch overlay as the review pages show it: what it holds now.
struct BranchOverview: Sendable {
  var branch: String
  /// The baselines approved on the branch and not merged, by key.
  var baselines: [BranchOverlay.Promoted]
}

@available(macOS 14, iOS 17, tvOS 17, *)
extension RunService {
  /// Drops `branch`'s overlay (`BranchOverlay.discard`): the store keeps its baselines.
  ///
  /// - Throws: `APIError` 404 when the branch has no overlay, 422 for a name no overlay can have.
  func discard(branch: String) throws -> BranchDiscardResponse {
    let dropped: [BranchOverlay.Promoted]
    do {
      dropped = try BranchOverlay.discard(branch, in: configuration.store)
    } catch let error as RunError {
      throw APIError.notFound(error.message)
    } catch let error as BranchNameError {
      throw APIError.unprocessable(error.description)
    }
    return BranchDiscardResponse(
      branch: branch, baselines: dropped.map { .init(key: $0.key, environment: $0.environment) })
  }

  /// Every branch with an overlay, and what each holds.
  func branchOverviews() -> [BranchOverview] {
    BranchOverlay.branches(in: configuration.store).map { branch in
      BranchOverview(
        branch: branch, baselines: (try? BranchOverlay.contents(of: branch, in: configuration.store)) ?? [])
    }
  }

  /// What `branch`'s overlay holds now; `nil` when it has none.
  func overview(of branch: String) -> BranchOverview? {
    guard BranchOverlay.branches(in: configuration.store).contains(branch) else { return nil }
    return BranchOverview(
      branch: branch, baselines: (try? BranchOverlay.contents(of: branch, in: configuration.store)) ?? [])
  }

  /// The base branch of run `id`, read from the start of its `run.json` alone: the record is
  /// written with its keys sorted (`RunRecord.encoded`), so `baseBranch`, when there is one, is
  /// its first member, and a list of a hundred runs need not decode a hundred records.
  func baseBranch(ofRun id: String) -> String? {
    guard let runFolder = try? self.folder(id),
      let head = try? FileIO.readPrefix(runFolder.recordPath, count: 1024)
    else { return nil }
    let text = String(decoding: head, as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 2)
    guard lines.count >= 2, lines[0] == "{" else { return nil }
    let member = lines[1].trimmingPrefix(while: { $0 == " " })
    let name = "\"baseBranch\" : "
    guard member.hasPrefix(name) else { return nil }
    var value = member.dropFirst(name.count)
    if value.hasSuffix(",") { value = value.dropLast() }
    return try? JSONDecoder().decode([String].self, from: Data(("[" + value + "]").utf8)).first
  }

  /// The run list's branch columns for `runs`: each one's base branch and what its branch's
  /// overlay holds.
  func branchColumns(_ runs: [RunSummary]) -> [String: RunBranchColumns] {
    let overviews = Dictionary(
      branchOverviews().map { ($0.branch, $0.baselines.count) }, uniquingKeysWith: { a, _ in a })
    var columns: [String: RunBranchColumns] = [:]
    for run in runs where run.branch != nil {
      columns[run.id] = RunBranchColumns(base: baseBranch(ofRun: run.id), held: overviews[run.branch!])
    }
    return columns
  }
}
