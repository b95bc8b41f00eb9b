import SnapdiffCore

// The JSON request bodies, apart from the response DTOs (RunDTOs.swift) so that they compile
// without GRDB and Hummingbird: scripts/fuzz/harness/fuzz-request.swift decodes them.

/// `POST /api/v1/runs`: `{"name": "nightly", "branch": "main", "environment": "iPhone15"}`.
struct OpenRunRequest: Decodable, Sendable {
  var name: String
  var branch: String?
  /// The branch `branch` was forked from: with both, the run reads and writes the branch's
  /// overlay in the store, falling back to the base branch's (`BranchOverlay`).
  var baseBranch: String?
  /// An environment folder in the store (device, OS, scale); default: the server's.
  var environment: String?
  /// `missing`, `all`, `failed` or `never`; default: the server's (`never`).
  var recordMode: RecordMode?
}

/// `POST /api/v1/runs/{run}/approve`: `{"all": true}`, `{"failed": true}`, `{"new": true}`,
/// `{"sameAs": KEY}`, `{"keys": [KEY or glob…]}`, or several at once (their union);
/// `"dryRun": true` changes nothing; `"includeRejected": true` lets the group selectors pick
/// rejected snapshots (`Review.Selection`).
struct ReviewRequest: Decodable, Sendable {
  var all: Bool?
  var failed: Bool?
  var new: Bool?
  var sameAs: String?
  var keys: [String]?
  var includeRejected: Bool?
  var dryRun: Bool?

  var selection: Review.Selection {
    Review.Selection(
      patterns: keys ?? [], failed: failed ?? false, new: new ?? false, all: all ?? false, sameAs: sameAs,
      includeRejected: includeRejected ?? false)
  }
}

/// `POST /api/v1/runs/{run}/close` (the body is optional): `{"complete": true}` says the run
/// received every frame it will have, so every baseline it did not receive is `missing`;
/// `"keys"` (the keys it was meant to receive) or `"prefix"` (a shard's part of the key space)
/// narrow that.
struct CloseRunRequest: Decodable, Sendable {
  var complete: Bool?
  var keys: [String]?
  var prefix: String?
}

/// `POST /api/v1/runs/{run}/snapshots/{key}/skip`: `{"reason": "page 'home' is not allowed"}`.
struct SkipRequest: Decodable, Sendable {
  var reason: String
}
