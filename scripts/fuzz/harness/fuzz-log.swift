// libFuzzer harness: the approval log (`ApprovalLog`, `<data>/history/approvals.jsonl`) as a
// crash or a hand edit leaves it: the input is the log's bytes.
//
// Reading it must never fail on a line: every line is an entry or a damaged line (skipped, named
// by its number), never both; an entry names a run only by a valid run id (`RunFolder.isValidID`)
// and blobs only by hashes. An append after it must start a line of its own (the input may end
// without a line feed, inside a line), so the appended entry reads back whole and every entry
// read before is still read. The blobs a damaged line may name stay referenced (`prune` keeps
// them). An undo driven by the log never writes outside the data folder and the store.
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let root: String = {
  var template = Array("/tmp/fuzz-log-XXXXXX".utf8CString)
  return String(cString: mkdtemp(&template)!)
}()
let data = root + "/data"
let outside = root + "/outside"
let store = try! BaselineStore(root: root + "/baselines")
let history = BaselineHistory(store: store, runsDirectory: data + "/runs")

/// Every path under `folder`, with its size (links as their target).
func listing(_ folder: String) -> [String: String] {
  var result: [String: String] = [:]
  for file in (try? FileSystem.files(under: folder)) ?? [] {
    result[file] = "\(FileIO.regularFileSize(folder + "/" + file) ?? -1)"
  }
  return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  try? FileSystem.removeTree(data)
  try! FileSystem.createDirectories(data + "/history")
  try! FileSystem.createDirectories(data + "/runs")
  try! FileSystem.createDirectories(outside + "/fakerun")
  try! FileIO.writeAtomically(Array("{}".utf8), to: outside + "/fakerun/run.json")
  try! FileIO.writeAtomically(input, to: history.log.path)

  let (entries, damaged) = try! history.log.read()
  let lines = input.split(separator: 0x0A, omittingEmptySubsequences: true).count
  precondition(entries.count + damaged.count == lines, "\(entries.count) + \(damaged.count) != \(lines) lines")
  for entry in entries {
    precondition(entry.run.map(RunFolder.isValidID) ?? true, "run \(entry.run!)")
    for hash in [entry.old, entry.new, entry.oldTree, entry.newTree].compactMap({ $0 }) {
      precondition(BlobStore.isHash(hash), "hash \(hash)")
    }
  }
  let referenced = try! BlobCollection.referenced(runsDirectory: data + "/runs", store: store)
  for line in damaged { precondition(Set(line.hashes).isSubset(of: referenced)) }

  // Undo every key the log names: whatever it does, nothing outside changes.
  let before = listing(outside)
  for key in Set(entries.map(\.key)).sorted() {
    guard let key = try? SnapshotKey(key) else { continue }
    _ = try? history.undo(key, user: "fuzz")
  }
  precondition(listing(outside) == before, "an undo wrote outside")

  // An append after the input starts a line of its own and reads back.
  let (afterUndo, _) = try! history.log.read()
  let appended = ApprovalEntry(
    id: "fuzz", time: "2026-01-01T00:00:00.000Z", user: "fuzz", action: .approve, key: "K", environment: nil,
    overlay: nil, baselines: "../baselines", run: "20260101-000000-000", branch: nil, previousStatus: nil, old: nil,
    new: nil, oldTree: nil, newTree: nil, undoes: nil)
  try! history.log.append(appended)
  let (again, _) = try! history.log.read()
  precondition(again.count == afterUndo.count + 1 && again.last == appended, "an append was glued onto a line")
  precondition(Array(again.dropLast()) == afterUndo, "an append changed an earlier entry")
  return 0
}
