/// A difference a reviewer approved as noise, not as the new look (`snapdiff approve KEY
/// --as-noise`): where it is and what changed there, on one baseline. A later run whose
/// comparison of the same baseline finds this very difference passes, as known noise; any other
/// difference still fails, and a new baseline leaves the fingerprint stale (it matches nothing).
///
/// Kept beside the baseline (`<key>.noise.json`, through the core's `BaselineStore`); sent by the
/// service in its noise list and in a verdict that passed as known noise, so it lives here.
public struct NoiseFingerprint: Sendable, Codable, Equatable {
  /// What changed and where: the change hash of the comparison (`SnapshotRecord.changeHash`:
  /// every counted pixel's position and its colour in both images). Equal hashes: the same
  /// pixels changed the same way. It names the fingerprint in `snapdiff noise remove`.
  public var changeHash: String
  /// The SHA-256 of the baseline's bytes the difference was seen against: a fingerprint applies
  /// only to that baseline.
  public var baselineHash: String
  /// The differing areas' bounding boxes, for a reader (the hash decides).
  public var regions: [PixelRect]
  /// How many pixels differed.
  public var differentPixels: Int
  /// When it was approved as noise, ISO 8601 in UTC, and by whom.
  public var approvedAt: String
  public var approvedBy: String
  /// The run it was approved from.
  public var run: String?

  public init(
    changeHash: String, baselineHash: String, regions: [PixelRect], differentPixels: Int, approvedAt: String,
    approvedBy: String, run: String?
  ) {
    self.changeHash = changeHash
    self.baselineHash = baselineHash
    self.regions = regions
    self.differentPixels = differentPixels
    self.approvedAt = approvedAt
    self.approvedBy = approvedBy
    self.run = run
  }

  /// The name shown for it: the change hash's first twelve characters (enough to remove it by).
  public var shortID: String { String(changeHash.prefix(12)) }

  /// Whether `id` names this fingerprint: its change hash or a prefix of it (six characters at
  /// least, so that a slip of the keyboard does not remove several).
  public func isNamed(by id: String) -> Bool {
    id.count >= 6 && changeHash.hasPrefix(id.lowercased())
  }

  /// `known noise (approved by ana at 2026-11-28T01:02:03Z, fingerprint 1a2b3c4d5e6f)`.
  public var sentence: String {
    "known noise (approved by \(approvedBy) at \(approvedAt), fingerprint \(shortID))"
  }
}
