import Foundation
import SnapdiffCore
import Testing

/// Several snapdiff processes on one store, and a snapdiff killed in the middle of approving.
@Suite("concurrent and interrupted reviews")
struct ConcurrencyTests {
  static func key(_ index: Int) -> String { "Group - test_many/Screen \(index < 10 ? "0" : "")\(index)" }

  static func oldScreen(_ index: Int) -> RGBAImage {
    Workspace.screen([PixelRect(x: index, y: 5, width: 10, height: 10)])
  }
  static func newScreen(_ index: Int) -> RGBAImage {
    Workspace.screen([PixelRect(x: index, y: 5, width: 10, height: 10), PixelRect(x: 0, y: 30, width: 60, height: 3)])
  }

  @Test("two approvers at once lose nothing")
  func twoApprovers() throws {
    try withWorkspace { workspace in
      for index in 0..<20 { try workspace.writeFrame(Self.key(index), Self.oldScreen(index)) }
      try workspace.snapdiff(["check", "frames"])
      for index in 0..<20 { try workspace.writeFrame(Self.key(index), Self.newScreen(index)) }
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)

      let first = try SnapdiffProcess.start(["approve", "Group - test_many/Screen 0*"], in: workspace.root)
      let second = try SnapdiffProcess.start(["approve", "Group - test_many/Screen 1*"], in: workspace.root)
      first.waitUntilExit()
      second.waitUntilExit()
      #expect(first.terminationStatus == 0 && second.terminationStatus == 0)
      let statuses = try workspace.lastStatuses()
      #expect(statuses.count == 20)
      #expect(statuses.values.allSatisfy { $0 == "approved" }, "\(statuses)")
      for index in 0..<20 { #expect(try workspace.baseline(Self.key(index)) == Self.newScreen(index)) }
    }
  }

  /// How many times `approve` is killed: 15 in the ordinary suite, `SNAPDIFF_KILL_ITERATIONS`
  /// (scripts/reliability.sh: 300) for the long run.
  static let killIterations =
    ProcessInfo.processInfo.environment["SNAPDIFF_KILL_ITERATIONS"].flatMap { Int($0) } ?? 15

  @Test("an approve killed at any moment leaves every baseline old or new, whole, and run.json readable")
  func killedApprove() throws {
    try withWorkspace { workspace in
      let count = 12
      for index in 0..<count { try workspace.writeFrame(Self.key(index), Self.oldScreen(index)) }
      try workspace.snapdiff(["check", "frames"])
      for index in 0..<count { try workspace.writeFrame(Self.key(index), Self.newScreen(index)) }
      var interrupted = 0
      var interruptedMidWay = 0
      for attempt in 0..<Self.killIterations {
        // Start from the old baselines each time.
        for index in 0..<count {
          try PNGEncoder().write(Self.oldScreen(index), to: workspace.root + "/baselines/\(Self.key(index)).png")
        }
        #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
        let approver = try SnapdiffProcess.start(["approve", "--all"], in: workspace.root)
        // A random moment in the first 60 ms, which covers start-up, the lock, and the writes.
        usleep(useconds_t.random(in: 0...60_000))
        kill(approver.processIdentifier, SIGKILL)
        approver.waitUntilExit()
        if approver.terminationReason == .uncaughtSignal { interrupted += 1 }
        var updated = 0
        for index in 0..<count {
          let baseline = try workspace.baseline(Self.key(index))
          #expect(
            baseline == Self.oldScreen(index) || baseline == Self.newScreen(index), "attempt \(attempt), \(index)")
          if baseline == Self.newScreen(index) { updated += 1 }
        }
        if approver.terminationReason == .uncaughtSignal && updated > 0 && updated < count { interruptedMidWay += 1 }
        #expect(throws: Never.self) { try workspace.lastRun() }
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: workspace.root + "/baselines")
          .filter { $0.hasSuffix(".tmp") }
        // A killed writer may leave a temporary file behind, never a half-written baseline.
        #expect(leftovers.allSatisfy { !$0.hasSuffix(".png") })
      }
      #expect(interrupted > 0)
      print(
        "killed approve: \(Self.killIterations) runs, \(interrupted) killed before finishing, \(interruptedMidWay) with some baselines written and some not; every baseline old or new and whole"
      )
    }
  }
}
