#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The keys of the open runs this process appends verdicts to, by their collision fold
/// (`SnapshotKey.collisionFold`), so that a key a run receives is checked against the run's other
/// keys with one lookup rather than by folding them all (which made a frame cost more as its run
/// grew). Each run's keys are read from its log once, then followed: records appended by anyone
/// else (another process) are read from where this process last looked.
///
/// The check before an append runs under the run's lock (`RunFolder.withLock`), which every
/// append holds.
final class OpenRunKeys: @unchecked Sendable {
  static let shared = OpenRunKeys()

  /// How many runs are followed (the ones taking frames).
  private let capacity = 16
  /// Each run's keys up to a position of its log; `epoch` tells an entry from one started again.
  private var runs: [String: (position: Int, keys: [String: SnapshotKey], used: UInt64, epoch: UInt64)] = [:]
  private var clock: UInt64 = 0
  private var mutex = pthread_mutex_t()

  private init() {
    pthread_mutex_init(&mutex, nil)
  }

  /// Refuses `key` when it and a key the run already has would be one file on macOS and Windows
  /// (`check`'s rule for one run). The same key again is a replacement, not a collision. The
  /// check that decides (before an append) runs under the run's lock; an early one may run
  /// without it, as the log is read by whole records that were appended in order.
  ///
  /// - Throws: `KeyError` naming both keys; `FileError`/`RunError` when the run cannot be read.
  func check(_ key: SnapshotKey, in folder: RunFolder) throws {
    let log = folder.snapshotRecords
    let path = folder.path
    var followed = withLock { runs[path].map { (position: $0.position, epoch: $0.epoch) } }
    // One request to the log for a run already followed (a database: one query, not two).
    var news = try followed.flatMap { try log.recordsFollowing($0.position) }
    if news == nil {
      // Not followed yet (or the log was replaced): the run's keys from the start.
      var keys: [String: SnapshotKey] = [:]
      for snapshot in try folder.loadStored().snapshots {
        if let known = try? SnapshotKey(snapshot.key) { keys[known.collisionFold] = known }
      }
      followed = withLock {
        clock += 1
        runs[path] = (0, keys, clock, clock)
        if runs.count > capacity, let oldest = runs.min(by: { $0.value.used < $1.value.used })?.key {
          runs[oldest] = nil
        }
        return (0, clock)
      }
      news = try log.records(after: 0)
    }
    let newKeys = news.map { $0.records.compactMap { try? SnapshotKey($0.key) } } ?? []
    let found: SnapshotKey?? = withLock {
      // Started again meanwhile (replaced, forgotten, or first read by another check at the same
      // time): these records may not follow it; read again.
      guard let followed, runs[path]?.epoch == followed.epoch else { return nil }
      if let end = news?.end, end != followed.position {
        // In place: the dictionary is not copied. A position another check moved on meanwhile
        // may go back here: the records after it are read again, and keys are only ever added.
        for known in newKeys { runs[path]?.keys[known.collisionFold] = known }
        runs[path]?.position = end
      }
      clock += 1
      runs[path]?.used = clock
      return .some(runs[path]?.keys[key.collisionFold])
    }
    guard let other = found else { return try check(key, in: folder) }
    if let other, other != key {
      try SnapshotKey.checkNoCollisions([other, key], involving: key)
    }
  }

  /// Notes that `key` was appended to the run's log at `range` (under the lock, after `check`).
  func appended(_ key: SnapshotKey, at range: Range<Int>, in folder: RunFolder) {
    withLock {
      // Followed up to the record's start: it is the next one (else it is read next time).
      guard let position = runs[folder.path]?.position, position + 1 >= range.lowerBound else { return }
      runs[folder.path]?.position = range.upperBound
      runs[folder.path]?.keys[key.collisionFold] = key
    }
  }

  private func withLock<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(&mutex)
    defer { pthread_mutex_unlock(&mutex) }
    return body()
  }
}
