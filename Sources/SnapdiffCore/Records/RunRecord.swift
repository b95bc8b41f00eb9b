#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What one `snapdiff check` found: `run.json` in the run's folder. Paths are relative to the
/// run folder, `/`-separated.
public struct RunRecord: Sendable, Codable, Equatable {
  /// Sorts by time: `20261122-034512-123`.
  public var id: String
  /// When the run started, ISO 8601 in UTC.
  public var createdAt: String
  /// The folder of current frames, relative to the run folder.
  public var currentDirectory: String
  /// The baseline store, relative to the run folder.
  public var baselinesDirectory: String
  /// The environment folder used (`iPhone15-iOS17@3x`), if any.
  public var environment: String?
  public var recordMode: RecordMode
  /// The run looked at every frame of `currentDirectory` (not a filtered subset).
  public var complete: Bool
  public var snapshots: [SnapshotRecord]
  /// A name for the run (`snapdiff serve` clients give one; `check` runs have none).
  public var name: String?
  /// The branch the frames came from, when a client says (`check --branch`, defaulting from
  /// git and CI variables).
  public var branch: String?
  /// The branch `branch` was forked from (`--base-branch`, a pull request's target).
  public var baseBranch: String?
  /// The commit where `branch` left `baseBranch` (`git merge-base`), when `--branch auto`
  /// resolved it.
  public var mergeBase: String?
  /// The commit the frames were rendered from, when known: the CI's variable (`GITHUB_SHA`,
  /// `CI_COMMIT_SHA`, …), else git's `HEAD` for `check`; what a service client sends. Flaky
  /// snapshots are found among runs of the same commit (`FlakySnapshots`).
  public var commit: String?
  /// The branch overlays in the store this run read, first to last, and wrote to (the first):
  /// a service run on a branch (`BranchOverlay`). Absent: the store as it is.
  public var overlays: [String]?
  /// When the run was closed (no more snapshots), ISO 8601; `check` runs are closed at once.
  public var closedAt: String?
  /// The part of the run this one checked (`check --shard 2/4`), if any.
  public var shard: String?
  /// The runs `snapdiff merge` joined into this one, by id.
  public var mergedFrom: [String]?
  /// How much of the run's snapshot log (`snapshots.jsonl`, a service run's verdicts as they
  /// arrived: `SnapshotLog`) `snapshots` holds; the records after it are the open run's newer
  /// verdicts. `nil`: none (a `check` run, a run just opened).
  public var logPosition: Int?
  /// The comparison the run applied to every snapshot (its flags over `snapdiff.json`,
  /// `SnapshotCheck.recordedSettings`), before each key's own rules and settings files: what a
  /// re-check of its kept frames against a newer baseline applies again (`SeenApprovals`). `nil`
  /// in runs older than it and in merged runs.
  public var comparison: SnapshotSettings?

  public init(
    id: String, createdAt: String, currentDirectory: String, baselinesDirectory: String,
    environment: String?, recordMode: RecordMode, complete: Bool, snapshots: [SnapshotRecord]
  ) {
    self.id = id
    self.createdAt = createdAt
    self.currentDirectory = currentDirectory
    self.baselinesDirectory = baselinesDirectory
    self.environment = environment
    self.recordMode = recordMode
    self.complete = complete
    self.snapshots = snapshots
  }

  /// How many snapshots have each status.
  public var counts: [SnapshotStatus: Int] {
    snapshots.reduce(into: [:]) { $0[$1.status, default: 0] += 1 }
  }
}

