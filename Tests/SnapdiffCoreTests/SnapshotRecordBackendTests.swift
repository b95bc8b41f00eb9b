import SnapdiffCore
import Testing

/// A run's records backend (the service's PostgreSQL table, `StorageBackend.records`) is read
/// several times for each frame. Each read once stored the closure back wrapped in two more
/// reabstraction thunks, so each call went through more of them: a PostgreSQL service cost more
/// CPU per frame the more frames it had taken (the last tenth of a 10,000-frame run 4× the
/// first), and would in the end have run out of stack. Measured by the stack's depth inside the
/// closure, not by time.
@Suite("the records backend")
struct SnapshotRecordBackendTests {
  @Test("reading the backend a thousand times does not make a call of it any deeper")
  func readingTheBackendLeavesItAsSet() throws {
    let depth = StackDepth()
    let folder = "/nonexistent/snapdiff-backend-\(UInt64.random(in: 0...UInt64.max))"
    let backend = StorageBackend(records: { runID in
      depth.note()
      return SnapshotLog(path: "/nonexistent/" + runID + "/snapshots.jsonl")
    })
    let attachment = try backend.attach(to: [folder])
    defer { attachment.detach() }
    let first = StorageBackend.serving(folder + "/runs/run")?.records
    for _ in 0..<1000 { _ = StorageBackend.serving(folder + "/runs/run")?.records }
    let later = StorageBackend.serving(folder + "/runs/run")?.records
    _ = first?("run")
    let firstDepth = depth.address
    _ = later?("run")
    let laterDepth = depth.address
    // Two thunks more per read were at least 32 bytes of stack each: 64 KB after 1,000 reads.
    #expect(
      abs(firstDepth - laterDepth) < 1024,
      "a call of the backend went \(firstDepth - laterDepth) bytes deeper after 1,000 reads")
  }
}

/// Where the stack was at the last `note()`.
private final class StackDepth: @unchecked Sendable {
  private(set) var address = 0

  @inline(never)
  func note() {
    var marker = 0
    address = withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
  }
}
