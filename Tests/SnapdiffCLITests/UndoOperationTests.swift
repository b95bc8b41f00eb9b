import Foundation
import SnapdiffCore
import Testing

/// Approvals as operations through the real `snapdiff` process: `approve --undo` with the same
/// selectors as `approve` (globs, `--same-as`, `--all` of a run, `--operation ID`), each undo one
/// operation of the approval log; and runs that see another run's approval of the same frames.
@Suite("undo of approval operations")
struct UndoOperationTests {
  let keys = ["Cart - test_cart/One", "Cart - test_cart/Two", "Home - test_home/Three", "Home - test_home/Four"]
  let before = Workspace.screen([PixelRect(x: 5, y: 10, width: 10, height: 10)])
  let after = Workspace.screen([PixelRect(x: 5, y: 14, width: 10, height: 10)])

  /// Records the four keys, then changes them all the same way: the last run has four failed.
  func changedRun(_ workspace: Workspace) throws -> String {
    for key in keys { try workspace.writeFrame(key, before) }
    #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    for key in keys { try workspace.writeFrame(key, after) }
    let check = try workspace.snapdiff(["check", "frames"])
    #expect(check.status == 1, "\(check.standardOutput)\(check.standardError)")
    return try workspace.lastRun()["id"] as! String
  }

  func baselinesChanged(_ workspace: Workspace) throws -> [String: Bool] {
    var changed: [String: Bool] = [:]
    for key in keys { changed[key] = try workspace.baseline(key) == after }
    return changed
  }

  func operationID(in output: String) -> String? {
    output.split(separator: "\n").first { $0.hasPrefix("operation ") }.map {
      String($0.split(separator: " ")[1].dropLast())
    }
  }

  @Test("--undo with a glob, --same-as, --all and --operation: each one operation, statuses back")
  func selectors() throws {
    try withWorkspace { workspace in
      let run = try changedRun(workspace)
      let approve = try workspace.snapdiff(["approve", "--all"])
      #expect(approve.status == 0, "\(approve.standardError)")
      let operation = try #require(operationID(in: approve.standardOutput), "\(approve.standardOutput)")
      #expect(try baselinesChanged(workspace).values.allSatisfy { $0 })
      let log = try ApprovalLog(dataDirectory: workspace.root + "/.snapdiff").entries()
      #expect(log.count == 4 && log.allSatisfy { $0.operation == operation })

      // A glob: the run's approvals of the two Cart screens, as one undo.
      let glob = try workspace.snapdiff(["approve", "--undo", "Cart*"])
      #expect(glob.status == 0, "\(glob.standardError)")
      #expect(try baselinesChanged(workspace) == [keys[0]: false, keys[1]: false, keys[2]: true, keys[3]: true])
      #expect(try workspace.lastStatuses()[keys[0]] == "failed")
      #expect(try workspace.lastStatuses()[keys[2]] == "approved")
      let undos = try ApprovalLog(dataDirectory: workspace.root + "/.snapdiff").entries().filter { $0.action == .undo }
      #expect(undos.count == 2 && Set(undos.map(\.operationID)).count == 1)

      // --same-as picks what the run approved with the same change: the two Home screens.
      let sameAs = try workspace.snapdiff(["approve", "--undo", "--same-as", keys[2], "--run", run])
      #expect(sameAs.status == 0, "\(sameAs.standardError)")
      #expect(try baselinesChanged(workspace).values.allSatisfy { !$0 })
      #expect(try workspace.lastStatuses().values.allSatisfy { $0 == "failed" })

      // Approved again, then undone whole by its operation id; a second undo is refused.
      let again = try workspace.snapdiff(["approve", "--failed"])
      let second = try #require(operationID(in: again.standardOutput))
      let whole = try workspace.snapdiff(["approve", "--undo", "--operation", second])
      #expect(whole.status == 0, "\(whole.standardError)")
      #expect(whole.standardOutput.contains("undid 4 approvals as operation"))
      #expect(try baselinesChanged(workspace).values.allSatisfy { !$0 })
      let twice = try workspace.snapdiff(["approve", "--undo", "--operation", second])
      #expect(twice.status == 2)
      #expect(twice.standardError.contains("already undone"), "\(twice.standardError)")

      // --all of the run.
      #expect(try workspace.snapdiff(["approve", "--failed"]).status == 0)
      let all = try workspace.snapdiff(["approve", "--undo", "--all"])
      #expect(all.status == 0, "\(all.standardError)")
      #expect(try baselinesChanged(workspace).values.allSatisfy { !$0 })

      // Selectors that make no sense with --undo are refused with usage.
      #expect(try workspace.snapdiff(["approve", "--undo", "--failed"]).status == 64)
      #expect(try workspace.snapdiff(["approve", "--undo"]).status == 64)
    }
  }