/// One snapshot's verdict in a run.
public struct SnapshotRecord: Sendable, Codable, Equatable {
  /// The snapshot key: `<id> - <test name>/<name>`.
  public var key: String
  public var status: SnapshotStatus
  public var differentPixels: Int
  public var antialiasedPixels: Int
  public var ignoredPixels: Int
  public var totalPixels: Int
  public var differentRatio: Double
  public var regions: [Region]
  /// The baseline image (relative to the run folder), when there is one.
  public var baseline: String?
  /// The current frame: a copy in the run folder when it differs or is new.
  public var current: String?
  /// The diff image in the run folder, when the snapshot failed.
  public var diff: String?
  /// The SHA-256 of the baseline's bytes as this run compared them: the blob in the blob
  /// store, and `images/<hash>.png` in the run folder. It stays true after an approval
  /// replaces the baseline in the store (`RunImages`).
  public var baselineHash: String?
  /// The SHA-256 of the current frame's PNG (a tree-only frame: its rendering).
  public var currentHash: String?
  /// The SHA-256 of the diff image.
  public var diffHash: String?
  public var baselineSize: Size?
  public var currentSize: Size?
  /// A hash of the change (differing positions and their colours in both images): equal hashes
  /// mean the same change, which is what `approve --same-as` and `reject` go by.
  public var changeHash: String?
  /// The baseline was written by this run's record mode.
  public var recorded: Bool
  /// This exact change was rejected before.
  public var previouslyRejected: Bool
  /// The comparison found a difference approved as noise on this baseline (`snapdiff approve
  /// --as-noise`): the snapshot passed (or, in the run it was approved from, was approved)
  /// without its baseline changing.
  public var knownNoise: NoiseFingerprint?
  /// Which environment folder the baseline came from, when not the store's root.
  public var baselineEnvironment: String?
  /// The accepted variant the frame matched (`approve KEY --variant NAME`), when it did not
  /// match the baseline itself; `baseline` and `baselineHash` are then the variant's.
  public var variant: String?
  /// An error that kept the snapshot from being compared (a corrupt PNG...).
  public var error: String?
  /// The match level the snapshot was compared at, when not `strict`.
  public var matchLevel: MatchLevel?
  /// The colour conversion made before comparing (the images' colour profiles differed), as
  /// the verdict words it.
  public var colorConversion: String?
  /// Layout changes, when both frames had element trees.
  public var layout: [LayoutChange]?
  /// At `text-aware`: the text elements that changed, in words
  /// (`staticText "Total": label '$12' → '$13'`).
  public var text: [String]?
  /// The accessibility validation of the current frame, when one was asked for.
  public var contrast: ContrastRecord?
  /// Element selectors that matched nothing (the mask hid nothing).
  public var unmatchedSelectors: [String]?
  /// What the regions found or could not do, in words: where each floating region's content
  /// was found, a layout region without element trees.
  public var regionNotes: [String]?
  /// Why the test skipped it (status `skipped`).
  public var skipReason: String?
  /// For a snapshot whose comparison failed: what kind of difference it found
  /// (`DifferenceClassifier`), so that a run's rendering-only failures are one group.
  public var difference: DifferenceClass?
  /// In a merged run: `true` for a snapshot a part says `passed` that the merge could not check
  /// (no frame kept that is the baseline this store holds: it passed within the tolerances, or
  /// the baseline changed since), taken on the part's word (`RunMerger`).
  public var unverified: Bool?
  /// For a snapshot approved because another run of the branch approved its change: where
  /// (`SeenApprovals`).
  public var approvedIn: ApprovedElsewhere?

  public init(key: String, status: SnapshotStatus) {
    self.key = key
    self.status = status
    differentPixels = 0
    antialiasedPixels = 0
    ignoredPixels = 0
    totalPixels = 0
    differentRatio = 0
    regions = []
    recorded = false
    previouslyRejected = false
  }

  /// A rectangle in pixels: snapdiff's one rectangle.
  public typealias Region = PixelRect

  /// An image size in pixels.
  public typealias Size = PixelSize
}

extension RunRecord {
  /// `run.json`'s bytes: pretty, keys sorted, so diffs of records stay readable.
  public func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(self)) + [0x0A]
  }

  /// Reads a `run.json`.
  ///
  /// - Throws: `RunError` naming the file when it is not a valid record.
  public static func decode(_ bytes: [UInt8], path: String) throws -> RunRecord {
    do {
      return try JSONDecoder().decode(RunRecord.self, from: Data(bytes))
    } catch {
      throw RunError("\(path): not a valid run record: \(error)")
    }
  }
}

/// A run that cannot be found, read or written.
public struct RunError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
