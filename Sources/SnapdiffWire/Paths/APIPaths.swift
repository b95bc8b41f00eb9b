import SnapdiffModel

/// The service API's paths, as the router reads them and the clients (the test API's service
/// checker, the fuzz harness) build them: a run id or a snapshot key is one percent-encoded
/// segment (`/` written `%2F`), so a key's folders never become the path's.
///
/// ```swift
/// APIPaths.snapshot(run: "20260101-000000-1", key: "Home/Login")
/// // "/api/v1/runs/20260101-000000-1/snapshots/Home%2FLogin"
/// ```
public enum APIPaths {
  public static let prefix = "/api/v1"

  /// `POST`: open a run (``OpenRunRequest``); `GET`: list them (``RunList``).
  public static let runs = prefix + "/runs"

  public static func run(_ id: String) -> String { runs + "/" + segment(id) }

  /// `POST`: close the run (``CloseRunRequest``, optional), answered with its ``RunSummary``.
  public static func close(run: String) -> String { Self.run(run) + "/close" }

  /// `/api/v1/runs/<run>/snapshots/<key>`, the key as one segment (`/` written `%2F`): `PUT` a
  /// frame (a ``MultipartBody``), answered with a ``SnapshotVerdictResponse``.
  public static func snapshot(run: String, key: String) -> String { Self.run(run) + "/snapshots/" + segment(key) }

  /// `POST`: the test skipped the snapshot (``SkipRequest``).
  public static func skip(run: String, key: String) -> String { snapshot(run: run, key: key) + "/skip" }

  /// `text` as one URL path segment (`/` written `%2F`).
  public static func segment(_ text: String) -> String { PercentEncoding.segment(text) }

  /// A percent-encoded path (or segment) decoded; `nil` for a bad escape or bytes that are not
  /// UTF-8.
  public static func decode(_ text: Substring) -> String? { PercentEncoding.decode(text) }
}
