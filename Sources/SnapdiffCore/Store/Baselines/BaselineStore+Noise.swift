/// Known noise in the store: the fingerprints of differences approved as noise
/// (`NoiseFingerprint`), kept beside the baseline they were seen against as `<key>.noise.json`.
/// Callers ask the store; none builds the file's path.
extension BaselineStore {
  /// The largest noise file read: thousands of fingerprints fit.
  static let noiseFileLimit = 1 << 22

  /// The fingerprints recorded for the baseline at `location` (stale ones too: see
  /// ``noiseFingerprints(at:)`` callers that compare their `baselineHash`).
  public func noiseFingerprints(at location: Location) throws -> [NoiseFingerprint] {
    let path = sidecarPath(of: location, suffix: Self.noiseSuffix)
    guard FileSystem.isFile(path) else { return [] }
    return try KnownNoiseFile.decode(confinement.read(path, limit: Self.noiseFileLimit), path: path).fingerprints
  }

  /// The fingerprint that makes a difference known noise: one recorded for the baseline at
  /// `location` with this change, seen against the baseline whose SHA-256 is `baselineHash`
  /// (asked only when the snapshot has fingerprints: a failing snapshot without any costs a
  /// `stat`).
  public func knownNoise(changeHash: String?, at location: Location, baselineHash: () throws -> String?) throws
    -> NoiseFingerprint?
  {
    guard let changeHash else { return nil }
    let candidates = try noiseFingerprints(at: location).filter { $0.changeHash == changeHash }
    guard !candidates.isEmpty, let hash = try baselineHash() else { return nil }
    return candidates.first { $0.baselineHash == hash }
  }

  /// Records `fingerprint` for the baseline at `location`, which must still be the one it was
  /// seen against (checked under the same hold of the lock as the write: an approval that
  /// replaced the baseline meanwhile makes the noise moot, and it is refused). A fingerprint of
  /// the same change on the same baseline is replaced.
  ///
  /// - Throws: `RunError` when the baseline changed or is gone.
  public func addNoise(_ fingerprint: NoiseFingerprint, at location: Location, key: SnapshotKey) throws {
    let path = sidecarPath(of: location, suffix: Self.noiseSuffix)
    try withLock {
      guard FileSystem.isFile(location.path),
        SHA256.hex(try confinement.read(location.path, limit: Review.frameBytesLimit)) == fingerprint.baselineHash
      else {
        throw RunError(
          "'\(key)': its baseline is no longer the one the run compared (sha256 \(fingerprint.baselineHash.prefix(12))): "
            + "approved or recorded again since; check again and approve the difference then")
      }
      var file = KnownNoiseFile(fingerprints: [])
      if FileSystem.isFile(path) {
        file = try KnownNoiseFile.decode(confinement.read(path, limit: Self.noiseFileLimit), path: path)
      }
      file.fingerprints.removeAll {
        $0.changeHash == fingerprint.changeHash && $0.baselineHash == fingerprint.baselineHash
      }
      file.fingerprints.append(fingerprint)
      try confinement.write(file.encoded(), to: path)
    }
  }

  /// Removes the fingerprints of the baseline at `location` that `shouldRemove` picks (the file
  /// goes with the last one); returns them.
  @discardableResult
  public func removeNoise(at location: Location, where shouldRemove: (NoiseFingerprint) -> Bool) throws
    -> [NoiseFingerprint]
  {
    let path = sidecarPath(of: location, suffix: Self.noiseSuffix)
    guard FileSystem.isFile(path) else { return [] }
    return try withLock {
      var file = try KnownNoiseFile.decode(confinement.read(path, limit: Self.noiseFileLimit), path: path)
      let removed = file.fingerprints.filter(shouldRemove)
      guard !removed.isEmpty else { return [] }
      file.fingerprints.removeAll(where: shouldRemove)
      if file.fingerprints.isEmpty {
        try confinement.remove(path)
      } else {
        try confinement.write(file.encoded(), to: path)
      }
      return removed
    }
  }

  /// One snapshot's known noise as a listing shows it.
  public struct NoiseEntry: Sendable, Equatable {
    public var key: SnapshotKey
    public var location: Location
    public var fingerprint: NoiseFingerprint
    /// The baseline changed since the fingerprint was recorded: it matches nothing any more.
    public var isStale: Bool
  }

  /// Every fingerprint of the baselines a run on this store sees (`visibleKeys`), by key, each
  /// marked stale when its baseline is no longer the one it was seen against. With `keys`, only
  /// those.
  public func noiseEntries(keys: [SnapshotKey]? = nil) throws -> [NoiseEntry] {
    var entries: [NoiseEntry] = []
    let chosen = try keys ?? visibleKeys().sorted { SnapshotKey.Ordering.precedes($0.rawValue, $1.rawValue) }
    for key in chosen {
      guard let location = try locate(key) else { continue }
      let fingerprints = try noiseFingerprints(at: location)
      guard !fingerprints.isEmpty else { continue }
      let hash = SHA256.hex(try confinement.read(location.path, limit: Review.frameBytesLimit))
      entries += fingerprints.map {
        NoiseEntry(key: key, location: location, fingerprint: $0, isStale: $0.baselineHash != hash)
      }
    }
    return entries
  }

  /// Removes the fingerprints a reviewer names: of `key`, those whose id is in `ids` (a change
  /// hash or its first 6 characters or more) or, with `all`, every one; with `stale`, every stale
  /// one (of `key`, or of every snapshot). `snapdiff noise remove` and the service's `POST
  /// /api/v1/noise/remove` both ask this.
  ///
  /// - Returns: the fingerprints removed.
  /// - Throws: `RunError` when `key` has no known noise or an id names none of its fingerprints.
  public func removeNoise(key: SnapshotKey?, ids: [String], all: Bool, stale: Bool) throws -> [NoiseEntry] {
    let entries = try noiseEntries(keys: key.map { [$0] })
    let shown = key?.rawValue ?? ""
    if !stale && entries.isEmpty { throw RunError("'\(shown)' has no known noise") }
    for id in ids where !entries.contains(where: { $0.fingerprint.isNamed(by: id) }) {
      throw RunError("no fingerprint '\(id)' of '\(shown)' (snapdiff noise list shows them)")
    }
    let chosen = entries.filter { entry in
      stale ? entry.isStale : all || ids.contains { entry.fingerprint.isNamed(by: $0) }
    }
    return try chosen.filter { entry in
      try !removeNoise(at: entry.location, where: { $0 == entry.fingerprint }).isEmpty
    }
  }

  /// The suffix of the file beside a baseline that holds its fingerprints.
  static let noiseSuffix = ".noise.json"
}

/// `<key>.noise.json`: the fingerprints of differences approved as noise on one snapshot.
struct KnownNoiseFile: Codable {
  var fingerprints: [NoiseFingerprint]

  func encoded() throws -> [UInt8] { try JSONEncoderBox.encode(self) }

  static func decode(_ bytes: [UInt8], path: String) throws -> KnownNoiseFile {
    do {
      return try JSONDecoderBox.decode(KnownNoiseFile.self, from: bytes)
    } catch {
      throw ConfigurationError("\(path): not a valid list of known noise: \(JSONProblem.describe(error))")
    }
  }
}
