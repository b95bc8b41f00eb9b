import SnapdiffModel

/// `POST /api/v1/noise/remove`: `{"key": KEY, "ids": [ID…]}` (a fingerprint's change hash or its
/// first 6 characters or more), `{"key": KEY, "all": true}`, or `{"stale": true}` (with `key`:
/// that snapshot's) for every fingerprint whose baseline changed; `environment` and `branch` pick
/// the store's environment folder and branch overlay.
public struct RemoveNoiseRequest: Codable, Sendable {
  public var key: String?
  public var ids: [String]?
  public var all: Bool?
  public var stale: Bool?
  public var environment: String?
  public var branch: String?

  enum CodingKeys: String, CodingKey, CaseIterable { case key, ids, all, stale, environment, branch }

  public init(
    key: String? = nil, ids: [String]? = nil, all: Bool? = nil, stale: Bool? = nil, environment: String? = nil,
    branch: String? = nil
  ) {
    self.key = key
    self.ids = ids
    self.all = all
    self.stale = stale
    self.environment = environment
    self.branch = branch
  }

  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    key = try container.decodeIfPresent(String.self, forKey: .key)
    ids = try container.decodeIfPresent([String].self, forKey: .ids)
    all = try container.decodeIfPresent(Bool.self, forKey: .all)
    stale = try container.decodeIfPresent(Bool.self, forKey: .stale)
    environment = try container.decodeIfPresent(String.self, forKey: .environment)
    branch = try container.decodeIfPresent(String.self, forKey: .branch)
  }
}
