// libFuzzer harness: `snapdiff merge` of a part whose `run.json` is the input (`RunMerger`).
//
// A part is a CI artifact: untrusted. The part folder holds, beside the fuzzed `run.json`, the
// images of a real check (`images/<hash>.png` of a baseline and a changed frame, the frame's copy
// in `current/`), a link `current/evil.png` leading out and a FIFO; a folder `outside/` holds a
// PNG and must not change. The merge must either refuse with a typed error (`RunError`,
// `KeyError`, `StoreEscapeError`, `FileError`, `ConfigurationError`), or give a run whose paths
// are its own (`current/<key>.png`, `diff/<key>.png`), whose every hash names a whole blob whose
// bytes are the file the path gives, and where a `passed` snapshot's frame, when it names one,
// is its baseline's bytes. Nothing outside the data folder is written.
//
// FUZZ_MERGE_SEEDS=DIR writes seeds (a valid part's run.json, failed and new) to DIR and exits.
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let root: String = {
  var template = Array("/tmp/fuzz-merge-XXXXXX".utf8CString)
  return String(cString: mkdtemp(&template)!)
}()
let key = try! SnapshotKey("A - test_a/A")
let part = RunFolder(path: root + "/part")
let runs = root + "/data/runs"
let blobs = BlobStore.beside(runsDirectory: runs)
let store = try! BaselineStore(root: root + "/baselines")

func png(_ value: UInt8) -> [UInt8] {
  try! PNGEncoder().encode(RGBAImage(width: 4, height: 3, filledWith: RGBAColor(red: value, green: 9, blue: 9)))
}
let baseline = png(10)
let frame = png(200)
let (baselineHash, frameHash) = (SHA256.hex(baseline), SHA256.hex(frame))

/// The part's files and the store, made once.
let prepared: Void = {
  try! FileSystem.createDirectories(part.path + "/images")
  try! FileSystem.createDirectories(part.path + "/current/" + PathText.parent(of: key.relativePath()))
  try! FileSystem.createDirectories(root + "/outside")
  try! FileIO.writeAtomically(baseline, to: part.path + "/" + RunImages.relativePath(of: baselineHash))
  try! FileIO.writeAtomically(frame, to: part.path + "/" + RunImages.relativePath(of: frameHash))
  try! FileIO.writeAtomically(frame, to: part.currentCopyPath(for: key))
  try! FileIO.writeAtomically(png(50), to: root + "/outside/evil.png")
  symlink(root + "/outside/evil.png", part.path + "/current/evil.png")
  mkfifo(part.path + "/current/fifo.png", 0o644)
  try! store.write(baseline, tree: nil, for: key)
}()

/// A valid part's record: `key` failed (or new, without a baseline).
func seed(new: Bool) -> [UInt8] {
  var snapshot = SnapshotRecord(key: key.rawValue, status: new ? .new : .failed)
  snapshot.current = "current/" + key.relativePath()
  snapshot.currentHash = frameHash
  if !new { snapshot.baselineHash = baselineHash }
  var record = RunRecord(
    id: "20260101-000000-000", createdAt: "2026-01-01T00:00:00.000Z", currentDirectory: "../frames",
    baselinesDirectory: "../baselines", environment: nil, recordMode: .never, complete: false, snapshots: [snapshot])
  record.closedAt = record.createdAt
  return try! record.encoded()
}

/// Every path under `folder` with its size.
func listing(_ folder: String) -> [String: Int] {
  var result: [String: Int] = [:]
  for file in (try? FileSystem.files(under: folder)) ?? [] {
    result[file] = FileIO.regularFileSize(folder + "/" + file)
  }
  return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  _ = prepared
  let input = bytes.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  try? FileSystem.removeTree(root + "/data")
  try! FileIO.writeAtomically(input, to: part.recordPath)
  let outsideBefore = listing(root + "/outside")
  let baselinesBefore = listing(store.root)

  var merger = RunMerger(store: store, runsDirectory: runs)
  merger.limits.recordBytes = 1 << 16
  merger.limits.snapshots = 64
  do {
    let outcome = try merger.merge([part])
    let folder = outcome.folder
    for snapshot in outcome.record.snapshots {
      let key = try! SnapshotKey(snapshot.key)
      precondition(snapshot.current == nil || snapshot.current == "current/" + key.relativePath(), "\(snapshot)")
      precondition(snapshot.diff == nil || snapshot.diff == "diff/" + key.relativePath(), "\(snapshot)")
      for hash in RunImages.hashes(of: snapshot) {
        precondition(blobs.contains(hash), "blob \(hash) not whole")
        precondition(SHA256.hex(try! FileIO.read(folder.path + "/" + RunImages.relativePath(of: hash))) == hash)
      }
      if let current = snapshot.current {
        precondition(SHA256.hex(try! FileIO.read(folder.resolve(current))) == snapshot.currentHash, "\(snapshot)")
      }
      if snapshot.status == .passed, let hash = snapshot.currentHash {
        precondition(hash == snapshot.baselineHash, "a passed frame that is not its baseline")
      }
    }
  } catch is RunError {
  } catch is KeyError {
  } catch is StoreEscapeError {
  } catch is FileError {
  } catch is ConfigurationError {
  } catch {
    preconditionFailure("an untyped error: \(error)")
  }
  precondition(listing(root + "/outside") == outsideBefore, "merge wrote outside")
  precondition(listing(store.root) == baselinesBefore, "merge changed the baseline store")
  return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  if let directory = getenv("FUZZ_MERGE_SEEDS").map({ String(cString: $0) }) {
    _ = prepared
    try! FileSystem.createDirectories(directory)
    try! FileIO.writeAtomically(seed(new: false), to: directory + "/failed.json")
    try! FileIO.writeAtomically(seed(new: true), to: directory + "/new.json")
    exit(0)
  }
  return 0
}
