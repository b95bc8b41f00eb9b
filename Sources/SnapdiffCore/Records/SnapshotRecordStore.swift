/// Where an open run's verdicts go as they arrive, one record at a time, until `run.json` takes
/// them all at close: a write-ahead log of `SnapshotRecord`s. Appending costs the same for the
/// first frame of a run and the ten-thousandth (rewriting `run.json` for every frame made a run of
/// n frames cost n²).
///
/// Positions are opaque, increasing numbers: a record appended later has a larger one. `run.json`
/// keeps the position its `snapshots` hold the log up to (`RunRecord.logPosition`), so the
/// records after it are what a reader adds to it (a later record of a key replaces an earlier one).
///
/// The run folder's `snapshots.jsonl` (`SnapshotLog`) is the default; `snapdiff serve --database
/// postgres://…` keeps them in a table shared by every instance (the `records` of the
/// `StorageBackend` attached to the data folder).
public protocol SnapshotRecordStore: Sendable {
  /// Appends `record`, durably: once this returns, it survives the process being killed.
  ///
  /// - Returns: the positions before and after the record.
  @discardableResult
  func append(_ record: SnapshotRecord) throws -> Range<Int>

  /// The whole records after `position`, oldest first, and the position after the last of them
  /// (`position` when there is none).
  func records(after position: Int) throws -> (records: [SnapshotRecord], end: Int)

  /// The position after the last whole record (0 for an empty or missing store).
  func end() throws -> Int

  /// What a reader that follows the store asks each time: `records(after:)`, or `nil` when the
  /// store now ends before `position` (it was replaced: read it again from the start). A store
  /// that answers both in one request (a database) implements it; the others take `end()` then
  /// `records(after:)`.
  func recordsFollowing(_ position: Int) throws -> (records: [SnapshotRecord], end: Int)?
}

extension SnapshotRecordStore {
  public func recordsFollowing(_ position: Int) throws -> (records: [SnapshotRecord], end: Int)? {
    let end = try end()
    guard end >= position else { return nil }
    return end == position ? ([], position) : try records(after: position)
  }
}

extension RunRecord {
  /// `self` with the log's records after `logPosition` applied (a later record of a key replaces
  /// the earlier one, by the key's bytes), in key order, and `logPosition` moved to `end`.
  /// Nothing after `logPosition`: `self` as it is.
  func applying(_ records: [SnapshotRecord], end: Int) -> RunRecord {
    if records.isEmpty && end == logPosition ?? 0 { return self }
    var record = self
    record.logPosition = end
    guard !records.isEmpty else { return record }
    var positions: [[UInt8]: Int] = [:]
    positions.reserveCapacity(record.snapshots.count + records.count)
    for (index, snapshot) in record.snapshots.enumerated() { positions[Array(snapshot.key.utf8)] = index }
    for snapshot in records {
      let key = Array(snapshot.key.utf8)
      if let index = positions[key] {
        record.snapshots[index] = snapshot
      } else {
        positions[key] = record.snapshots.count
        record.snapshots.append(snapshot)
      }
    }
    record.snapshots.sort { SnapshotKey.Ordering.precedes($0.key, $1.key) }
    return record
  }
}
