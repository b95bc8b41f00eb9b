import SnapdiffModel

/// The service API's paths, as the router registers them (``Route``, its templates) and the
/// clients (the test API's service checker, the fuzz harness) build them: a run id or a
/// snapshot key is one percent-encoded segment (`/` written `%2F`), so a key's folders never
/// become the path's.
///
/// ```swift
/// APIPaths.snapshot(run: "20260101-000000-1", key: "Home/Login")
/// // "/api/v1/runs/20260101-000000-1/snapshots/Home%2FLogin"
/// ```
public enum APIPaths {
  public static let prefix = "/api/v1"

  /// `GET`: 200 while the process serves (``Health``).
  public static let health = prefix + "/health"

  /// `GET`: 200 when the run index answers, 503 otherwise (``Readiness``).
  public static let ready = prefix + "/ready"

  /// `GET`: the server's version (``VersionInfo``).
  public static let version = prefix + "/version"

  /// `POST`: open a run (``OpenRunRequest``); `GET`: list them (``RunList``).
  public static let runs = prefix + "/runs"

  public static func run(_ id: String) -> String { runs + "/" + segment(id) }

  /// `POST`: close the run (``CloseRunRequest``, optional), answered with its ``RunSummary``.
  public static func close(run: String) -> String { Self.run(run) + "/close" }

  /// `/api/v1/runs/<run>/snapshots/<key>`, the key as one segment (`/` written `%2F`): `PUT` a
  /// frame (a ``MultipartBody``), answered with a ``SnapshotVerdictResponse``.
  public static func snapshot(run: String, key: String) -> String { Self.run(run) + "/snapshots/" + segment(key) }

  /// The same path before percent-encoding, the key's `/`s kept (the snapshot routes read the
  /// rest of the path as one key): for a page that percent-encodes each segment of its links
  /// itself, as the review page's report does.
  public static func snapshotUnencoded(run: String, key: String) -> String { runs + "/" + run + "/snapshots/" + key }

  /// `POST`: the test skipped the snapshot (``SkipRequest``).
  public static func skip(run: String, key: String) -> String { snapshot(run: run, key: key) + "/skip" }

  /// `POST`: approve the run's snapshots (a ``ReviewRequest``), answered with a ``ReviewResult``.
  public static func approve(run: String) -> String { Self.run(run) + "/approve" }

  /// `POST`: reject the run's snapshots (a ``ReviewRequest``), answered with a ``ReviewResult``.
  public static func reject(run: String) -> String { Self.run(run) + "/reject" }

  /// `POST`: approve the run's selected differences as known noise (a ``ReviewRequest``; the
  /// baselines stay), answered with a ``ReviewResult``. One snapshot: ``snapshot(run:key:)`` +
  /// `/noise`.
  public static func approveAsNoise(run: String) -> String { Self.run(run) + "/noise" }

  /// `GET`: the fingerprints of known noise (``KnownNoiseList``; `?key=`, `?environment=`,
  /// `?branch=`).
  public static let noise = prefix + "/noise"

  /// `POST`: remove fingerprints of known noise (``RemoveNoiseRequest``), answered with those
  /// removed (``KnownNoiseList``).
  public static let removeNoise = noise + "/remove"

  /// `GET`: the flaky snapshots of the newest runs (``FlakyList``; `?runs=`, `?branch=`).
  public static let flaky = prefix + "/flaky"

  /// `GET`: the approvals of the baseline `key` (``BaselineHistoryResponse``).
  public static func history(key: String) -> String { prefix + "/baselines/" + segment(key) + "/history" }

  /// `POST`: undo the newest approval of the baseline `key` (``BaselineUndoResponse``).
  public static func undo(key: String) -> String { prefix + "/baselines/" + segment(key) + "/undo" }

  /// `GET`: the approval log's operations of the run (``ApprovalList``).
  public static func approvals(run: String) -> String { Self.run(run) + "/approvals" }

  /// `POST`: undo one approval operation whole (``ApprovalUndoResponse``).
  public static func undo(operation: String) -> String { prefix + "/approvals/" + segment(operation) + "/undo" }

  /// `GET`: the branches with an overlay in the store (``BranchList``).
  public static let branches = prefix + "/branches"

  /// `POST`: merge `branch`'s overlay into the store (``BranchMergeResponse``).
  public static func merge(branch: String) -> String { branches + "/" + segment(branch) + "/merge" }
  /// `POST`: drop `branch`'s overlay, the store unchanged (``BranchDiscardResponse``).
  public static func discard(branch: String) -> String { branches + "/" + segment(branch) + "/discard" }

  /// The API's routes as the server's router registers them, in Hummingbird's syntax: `:run`
  /// captures one segment (the run id, percent-encoded), `**` the rest of the path. A key (or a
  /// branch) is the rest of the path because it may come with its `/` as it is
  /// (`Home%20-%20test/Home`) as well as `%2F`: the controller splits the action (`/skip`,
  /// `/approve`, `/history`, `/merge`, an image) off its end.
  public enum Route {
    /// The name of the run id's capture (`:run`).
    public static let runParameter = "run"

    public static let health = APIPaths.health
    public static let ready = APIPaths.ready
    public static let version = APIPaths.version
    /// `GET` (list) and `POST` (open).
    public static let runs = APIPaths.runs
    /// `GET`: the run's record.
    public static let run = runs + "/:" + runParameter
    public static let close = run + "/close"
    public static let approve = run + "/approve"
    public static let reject = run + "/reject"
    public static let approveAsNoise = run + "/noise"
    public static let noise = APIPaths.noise
    public static let removeNoise = APIPaths.removeNoise
    public static let flaky = APIPaths.flaky
    /// `PUT` a frame, `GET` a verdict or an image, `POST` a review or a skip:
    /// `…/snapshots/{key}[/{action}]`.
    public static let snapshots = run + "/snapshots/**"
    /// `GET …/baselines/{key}/history`, `POST …/baselines/{key}/undo`.
    public static let baselines = prefix + "/baselines/**"
    /// `GET`: the run's approval operations.
    public static let approvals = run + "/approvals"
    /// The name of the operation id's capture (`:operation`).
    public static let operationParameter = "operation"
    /// `POST`: undo an approval operation.
    public static let undoOperation = prefix + "/approvals/:" + operationParameter + "/undo"
    /// `GET`: the branches.
    public static let branches = APIPaths.branches
    /// `POST …/branches/{branch}/merge` and `…/discard`.
    public static let branch = branches + "/**"

    /// Every template (the tests check that each builder above gives a path one of them matches).
    public static let all = [
      health, ready, version, runs, run, close, approve, reject, snapshots, baselines, branches, branch, approvals,
      undoOperation, approveAsNoise, noise, removeNoise, flaky,
    ]
  }

  /// `text` as one URL path segment (`/` written `%2F`).
  public static func segment(_ text: String) -> String { PercentEncoding.segment(text) }

  /// A percent-encoded path (or segment) decoded; `nil` for a bad escape or bytes that are not
  /// UTF-8.
  public static func decode(_ text: Substring) -> String? { PercentEncoding.decode(text) }
}
