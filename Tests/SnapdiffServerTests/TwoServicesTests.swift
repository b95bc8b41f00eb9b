import Foundation
import Hummingbird
import HummingbirdTesting
import SnapdiffCore
import Testing

@testable import SnapdiffServer

/// A service is handed its storage (`ServiceStorage`: index, database, `StorageBackend`) rather
/// than setting the process's: one process holds two services, one with a backend of its own (here
/// in memory: the verdicts in a table, the locks counted) and one on its folders alone, and
/// neither's runs or locks reach the other's.
@Suite("two services in one process")
struct TwoServicesTests {
  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("each service's verdicts and locks go to its own backend; a folder takes one backend at a time")
  func twoBackends() async throws {
    try await withFixture { kept in
      try await withFixture { local in
        let screen = ServerFixture.screen()
        let changed = ServerFixture.png(ServerFixture.screen([PixelRect(x: 2, y: 2, width: 4, height: 4)]))
        for fixture in [kept, local] { try fixture.writeBaseline("two/Home", screen) }
        let table = MemoryRecords.Table()
        let locks = CountingLocks()
        let backend = StorageBackend(records: { MemoryRecords(table: table, runID: $0) }, locks: locks)
        var storage = try ServiceStorage.make(for: kept.configuration())
        storage.backend = backend
        let keptService = try RunService(configuration: kept.configuration(), storage: storage)
        let localService = try RunService(configuration: local.configuration())
        // Another backend on the first one's folders is refused while it lives.
        #expect(throws: StorageBackendError.self) {
          _ = try StorageBackend(locks: CountingLocks()).attach(to: [kept.data])
        }

        let keptRun = try await Application(router: buildRouter(keptService)).test(.router) { client in
          let run = try await client.openRun()
          let verdict = try await client.putFrame(run, "two/Home", changed)
          #expect(verdict.status == .ok && verdict.json["status"] as? String == "failed", "\(verdict.text)")
          let approve = try await client.execute(uri: snapshotURI(run, "two/Home", "/approve"), method: .post)
          #expect(approve.status == .ok, "\(approve.text)")
          return run
        }
        let localRun = try await Application(router: buildRouter(localService)).test(.router) { client in
          let run = try await client.openRun()
          let verdict = try await client.putFrame(run, "two/Home", changed)
          #expect(verdict.status == .ok && verdict.json["status"] as? String == "failed", "\(verdict.text)")
          return run
        }

        // The first service's verdict is in its table, not in a log in its run folder.
        #expect(table.keys(of: keptRun) == ["two/Home"])
        #expect(!FileManager.default.fileExists(atPath: kept.runs + "/" + keptRun + "/" + SnapshotLog.fileName))
        #expect(try kept.baseline("two/Home") == PNGDecoder().decode(changed))
        // The second's is in its run folder's log, and never in the first's table.
        #expect(table.keys(of: localRun).isEmpty)
        let localLog = SnapshotLog(path: local.runs + "/" + localRun + "/" + SnapshotLog.fileName)
        #expect(try localLog.records(after: 0).records.map(\.key) == ["two/Home"])
        // The first's locks: its run, blobs and store were locked through its backend; none of
        // the second's were.
        let locked = locks.paths
        #expect(locked.contains(kept.runs + "/" + keptRun + "/.lock"), "\(locked)")
        #expect(locked.contains(kept.baselines + "/.snapdiff.lock"), "\(locked)")
        #expect(locked.allSatisfy { $0.hasPrefix(kept.root + "/") }, "\(locked)")
        #expect(StorageBackend.serving(local.runs + "/" + localRun) == nil)
        withExtendedLifetime(keptService) {}
        withExtendedLifetime(localService) {}
      }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, *)
  @Test("a service's backend lets its folders go with it")
  func detachedWithTheService() async throws {
    try await withFixture { fixture in
      var storage = try ServiceStorage.make(for: fixture.configuration())
      storage.backend = StorageBackend(locks: CountingLocks())
      var service: RunService? = try RunService(configuration: fixture.configuration(), storage: storage)
      #expect(StorageBackend.serving(fixture.runs + "/x/.lock")?.locks != nil)
      #expect(service != nil)
      service = nil
      #expect(StorageBackend.serving(fixture.runs + "/x/.lock") == nil)
    }
  }
}

/// Verdicts kept in memory by run, as a database table keeps them.
private struct MemoryRecords: SnapshotRecordStore {
  final class Table: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [String: [SnapshotRecord]] = [:]

    func append(_ record: SnapshotRecord, to run: String) -> Range<Int> {
      lock.withLock {
        runs[run, default: []].append(record)
        return runs[run]!.count - 1..<runs[run]!.count
      }
    }

    func records(of run: String) -> [SnapshotRecord] { lock.withLock { runs[run] ?? [] } }
    func keys(of run: String) -> [String] { records(of: run).map(\.key) }
  }

  let table: Table
  let runID: String

  func append(_ record: SnapshotRecord) throws -> Range<Int> { table.append(record, to: runID) }

  func records(after position: Int) throws -> (records: [SnapshotRecord], end: Int) {
    let all = table.records(of: runID)
    return (Array(all.dropFirst(position)), all.count)
  }

  func end() throws -> Int { table.records(of: runID).count }
}

/// Locks that run their body at once and remember which lock files they were asked for.
private final class CountingLocks: CrossProcessLocks, @unchecked Sendable {
  private let lock = NSLock()
  private var asked: [String] = []

  var paths: [String] { lock.withLock { asked } }

  func withLock<T>(_ path: String, shared: Bool, _ body: () throws -> T) throws -> T {
    lock.withLock { asked.append(path) }
    return try body()
  }

  func isHeld(_ path: String) -> Bool { false }
}
