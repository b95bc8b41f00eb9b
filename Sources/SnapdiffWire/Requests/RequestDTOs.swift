import SnapdiffModel

// The JSON request bodies, as the service decodes them (a field they do not have is refused: a
// misspelt one is not ignored) and its clients encode them; scripts/fuzz/harness/fuzz-request.swift
// decodes them too.

/// `POST /api/v1/runs`: `{"name": "nightly", "branch": "main", "environment": "iPhone15"}`.
public struct OpenRunRequest: Codable, Sendable {
  public var name: String
  public var branch: String?
  /// The branch `branch` was forked from: with both, the run reads and writes the branch's
  /// overlay in the store, falling back to the base branch's (`BranchOverlay`).
  public var baseBranch: String?
  /// An environment folder in the store (device, OS, scale); default: the server's.
  public var environment: String?
  /// `missing`, `all`, `failed` or `never`; default: the server's (`never`).
  public var recordMode: RecordMode?
  /// The commit the frames come from (flaky snapshots are found among runs of one commit).
  public var commit: String?
  /// Where `branch` left `baseBranch` (`git merge-base`), when the client resolved it.
  public var mergeBase: String?
  /// The client's CI variables (`GITHUB_HEAD_REF`, `CI_COMMIT_SHA`, …) for `"branch": "auto"`:
  /// the service cannot see the client's checkout, so it resolves the branch, its base and the
  /// commit from these (the same table as `check --branch auto`, without git).
  public var ci: [String: String]?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case name, branch, baseBranch, environment, recordMode, commit, mergeBase, ci
  }

  public init(
    name: String, branch: String? = nil, baseBranch: String? = nil, environment: String? = nil,
    recordMode: RecordMode? = nil
  ) {
    self.name = name
    self.branch = branch
    self.baseBranch = baseBranch
    self.environment = environment
    self.recordMode = recordMode
  }

  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    branch = try container.decodeIfPresent(String.self, forKey: .branch)
    baseBranch = try container.decodeIfPresent(String.self, forKey: .baseBranch)
    environment = try container.decodeIfPresent(String.self, forKey: .environment)
    recordMode = try container.decodeIfPresent(RecordMode.self, forKey: .recordMode)
    commit = try container.decodeIfPresent(String.self, forKey: .commit)
    mergeBase = try container.decodeIfPresent(String.self, forKey: .mergeBase)
    ci = try container.decodeIfPresent([String: String].self, forKey: .ci)
  }
}

/// `POST /api/v1/runs/{run}/approve`: `{"all": true}`, `{"failed": true}`, `{"new": true}`,
/// `{"sameAs": KEY}`, `{"difference": "rendering"}`, `{"keys": [KEY or glob…]}`, or several at once (their union);
/// `"dryRun": true` changes nothing; `"includeRejected": true` lets the group selectors pick
/// rejected snapshots; `"except": [KEY or glob…]` leaves snapshots out of the rest
/// (`Review.Selection`); for an approval, `"variant": NAME` keeps each baseline and adds the
/// frame as another accepted baseline named NAME.
public struct ReviewRequest: Codable, Sendable {
  public var all: Bool?
  public var failed: Bool?
  public var new: Bool?
  public var sameAs: String?
  /// Every failed snapshot whose difference is in this group (`DifferenceClass.group`).
  public var difference: String?
  public var keys: [String]?
  public var includeRejected: Bool?
  public var dryRun: Bool?
  /// Keys or globs left out of what the other fields pick: a group's members a reviewer
  /// excluded before approving it.
  public var except: [String]?
  /// Approve only: the name of the variant the frames are added as (`approve --variant`).
  public var variant: String?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case all, failed, new, sameAs, difference, keys, includeRejected, dryRun, except, variant
  }

  public init(
    all: Bool? = nil, failed: Bool? = nil, new: Bool? = nil, sameAs: String? = nil, difference: String? = nil,
    keys: [String]? = nil, includeRejected: Bool? = nil, dryRun: Bool? = nil, except: [String]? = nil,
    variant: String? = nil
  ) {
    self.except = except
    self.variant = variant
    self.difference = difference
    self.all = all
    self.failed = failed
    self.new = new
    self.sameAs = sameAs
    self.keys = keys
    self.includeRejected = includeRejected
    self.dryRun = dryRun
  }

  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    all = try container.decodeIfPresent(Bool.self, forKey: .all)
    failed = try container.decodeIfPresent(Bool.self, forKey: .failed)
    new = try container.decodeIfPresent(Bool.self, forKey: .new)
    sameAs = try container.decodeIfPresent(String.self, forKey: .sameAs)
    difference = try container.decodeIfPresent(String.self, forKey: .difference)
    keys = try container.decodeIfPresent([String].self, forKey: .keys)
    includeRejected = try container.decodeIfPresent(Bool.self, forKey: .includeRejected)
    dryRun = try container.decodeIfPresent(Bool.self, forKey: .dryRun)
    except = try container.decodeIfPresent([String].self, forKey: .except)
    variant = try container.decodeIfPresent(String.self, forKey: .variant)
  }
}

/// `POST /api/v1/runs/{run}/close` (the body is optional): `{"complete": true}` says the run
/// received every frame it will have, so every baseline it did not receive is `missing`;
/// `"keys"` (the keys it was meant to receive) or `"prefix"` (a shard's part of the key space)
/// narrow that.
public struct CloseRunRequest: Codable, Sendable {
  public var complete: Bool?
  public var keys: [String]?
  public var prefix: String?

  public init(complete: Bool? = nil, keys: [String]? = nil, prefix: String? = nil) {
    self.complete = complete
    self.keys = keys
    self.prefix = prefix
  }
}

/// `POST /api/v1/runs/{run}/snapshots/{key}/skip`: `{"reason": "page 'home' is not allowed"}`.
public struct SkipRequest: Codable, Sendable {
  public var reason: String

  enum CodingKeys: String, CodingKey, CaseIterable { case reason }

  public init(reason: String) { self.reason = reason }

  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    reason = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .reason)
  }
}
