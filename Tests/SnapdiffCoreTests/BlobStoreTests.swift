import Foundation
import SnapdiffCore
import Testing

/// SHA-256 against FIPS 180-4's vectors and Python's hashlib at every padding boundary; the blob
/// store's put, read and collection.
@Suite("blob store")
struct BlobStoreTests {
  @Test(
    "SHA-256 of the standard's messages and of lengths around each padding boundary",
    arguments: [
      (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
      (56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"),
      (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
      (64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"),
      (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
      (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
      (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"),
    ])
  func sha256(length: Int, expected: String) {
    let bytes = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
    #expect(SHA256.hex(bytes) == expected)
  }

  @Test("SHA-256 of FIPS 180-4's examples")
  func standardVectors() {
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test("SHA-256's SHA-NI path gives the plain-Swift digest at every length 0…300 and a few MB")
  func hardwareMatchesPortable() {
    // Without SHA-NI (SHA256.usesHardware false) both sides are the Swift rounds.
    // A fixed xorshift stream: the same bytes every run.
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func bytes(_ count: Int) -> [UInt8] {
      (0..<count).map { _ in
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        return UInt8(truncatingIfNeeded: seed >> 24)
      }
    }
    for length in 0...300 {
      let message = bytes(length)
      #expect(SHA256.hex(message) == SHA256.portableHex(message), "length \(length)")
    }
    for length in [1 << 20, 3 * (1 << 20) + 37, 5_000_001] {
      let message = bytes(length)
      #expect(SHA256.hex(message) == SHA256.portableHex(message), "length \(length)")
    }
  }

  @Test("a blob is stored once, read back, and refused when damaged or misnamed")
  func putAndRead() throws {
    try withTemporaryDirectory { root in
      let blobs = BlobStore(root: root + "/blobs")
      let bytes: [UInt8] = Array("not really a PNG".utf8)
      let hash = try blobs.put(bytes)
      #expect(try blobs.put(bytes) == hash)
      #expect(try blobs.hashes() == [hash])
      #expect(blobs.path(of: hash) == root + "/blobs/sha256/" + hash.prefix(2) + "/" + hash)
      #expect(try blobs.read(hash) == bytes)
      #expect(throws: FileError.self) { try blobs.read("../../etc/passwd") }
      #expect(throws: FileError.self) { try blobs.read(String(repeating: "0", count: 64)) }
      // Damaged on disk (as root can, through the read-only mode): refused, naming the file.
      chmod(blobs.path(of: hash), 0o644)
      try FileIO.writeAtomically(Array("tampered".utf8), to: blobs.path(of: hash))
      #expect { try blobs.read(hash) } throws: { ($0 as? FileError)?.description.contains("is damaged") == true }
    }
  }

  @Test("a collection waits for a writer that holds the lock, and keeps what the writer then references")
  func collectionWaitsForWriters() throws {
    try withTemporaryDirectory { root in
      let runs = root + "/.snapdiff/runs"
      try FileSystem.createDirectories(runs + "/r1")
      let blobs = BlobStore.beside(runsDirectory: runs)
      let store = try BaselineStore(root: root + "/baselines")
      let orphan = try blobs.put(Array("orphan".utf8))
      let started = DispatchSemaphore(value: 0)
      let writer = Thread {
        try! blobs.whileAdding {
          let hash = try blobs.put(Array("in progress".utf8))
          started.signal()
          // The run is still writing: a collection now must wait.
          Thread.sleep(forTimeInterval: 0.5)
          var snapshot = SnapshotRecord(key: "a", status: .passed)
          snapshot.currentHash = hash
          let record = RunRecord(
            id: "r1", createdAt: "now", currentDirectory: ".", baselinesDirectory: ".", environment: nil,
            recordMode: .missing, complete: true, snapshots: [snapshot])
          try FileIO.writeAtomically(record.encoded(), to: runs + "/r1/run.json")
        }
      }
      writer.start()
      started.wait()
      let result = try BlobCollection.collect(blobs: blobs, runsDirectory: runs, store: store, delete: true)
      #expect(result.hashes == [orphan])
      #expect(result.kept == 1)
      #expect(try blobs.hashes() == [SHA256.hex(Array("in progress".utf8))])
    }
  }

  @Test(
    "an unchanged file's hash is remembered by its stat; a changed file is hashed again; a remembered hash never names a wrong blob"
  )
  func rememberedHashes() throws {
    try withTemporaryDirectory { root in
      let file = root + "/baseline.png"
      try FileIO.writeAtomically(Array("first".utf8), to: file)
      // Another process remembered a (deliberately wrong) hash for this very file as it is.
      var status = stat()
      stat(file, &status)
      let remembered = String(repeating: "a", count: 64)
      let line =
        "\(status.st_dev) \(status.st_ino) \(status.st_size) "
        + "\(Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)) "
        + "\(Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)) \(remembered)\n"
      let blobs = BlobStore(root: root + "/blobs")
      try FileSystem.createDirectories(blobs.root)
      try FileIO.writeAtomically(Array(line.utf8), to: blobs.root + "/file-hashes")
      let hashes = FileHashes.shared(for: blobs)
      let bytes = try FileIO.read(file)
      #expect(hashes.hash(of: file, bytes: bytes, stampedBefore: FileHashes.Stamp(file)) == remembered)
      // Taken before the file changed: hashed, not remembered.
      #expect(hashes.hash(of: file, bytes: bytes, stampedBefore: nil) == SHA256.hex(bytes))
      // No blob has that name, so it names none: the bytes are hashed before they are written.
      #expect(try blobs.put(bytes, rememberedHash: remembered) == SHA256.hex(bytes))
      #expect(!blobs.contains(remembered))

      // Replaced (a new inode and change time): hashed again, and remembered once saved.
      try FileIO.writeAtomically(Array("second".utf8), to: file)
      let second = try FileIO.read(file)
      #expect(hashes.hash(of: file, bytes: second, stampedBefore: FileHashes.Stamp(file)) == SHA256.hex(second))
      hashes.save()
      let saved = String(decoding: try FileIO.read(blobs.root + "/file-hashes"), as: UTF8.self)
      // The file's old entry and its new one, and the blob written, remembered whole (no change
      // time: -1).
      #expect(saved.split(separator: "\n").count == 3)
      #expect(saved.contains(" \(SHA256.hex(second))\n"))
      #expect(saved.contains(" -1 \(SHA256.hex(bytes))\n"))
    }
  }

  @Test("a blob cut short, rewritten or turned into a link is not contained, never read, and put writes it again")
  func damagedBlobsRewritten() throws {
    try withTemporaryDirectory { root in
      let blobs = BlobStore(root: root + "/blobs")
      let outside = root + "/outside"
      try FileIO.writeAtomically(Array("outside the store".utf8), to: outside)
      let bytes: [UInt8] = Array("a blob's bytes, long enough to cut".utf8)
      let hash = try blobs.put(bytes)
      #expect(blobs.contains(hash))
      let damages: [(String, () throws -> Void)] = [
        ("cut short in place", { _ = truncate(blobs.path(of: hash), 5) }),
        ("rewritten with other bytes", { try FileIO.writeAtomically(Array("other".utf8), to: blobs.path(of: hash)) }),
        (
          "a link out",
          {
            try FileSystem.remove(blobs.path(of: hash))
            #expect(symlink(outside, blobs.path(of: hash)) == 0)
          }
        ),
      ]
      for (damage, apply) in damages {
        chmod(blobs.path(of: hash), 0o644)
        try apply()
        #expect(!blobs.contains(hash), "\(damage)")
        #expect(throws: FileError.self) { try blobs.read(hash) }
        #expect(try blobs.put(bytes) == hash)
        #expect(FileSystem.kind(of: blobs.path(of: hash)) == .file, "\(damage)")
        #expect(try blobs.read(hash) == bytes, "\(damage)")
        #expect(blobs.contains(hash))
      }
      #expect(try FileIO.read(outside) == Array("outside the store".utf8))
      // repair: from good bytes only.
      try FileIO.writeAtomically(Array("other".utf8), to: blobs.path(of: hash))
      #expect(throws: FileError.self) { try blobs.repair(hash, from: Array("wrong".utf8)) }
      #expect(try blobs.repair(hash, from: bytes))
      #expect(try !blobs.repair(hash, from: bytes))
    }
  }
}
