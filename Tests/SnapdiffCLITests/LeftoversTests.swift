import Foundation
import SnapdiffCore
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a killed run leaves behind is removed when `check` or `prune` starts, once it is older
/// than the grace period and no process holds it (issue #12); and identical bytes pass without
/// decoding, with or without `--diff`.
@Suite("leftovers of killed runs")
struct LeftoversTests {
  /// Writes `bytes` at `path` (folders made), dated `age` seconds ago.
  static func plant(_ path: String, _ bytes: [UInt8] = [1, 2, 3], age: TimeInterval) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
  }

  static func age(_ path: String, by seconds: TimeInterval) throws {
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)], ofItemAtPath: path)
  }

  @Test("check and prune remove old unfinished run folders, temporary files and uploads; fresh or locked ones stay")
  func cleaned() throws {
    try withWorkspace { workspace in
      let runs = workspace.root + "/.snapdiff/runs"
      let hour: TimeInterval = 3600
      // A check killed an hour ago: a run folder with frame copies and no run.json.
      let killed = runs + "/20200101-000000-000"
      try Self.plant(killed + "/current/Home.png", [UInt8](repeating: 7, count: 1000), age: hour)
      try Self.age(killed + "/current", by: hour)
      try Self.age(killed, by: hour)
      // The same, but a process still holds its lock (a check in progress).
      let running = runs + "/20200101-000000-001"
      try Self.plant(running + "/current/Home.png", age: hour)
      try Self.plant(running + "/.lock", [], age: hour)
      try Self.age(running + "/current", by: hour)
      try Self.age(running, by: hour)
      // A run folder without run.json that is a minute old: inside the grace period.
      let young = runs + "/20200101-000000-002"
      try Self.plant(young + "/current/Home.png", age: 60)
      let oldTemporary = workspace.root + "/baselines/sub/.Home.png.4242.17.tmp"
      let freshTemporary = workspace.root + "/baselines/.Top.png.4242.18.tmp"
      let oldUpload = workspace.root + "/.snapdiff/uploads/upload-Ab12Cd"
      let freshUpload = workspace.root + "/.snapdiff/uploads/upload-Zz99Yy"
      let oldCacheTemporary = workspace.root + "/.snapdiff/cache/.entry.4242.19.tmp"
      try Self.plant(oldTemporary, age: hour)
      try Self.plant(freshTemporary, age: 5)
      try Self.plant(oldUpload, [UInt8](repeating: 1, count: 500), age: hour)
      try Self.plant(freshUpload, age: 5)
      try Self.plant(oldCacheTemporary, age: hour)

      // This process holds the run's lock as a check in progress would (flock locks belong to
      // an open file, so the snapdiff processes below see it held); closing the file drops it.
      let holder = open(running + "/.lock", O_RDWR | O_CLOEXEC)
      #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
      var holderOpen = true
      defer { if holderOpen { close(holder) } }

      try workspace.writeFrame("Home", Workspace.screen([]))
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 0, "\(check.standardError)")
      #expect(check.standardError.contains("snapdiff: removed 4 leftovers of interrupted runs (1506 bytes;"))
      let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
      #expect(!exists(killed) && !exists(oldTemporary) && !exists(oldUpload) && !exists(oldCacheTemporary))
      #expect(exists(running + "/current/Home.png") && exists(young) && exists(freshTemporary) && exists(freshUpload))
      #expect(exists(runs + "/last/run.json"))

      // Once the holder is gone, prune takes the folder it held.
      close(holder)
      holderOpen = false
      let prune = try workspace.snapdiff(["prune"])
      #expect(prune.status == 0, "\(prune.standardError)")
      #expect(prune.standardError.contains("removed 1 leftover of interrupted runs"))
      #expect(!exists(running))
      #expect(exists(young))
    }
  }

  @Test("a corrupt PNG compared with its byte-identical copy passes without being decoded, with and without --diff")
  func identicalCorrupt() throws {
    try withWorkspace { workspace in
      let png =
        PNGBytes.signature
        + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: 2, height: 2, bitDepth: 8, colorType: 6, interlaced: false))
        + PNGBytes.chunk("IDAT", [UInt8](repeating: 0xFF, count: 20)) + PNGBytes.chunk("IEND", [])
      for name in ["a.png", "b.png"] { try Data(png).write(to: URL(fileURLWithPath: workspace.root + "/" + name)) }
      let count = try workspace.snapdiff(["compare", "a.png", "b.png"])
      #expect(count.status == 0, "\(count.standardError)")
      let drawn = try workspace.snapdiff(["compare", "a.png", "b.png", "--diff", "d.png"])
      #expect(drawn.status == 0, "\(drawn.standardError)")
      #expect(try PNGDecoder().decode(contentsOf: workspace.root + "/d.png").width == 2)
      // Not identical: the corrupt data is read, and named.
      try Data(png + [0]).write(to: URL(fileURLWithPath: workspace.root + "/b.png"))
      #expect(try workspace.snapdiff(["compare", "a.png", "b.png"]).status == 2)
    }
  }
}
