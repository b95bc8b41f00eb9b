import SnapdiffCore

// The JSON request bodies (a field they do not have is refused: a misspelt one is not ignored), apart from the response DTOs (RunDTOs.swift) so that they compile
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

  enum CodingKeys: String, CodingKey, CaseIterable { case name, branch, baseBranch, environment, recordMode }

  init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    branch = try container.decodeIfPresent(String.self, forKey: .branch)
    baseBranch = try container.decodeIfPresent(String.self, forKey: .baseBranch)
    environment = try container.decodeIfPresent(String.self, forKey: .environment)
    recordMode = try container.decodeIfPresent(RecordMode.self, forKey: .recordMode)
  }
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

  enum CodingKeys: String, CodingKey, CaseIterable { case all, failed, new, sameAs, keys, includeRejected, dryRun }

  init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    all = try container.decodeIfPresent(Bool.self, forKey: .all)
    failed = try container.decodeIfPresent(Bool.self, forKey: .failed)
    new = try container.decodeIfPresent(Bool.self, forKey: .new)
    sameAs = try container.decodeIfPresent(String.self, forKey: .sameAs)
    keys = try container.decodeIfPresent([String].self, forKey: .keys)
    includeRejected = try container.decodeIfPresent(Bool.self, forKey: .includeRejected)
    dryRun = try container.decodeIfPresent(Bool.self, forKey: .dryRun)
  }

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

  enum CodingKeys: String, CodingKey, CaseIterable { case reason }

  init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    reason = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .reason)
  }
}