  @Test("a newer approval of a key makes the older operation's undo refuse, naming the newer one")
  func newerApprovalRefuses() throws {
    try withWorkspace { workspace in
      let first = try changedRun(workspace)
      let approve = try workspace.snapdiff(["approve", "--all", "--run", first])
      let older = try #require(operationID(in: approve.standardOutput))
      // Another change of one key, approved in a later run.
      try workspace.writeFrame(keys[0], Workspace.screen([PixelRect(x: 30, y: 5, width: 6, height: 6)]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let newer = try #require(operationID(in: try workspace.snapdiff(["approve", keys[0]]).standardOutput))
      let refused = try workspace.snapdiff(["approve", "--undo", "--operation", older])
      #expect(refused.status == 2)
      #expect(refused.standardError.contains("the newer approve \(newer)"), "\(refused.standardError)")
      #expect(try workspace.baseline(keys[1]) == after, "nothing undone")
      #expect(try workspace.snapdiff(["approve", "--undo", "--operation", newer]).status == 0)
      let now = try workspace.snapdiff(["approve", "--undo", "--operation", older])
      #expect(now.status == 0, "\(now.standardError)")
      #expect(try baselinesChanged(workspace).values.allSatisfy { !$0 })
    }
  }

  @Test("another run with the same frames shows them approved in the run that approved them, until undone")
  func runsSeeApprovals() throws {
    try withWorkspace { workspace in
      let first = try changedRun(workspace)
      // A second run of the same frames: four failed too.
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let second = try workspace.lastRun()["id"] as! String
      let approve = try workspace.snapdiff(["approve", "--all", "--run", second])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(approve.standardOutput.contains("in run \(first)"), "\(approve.standardOutput)")
      let record = try RunFolder.open(in: workspace.root + "/.snapdiff/runs", id: first).load()
      #expect(record.snapshots.allSatisfy { $0.status == .approved && $0.approvedIn?.run == second })
      #expect(try workspace.snapdiff(["status", first]).status == 0)
      let html = String(
        decoding: try FileIO.read(workspace.root + "/.snapdiff/runs/\(first)/index.html"), as: UTF8.self)
      #expect(html.contains("approved in run \(second)"))

      #expect(try workspace.snapdiff(["approve", "--undo", "--all", "--run", second]).status == 0)
      let reopened = try RunFolder.open(in: workspace.root + "/.snapdiff/runs", id: first).load()
      #expect(reopened.snapshots.allSatisfy { $0.status == .failed && $0.approvedIn == nil })
      #expect(try workspace.snapdiff(["status", first]).status == 1)
    }
  }

  @Test(
    "a frame a few pixels off the approved one is re-checked against the new baseline under its run's own flags"
  )
  func runsRecheckAgainstNewBaseline() throws {
    try withWorkspace { workspace in
      let approving = try changedRun(workspace)
      // Another run of the branch: key 0 is the change with one more dark pixel, key 1 another
      // change, keys 2 and 3 the approved frames themselves; checked with a tolerance of 4 pixels.
      let onePixelOff = Workspace.screen([
        PixelRect(x: 5, y: 14, width: 10, height: 10), PixelRect(x: 40, y: 30, width: 1, height: 1),
      ])
      try workspace.writeFrame(keys[0], onePixelOff)
      try workspace.writeFrame(keys[1], Workspace.screen([PixelRect(x: 30, y: 5, width: 20, height: 20)]))
      #expect(try workspace.snapdiff(["check", "frames", "--max-diff-pixels", "4"]).status == 1)
      let other = try workspace.lastRun()["id"] as! String
      let runs = workspace.root + "/.snapdiff/runs"
      let recorded = try RunFolder.open(in: runs, id: other).load()
      #expect(recorded.comparison?.maxDiffPixels == 4, "the run's flags are in run.json")
      #expect(recorded.snapshots.allSatisfy { $0.status == .failed })

      let approve = try workspace.snapdiff(["approve", "--all", "--run", approving])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(approve.standardOutput.contains("in run \(other)"), "\(approve.standardOutput)")
      let seen = try RunFolder.open(in: runs, id: other).load()
      let byKey = Dictionary(uniqueKeysWithValues: seen.snapshots.map { ($0.key, $0) })
      // One pixel off, within the run's own 4: taken over, marked as re-checked.
      #expect(byKey[keys[0]]?.status == .approved)
      #expect(byKey[keys[0]]?.approvedIn?.run == approving)
      #expect(byKey[keys[0]]?.approvedIn?.rechecked == true)
      // Another change: still failed, its verdict against the old baseline kept.
      #expect(byKey[keys[1]]?.status == .failed)
      #expect(byKey[keys[1]]?.approvedIn == nil)
      // The very frames approved: taken over as before, not re-checked.
      for key in keys[2...] {
        #expect(byKey[key]?.status == .approved)
        #expect(byKey[key]?.approvedIn?.rechecked == nil)
      }
      let html = String(decoding: try FileIO.read(runs + "/\(other)/index.html"), as: UTF8.self)
      #expect(html.contains("approved in run \(approving) (re-checked)"))
      #expect(try workspace.snapdiff(["status", other]).status == 1, "key 1 still fails the run")

      #expect(try workspace.snapdiff(["approve", "--undo", "--all", "--run", approving]).status == 0)
      let undone = try RunFolder.open(in: runs, id: other).load()
      #expect(undone.snapshots.allSatisfy { $0.status == .failed && $0.approvedIn == nil })
    }
  }

  @Test("without the run's tolerance a frame one pixel off the approved one stays failed")
  func recheckAppliesTheRunsComparison() throws {
    try withWorkspace { workspace in
      let approving = try changedRun(workspace)
      let onePixelOff = Workspace.screen([
        PixelRect(x: 5, y: 14, width: 10, height: 10), PixelRect(x: 40, y: 30, width: 1, height: 1),
      ])
      try workspace.writeFrame(keys[0], onePixelOff)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let other = try workspace.lastRun()["id"] as! String
      #expect(try workspace.snapdiff(["approve", "--all", "--run", approving]).status == 0)
      let seen = try RunFolder.open(in: workspace.root + "/.snapdiff/runs", id: other).load()
      let key0 = try #require(seen.snapshots.first { $0.key == keys[0] })
      #expect(key0.status == .failed && key0.approvedIn == nil)
      #expect(seen.snapshots.filter { $0.status == .approved }.count == 3)
    }
  }

  @Test("a run.json whose kept frame points out of its run folder is not re-checked")
  func recheckStaysInsideTheRun() throws {
    try withWorkspace { workspace in
      let approving = try changedRun(workspace)
      let onePixelOff = Workspace.screen([
        PixelRect(x: 5, y: 14, width: 10, height: 10), PixelRect(x: 40, y: 30, width: 1, height: 1),
      ])
      try workspace.writeFrame(keys[0], onePixelOff)
      #expect(try workspace.snapdiff(["check", "frames", "--max-diff-pixels", "4"]).status == 1)
      let other = try workspace.lastRun()["id"] as! String
      // The kept copy moved out of the run folder and run.json pointed at it: its bytes still
      // hash right, but it is no longer the run's.
      let folder = try RunFolder.open(in: workspace.root + "/.snapdiff/runs", id: other)
      var record = try folder.load()
      let index = try #require(record.snapshots.firstIndex { $0.key == keys[0] })
      let kept = folder.resolve(try #require(record.snapshots[index].current))
      let outside = workspace.root + "/outside.png"
      try FileManager.default.moveItem(atPath: kept, toPath: outside)
      record.snapshots[index].current = folder.relative(outside)
      try folder.save(record)
      #expect(try workspace.snapdiff(["approve", "--all", "--run", approving]).status == 0)
      let seen = try folder.load()
      #expect(seen.snapshots[index].status == .failed && seen.snapshots[index].approvedIn == nil)
    }
  }
}
