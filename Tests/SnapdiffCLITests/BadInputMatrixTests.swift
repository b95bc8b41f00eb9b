import Foundation
import SnapdiffCore
import SnapdiffTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bad-input matrix (issue "Hardening", part 2): damaged and hostile input, each row once
/// through `snapdiff` as a real process and once through the library. A row is either a clear
/// error (exit 2, the message names the file and the problem) or a correct result, and in every
/// row the baselines already stored keep their bytes. The groups:
///
/// - PNG content (`pngRows`): empty, not a PNG, truncated in the signature / header / IDAT, bad
///   CRCs, a bad zlib stream, width or height 0, over the limit, a decompression bomb, a chunk
///   claiming 2 GB: exit 2, `FILE: KIND: PROBLEM`.
/// - PNG formats (`pngRows`): no IEND, 16-bit, palette + tRNS, interlaced, gray + alpha: decoded
///   to the right pixels.
/// - Files: a directory, an unreadable file, a missing file, a baseline linking outside the store.
/// - Runs: a run's frame copy damaged before `approve`: refused, the baseline kept.
/// - Keys (`keyRows`): `..`, `.`, leading and trailing `/`, `//`, NUL, control characters, a
///   backslash, a 241-byte name, a 1205-byte key: refused. The longest valid name (240 bytes):
///   recorded, checked, approved. Names differing only by case, or only by Unicode
///   normalisation (NFC and NFD): refused together; either alone is a key.
/// - Element trees (`treeRows`): 1e12, 1e999, negative sizes, a 1e12 screen, huge arrays, many
///   children, deep nesting, one identifier repeated down a path (`loopingIdentifiers` also
///   masks and layout-compares it): refused naming the JSON path, or rendered.
/// - Numbers: `--ignore` and settings-file regions at the ends of `Int`: a correct result.
@Suite("bad-input matrix")
struct BadInputMatrixTests {
  // MARK: - PNG files

  struct PNGRow: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    /// `nil`: the file decodes to `MatrixPNG.reference` (or `expected`).
    var error: (kind: PNGError.Kind, message: String)?
    var expected: RGBAImage = MatrixPNG.reference
    var testDescription: String { name }
  }

  static let pngRows: [PNGRow] = {
    let good = MatrixPNG.file(MatrixPNG.reference)
    let truncated = "the file ends before the image data does"
    var rows: [PNGRow] = [
      PNGRow(
        name: "a zero-length file", bytes: [], error: (.notPNG, "the file is empty (0 bytes)")),
      PNGRow(
        name: "not a PNG", bytes: Array("GIF89a, certainly not a PNG".utf8),
        error: (.notPNG, "not a PNG file (no PNG signature)")),
      PNGRow(
        name: "truncated in the signature", bytes: Array(good.prefix(5)),
        error: (.truncated, "the file ends inside the PNG signature")),
      PNGRow(
        name: "truncated in the header", bytes: Array(good.prefix(20)),
        error: (.truncated, truncated)),
      PNGRow(
        name: "truncated in the image data",
        bytes: Array(good.prefix(PNGBytes.idatDataOffset(good) + 40)),
        error: (.truncated, truncated)),
      PNGRow(
        name: "a bad CRC on IHDR", bytes: MatrixPNG.flipping(good, at: 29),
        error: (.corrupt, "IHDR: CRC error")),
      PNGRow(
        name: "a bad CRC on IDAT", bytes: MatrixPNG.flipping(good, at: good.count - 13),
        error: (.corrupt, "IDAT: CRC error")),
      PNGRow(
        name: "a bad zlib stream (valid CRC)",
        bytes: MatrixPNG.file(MatrixPNG.reference, zlibBlockHeader: 0x07),
        error: (.corrupt, "IDAT: invalid block type")),
      PNGRow(
        name: "width 0", bytes: MatrixPNG.header(width: 0, height: 6),
        error: (.corrupt, "Invalid IHDR data")),
      PNGRow(
        name: "height 0", bytes: MatrixPNG.header(width: 8, height: 0),
        error: (.corrupt, "Invalid IHDR data")),
      PNGRow(
        name: "over the pixel limit", bytes: MatrixPNG.header(width: 100_000, height: 100_000),
        error: (.tooLarge, "100000×100000 is 10000 megapixels, over the limit of 200")),
      // 200 megapixels declared (800 MB decoded), just under the limit, in 167 bytes.
      PNGRow(
        name: "a decompression bomb", bytes: MatrixPNG.header(width: 20_000, height: 10_000),
        error: (
          .corrupt,
          "Not enough image data: the header's 20000×10000 image is 800010000 bytes of rows, which needs at least "
            + "775204 bytes of compressed data (deflate makes at most 1032 bytes from one); the IDAT chunks hold 110"
        )),
      // Issue #12: libpng's own words ("IEND: out of place", "Not enough image data") did not say what was wrong.
      PNGRow(
        name: "no IDAT chunk",
        bytes: PNGBytes.signature
          + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: 8, height: 6, bitDepth: 8, colorType: 6, interlaced: false))
          + PNGBytes.chunk("IEND", []),
        error: (.corrupt, "the file has no image data: IEND comes before any IDAT chunk")),
      PNGRow(
        name: "a missing Adler-32", bytes: MatrixPNG.file(MatrixPNG.reference, dropsAdler: true),
        error: (
          .corrupt,
          "Not enough image data: every row is there, but the zlib stream stops before its end "
            + "(the Adler-32 checksum that closes it is missing)"
        )),
      // Found by fuzz-png: libpng allocated and zeroed a chunk's claimed length first.
      PNGRow(
        name: "an iTXt chunk claiming 2 GB",
        bytes: MatrixPNG.insertingChunkHeader(good, length: 2_000_000_000, type: "iTXt"),
        error: (.truncated, truncated)),
      // Accepted, as libpng and browsers accept it (docs/how-it-compares.md).
      PNGRow(name: "no IEND", bytes: MatrixPNG.file(MatrixPNG.reference, includeEnd: false)),
      PNGRow(name: "16-bit RGBA", bytes: MatrixPNG.file(MatrixPNG.reference, bitDepth: 16)),
      PNGRow(
        name: "palette with tRNS", bytes: MatrixPNG.file(MatrixPNG.reference, colorType: 3)),
      PNGRow(
        name: "interlaced (Adam7)", bytes: MatrixPNG.file(MatrixPNG.reference, interlaced: true)),
      PNGRow(
        name: "gray + alpha", bytes: MatrixPNG.file(MatrixPNG.grayReference, colorType: 4),
        expected: MatrixPNG.grayReference),
    ]
    rows.append(
      PNGRow(
        name: "16-bit gray + alpha, interlaced, no IEND",
        bytes: MatrixPNG.file(
          MatrixPNG.grayReference, colorType: 4, bitDepth: 16, interlaced: true, includeEnd: false
        ),
        expected: MatrixPNG.grayReference))
    return rows
  }()

  @Test("PNG files", arguments: pngRows)
  func png(_ row: PNGRow) throws {
    try withWorkspace { workspace in
      let home = "Home - test_png/Home"
      let new = "New - test_png/New"
      let (homePath, newPath) = try workspace.recordThenReplace(
        home, recording: row.expected, new: new, with: row.bytes)
      let reference = workspace.root + "/reference.png"
      try PNGEncoder().write(row.expected, to: reference)
      let before = try StoreBytes(workspace)

      // The library.
      do {
        let image = try PNGDecoder().decode(contentsOf: homePath)
        #expect(row.error == nil, "decoded, expected \(String(describing: row.error))")
        #expect(image == row.expected)
      } catch let error as PNGError {
        #expect(error.kind == row.error?.kind, "\(error)")
        #expect(
          error.description
            == "\(homePath): \(row.error?.kind.description ?? "?"): \(row.error?.message ?? "?")")
      }

      // `compare FRAME reference.png`.
      let compare = try workspace.snapdiff(["compare", homePath, reference])
      // `check frames`: the frame replaces a recorded snapshot's and is a new snapshot's.
      let check = try workspace.snapdiff(["check", "frames"])
      if let error = row.error {
        let message = "\(error.kind): \(error.message)"
        #expect(compare.status == 2)
        #expect(compare.standardError == "snapdiff: error: \(homePath): \(message)\n")
        #expect(check.status == 2)
        #expect(
          check.standardOutput.contains("error: \(homePath): \(message)"), "\(check.standardOutput)"
        )
        #expect(check.standardOutput.contains("error: \(newPath): \(message)"))
        #expect(try StoreBytes(workspace) == before, "the store changed")
      } else {
        #expect(compare.status == 0, "\(compare.standardError)")
        #expect(
          compare.standardOutput.hasPrefix(
            "PASS  identical (\(row.expected.width)×\(row.expected.height))"))
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        #expect(try workspace.lastStatuses() == [home: "passed", new: "new"])
        #expect(try StoreBytes(workspace).keeps(before), "a stored baseline changed")
        #expect(try workspace.baseline(new) == row.expected)
      }
    }
  }

  /// The bomb declares 800 MB of pixels in 300 bytes: it must fail without touching them.
  @Test("a decompression bomb fails without touching its declared size")
  func bombMemory() throws {
    let bomb = MatrixPNG.header(width: 20_000, height: 10_000)
    let before = peakResidentBytes()
    #expect(throws: PNGError.self) { try PNGDecoder().decode(bomb, path: "bomb.png") }
    #expect(peakResidentBytes() - before < 400 << 20, "the decoder touched the declared image")
  }

  // MARK: - Files that are not what they should be

  @Test("a directory where a file should be")
  func directory() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home - test_dir/Home", Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let folder = workspace.root + "/shot.png"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      // A directory where the baseline of a new snapshot would go.
      let blocked = workspace.root + "/baselines/New - test_dir/New.png"
      try FileManager.default.createDirectory(atPath: blocked, withIntermediateDirectories: true)
      try workspace.writeFrame("New - test_dir/New", Workspace.screen([]))
      // A directory named like a frame in the frames folder: a folder, walked, holding no frame.
      try FileManager.default.createDirectory(
        atPath: workspace.root + "/frames/Home - test_dir/Folder.png",
        withIntermediateDirectories: true)
      let before = try StoreBytes(workspace)

      #expect(throws: FileError(path: folder, message: "is a directory, not a file")) {
        try PNGDecoder().decode(contentsOf: folder)
      }
      #expect(
        try BaselineStore(root: workspace.root + "/baselines").locate(
          SnapshotKey("New - test_dir/New")) == nil)

      let compare = try workspace.snapdiff(["compare", folder, folder])
      #expect(compare.status == 2)
      #expect(compare.standardError == "snapdiff: error: \(folder): is a directory, not a file\n")
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 2)
      #expect(check.standardOutput.contains("error: \(blocked): cannot write: is a directory"))
      #expect(
        try workspace.lastStatuses() == [
          "Home - test_dir/Home": "passed", "New - test_dir/New": "failed",
        ])
      #expect(try StoreBytes(workspace) == before)
    }
  }

  /// chmod 000 only stops a reader without CAP_DAC_OVERRIDE; tests often run as root.
  static let chmodBlocksReads: Bool = {
    let path = temporaryPath("snapdiff-chmod")
    guard FileManager.default.createFile(atPath: path, contents: Data([1])) else { return false }
    defer { try? FileManager.default.removeItem(atPath: path) }
    chmod(path, 0)
    let descriptor = open(path, O_RDONLY)
    if descriptor >= 0 { close(descriptor) }
    return descriptor < 0
  }()

  @Test(
    "an unreadable file (chmod 000)",
    .enabled(
      if: chmodBlocksReads,
      "chmod 000 does not stop this user from reading (root, or CAP_DAC_OVERRIDE): no unreadable file can be made here"
    ))
  func unreadable() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home - test_mode/Home", Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let frame = workspace.root + "/frames/Home - test_mode/Home.png"
      chmod(frame, 0)
      defer { chmod(frame, 0o644) }
      let before = try StoreBytes(workspace)

      #expect(throws: FileError(path: frame, message: "cannot open: permission denied")) {
        try PNGDecoder().decode(contentsOf: frame)
      }
      let compare = try workspace.snapdiff(["compare", frame, frame])
      #expect(compare.status == 2)
      #expect(
        compare.standardError == "snapdiff: error: \(frame): cannot open: permission denied\n")
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 2)
      #expect(check.standardOutput.contains("error: \(frame): cannot open: permission denied"))
      #expect(try StoreBytes(workspace) == before)
    }
  }

  @Test("a missing file")
  func missing() throws {
    try withWorkspace { workspace in
      let path = workspace.root + "/nothing.png"
      #expect(throws: FileError(path: path, message: "cannot open: no such file or directory")) {
        try PNGDecoder().decode(contentsOf: path)
      }
      let compare = try workspace.snapdiff(["compare", path, path])
      #expect(compare.status == 2)
      #expect(
        compare.standardError
          == "snapdiff: error: \(path): cannot open: no such file or directory\n")
    }
  }

  @Test("a baseline that is a link leading outside the store")
  func symlinkOutside() throws {
    try withWorkspace { workspace in
      let key = "Home - test_link/Home"
      try workspace.writeFrame(key, Workspace.screen([]))
      let outside = workspace.root + "/outside.png"
      try PNGEncoder().write(
        Workspace.screen([PixelRect(x: 0, y: 0, width: 9, height: 9)]), to: outside)
      let outsideBytes = try Data(contentsOf: URL(fileURLWithPath: outside))
      let link = workspace.root + "/baselines/" + key + ".png"
      try FileManager.default.createDirectory(
        atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
      let before = try StoreBytes(workspace)

      let store = try BaselineStore(root: workspace.root + "/baselines")
      #expect(throws: FileError.self) { try store.locate(SnapshotKey(key)) }

      let check = try workspace.snapdiff(["check", "frames", "--record", "all"])
      #expect(check.status == 2)
      // Refused before the run starts (it is a write target in record mode all).
      #expect(
        check.standardError.contains(
          "\(link): is a symbolic link that leads outside the baseline store"))
      let approve = try workspace.snapdiff(["approve", "--all"])
      #expect(approve.status == 2)
      #expect(try StoreBytes(workspace) == before)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: outside)) == outsideBytes,
        "written through the link")
    }
  }

  /// A frame copy in the run folder damaged between `check` and `approve` (a full disk, a
  /// hand edit): `approve` decodes the copy before promoting it, so the damage is an error that
  /// names the file, and the good baseline stays.
  @Test("a run's frame copy damaged before approve")
  func damagedRunCopy() throws {
    try withWorkspace { workspace in
      let key = "Home - test_copy/Home"
      try workspace.writeFrame(key, Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      try workspace.writeFrame(key, Workspace.screen([PixelRect(x: 0, y: 0, width: 9, height: 9)]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let copy = workspace.root + "/.snapdiff/runs/last/current/" + key + ".png"
      let bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
      try bytes.prefix(60).write(to: URL(fileURLWithPath: copy))
      let before = try StoreBytes(workspace)

      let approve = try workspace.snapdiff(["approve", "--failed"])
      #expect(approve.status == 2)
      #expect(
        approve.standardError.hasPrefix("snapdiff: error: \(workspace.root)/.snapdiff/runs/")
          && approve.standardError.hasSuffix(
            "/current/\(key).png: truncated PNG: the file ends before the image data does\n"),
        "\(approve.standardError)")
      #expect(try StoreBytes(workspace) == before)
    }
  }

  // MARK: - Snapshot keys

  struct KeyRow: Sendable, CustomTestStringConvertible {
    var name: String
    var key: String
    var problem: String
    /// A file name can hold it: also tried as a frame's name in `check`.
    var asFrame = false
    var testDescription: String { name }
  }

  static let longName = String(repeating: "n", count: 241)
  static let longKey = (0..<6).map { _ in String(repeating: "k", count: 200) }.joined(
    separator: "/")

  static let keyRows: [KeyRow] = [
    KeyRow(
      name: "a '..' component", key: "Home/../../etc/passwd",
      problem: "has a '..' component: keys cannot leave the store"),
    KeyRow(
      name: "a '.' component", key: "./Home",
      problem: "has a '.' component: keys cannot leave the store"),
    KeyRow(
      name: "a leading '/'", key: "/etc/passwd",
      problem: "starts with '/': keys are relative to the store"),
    KeyRow(name: "a trailing '/'", key: "Home/", problem: "ends with '/'"),
    KeyRow(
      name: "an empty folder name", key: "Home//Home", problem: "has an empty folder name ('//')"),
    KeyRow(name: "a NUL", key: "Zed\u{0}/../../x", problem: "contains a NUL character"),
    KeyRow(
      name: "a control character", key: "Home\tTab", problem: "contains a control character (U+9)",
      asFrame: true),
    KeyRow(
      name: "a backslash", key: "Home\\Back",
      problem: "contains a backslash: use '/' between folders", asFrame: true),
    KeyRow(
      name: "a 241-byte name", key: "Long/" + longName, problem: "has a name longer than 240 bytes",
      asFrame: true),
    KeyRow(
      name: "a 1205-byte key", key: longKey, problem: "is longer than 1024 bytes", asFrame: true),
  ]

  @Test("snapshot keys", arguments: keyRows)
  func key(_ row: KeyRow) throws {
    // The library refuses the key; the CLI prints the same words.
    let refusal: KeyError
    do {
      _ = try SnapshotKey(row.key)
      Issue.record("accepted")
      return
    } catch {
      refusal = error
    }
    #expect(refusal.key == row.key && refusal.problem == row.problem)
    let message = "\(refusal)"

    try withWorkspace { workspace in
      try workspace.writeFrame("Home - test_keys/Home", Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let before = try StoreBytes(workspace)

      // `approve KEY` finds nothing to approve. A process argument cannot hold a NUL: the
      // process sees the text before it ("Zed"), which names no snapshot either.
      let argument = row.key.split(separator: "\u{0}", omittingEmptySubsequences: false)[0]
      let approve = try workspace.snapdiff(["approve", row.key])
      #expect(approve.status == 2)
      if argument.utf8.count > 1024 {
        // Longer than any key: refused as a glob before any run is read.
        #expect(
          approve.standardError.contains("is \(argument.utf8.count) bytes; a glob, like a key, is at most 1024"),
          "\(approve.standardError)")
      } else {
        #expect(approve.standardError.contains("no snapshot in run"))
        #expect(approve.standardError.contains("matches '\(argument)'"))
      }

      // `--environment KEY` goes through the same validation.
      if !row.key.contains("\u{0}") {
        let environment = try workspace.snapdiff(["check", "frames", "--environment", row.key])
        #expect(environment.status == 2)
        #expect(environment.standardError.contains(message), "\(environment.standardError)")
      }

      // A frame with that name: the snapshot is refused, the others still compared.
      if row.asFrame {
        try workspace.writeRawFrame(row.key, MatrixPNG.file(MatrixPNG.reference))
        let check = try workspace.snapdiff(["check", "frames"])
        #expect(check.status == 2)
        #expect((check.standardOutput + check.standardError).contains(message))
      }
      #expect(try StoreBytes(workspace) == before)
    }
  }

  /// Decided: NFC (`é`, U+00E9) and NFD (`e` + U+0301) spellings of one name are refused
  /// together, as names differing by case are: they are two files on Linux but one on macOS
  /// (APFS and HFS+ ignore normalisation), and Swift's `String` calls them equal, so review
  /// commands given one spelling could not tell them apart.
  @Test("NFC and NFD spellings of one name")
  func unicodeNormalisation() throws {
    try withWorkspace { workspace in
      let nfc = "Caf\u{E9} - test_menu/Caf\u{E9}"
      let nfd = "Cafe\u{301} - test_menu/Cafe\u{301}"
      #expect(nfc.utf8.count != nfd.utf8.count)
      #expect(try SnapshotKey(nfc).rawValue.utf8.elementsEqual(nfc.utf8))
      #expect(try SnapshotKey(nfd).rawValue.utf8.elementsEqual(nfd.utf8))

      // One spelling alone is an ordinary key.
      try workspace.writeFrame(nfc, Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      #expect(try workspace.baseline(nfc) == Workspace.screen([]))
      let before = try StoreBytes(workspace)

      // Both at once: refused, naming both, and nothing stored changes.
      try workspace.writeFrame(nfd, Workspace.screen([PixelRect(x: 0, y: 0, width: 5, height: 5)]))
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 2)
      #expect(
        check.standardError.contains(
          "differs from '\(nfd)' only by Unicode normalisation (the same text in other code points, as é and e + ́): the two would be one file on macOS and Windows"
        ),
        "\(check.standardError)")
      #expect(try StoreBytes(workspace) == before)
    }
  }

  @Test("two keys differing only by letter case")
  func caseCollision() throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home - test_case/Home", Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let before = try StoreBytes(workspace)
      try workspace.writeFrame("Home - test_case/HOME", Workspace.screen([]))
      let keys = try ["Home - test_case/Home", "Home - test_case/HOME"].map { try SnapshotKey($0) }
      #expect(SnapshotKey.collisions(keys).map(\.2) == [.letterCase])
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 2)
      #expect(
        check.standardError.contains("differs from 'Home - test_case/HOME' only by letter case"))
      #expect(try StoreBytes(workspace) == before)
    }
  }

  /// The longest valid name (240 bytes) leaves room for every file a key gets: `NAME.png`,
  /// `NAME.snapdiff.json` (254 bytes), and the atomic write's temporary file, whose name is cut
  /// to fit 255 bytes. (Names of 228 to 250 bytes used to be valid but unwritable.)
  @Test("the longest valid name (240 bytes) is recorded, checked and approved")
  func longValidKey() throws {
    try withWorkspace { workspace in
      let key = "Long - test_long/" + String(repeating: "l", count: 240)
      #expect(try SnapshotKey(key).rawValue == key)
      try workspace.writeRawFrame(key, MatrixPNG.file(MatrixPNG.reference))
      let record = try workspace.snapdiff(["check", "frames"])
      #expect(record.status == 0, "\(record.standardOutput)\(record.standardError)")
      #expect(try workspace.lastStatuses() == [key: "new"])

      let changed = Workspace.screen([PixelRect(x: 0, y: 0, width: 9, height: 9)])
      try workspace.writeFrame(key, changed)
      let settings = workspace.root + "/frames/" + key + ".snapdiff.json"
      try Data(#"{"threshold": 0.1}"#.utf8).write(to: URL(fileURLWithPath: settings))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 1)
      let approve = try workspace.snapdiff(["approve", "--failed"])
      #expect(approve.status == 0, "\(approve.standardError)")
      #expect(try workspace.baseline(key) == changed)
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
    }
  }

  // MARK: - Element trees

  struct TreeRow: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    /// `nil`: the tree is valid and renders to 40×30.
    var problem: String?
    var testDescription: String { name }
  }

  /// A 40×30 screen with `children` under its root (a button by default).
  static func tree(
    button frame: String = #"{"x": 0, "y": 0, "width": 10, "height": 10}"#, children: String? = nil,
    screen: String = #"{"width": 40, "height": 30}"#, extra: String = ""
  ) -> String {
    let kids = children ?? #"[{"elementType": "button", "label": "OK", "frame": \#(frame)}]"#
    return
      #"{"scale": 1, "screen": \#(screen), \#(extra)"root": {"elementType": "application", "frame": {"x": 0, "y": 0, "width": 40, "height": 30}, "children": \#(kids)}}"#
  }

  static func nested(_ depth: Int, identifier: String? = nil) -> String {
    let id = identifier.map { #""identifier": "\#($0)", "# } ?? ""
    let open = String(
      repeating:
        #"{\#(id)"elementType": "other", "frame": {"x": 0, "y": 0, "width": 40, "height": 30}, "children": ["#,
      count: depth)
    let leaf = #"{"elementType": "other", "frame": {"x": 0, "y": 0, "width": 1, "height": 1}}"#
    return #"{"scale": 1, "screen": {"width": 40, "height": 30}, "root": "# + open + leaf
      + String(repeating: "]}", count: depth) + "}"
  }

  static let treeRows: [TreeRow] = [
    TreeRow(
      name: "a frame at x = 1e12",
      json: tree(button: #"{"x": 1e12, "y": 0, "width": 10, "height": 10}"#),
      problem: "$.root.children[0].frame.x: 1000000000000.0 is out of range (±100000 points)"),
    TreeRow(
      name: "a width of 1e12",
      json: tree(button: #"{"x": 0, "y": 0, "width": 1e12, "height": 10}"#),
      problem: "$.root.children[0].frame.width: 1000000000000.0 is out of range (±100000 points)"),
    TreeRow(
      name: "a negative width",
      json: tree(button: #"{"x": 0, "y": 0, "width": -10, "height": 10}"#),
      problem: "$.root.children[0].frame.width: a width cannot be negative (-10.0)"),
    TreeRow(
      name: "a negative height",
      json: tree(button: #"{"x": 0, "y": 0, "width": 10, "height": -0.5}"#),
      problem: "$.root.children[0].frame.height: a height cannot be negative (-0.5)"),
    // NaN and infinity cannot be written in JSON; 1e999 is the nearest thing, and not valid JSON
    // to Foundation (the wording of its message differs between platforms).
    TreeRow(
      name: "a number beyond Double (1e999)",
      json: tree(button: #"{"x": 1e999, "y": 0, "width": 10, "height": 10}"#),
      problem: ""),
    TreeRow(
      name: "a screen 1e12 points wide", json: tree(screen: #"{"width": 1e12, "height": 30}"#),
      problem:
        "$.screen: the screen's width must be above 0 and at most 100000 points, not 1000000000000.0"
    ),
    TreeRow(
      name: "a huge unknown array (200000 numbers)",
      json: tree(
        extra: #""junk": ["# + (0..<200_000).map(String.init).joined(separator: ",") + "], "),
      problem: nil),
    TreeRow(
      name: "5000 children",
      json: tree(
        children: "["
          + (0..<5000).map {
            #"{"elementType": "staticText", "label": "x", "frame": {"x": \#($0 % 40), "y": \#($0 % 30), "width": 3, "height": 3}}"#
          }
          .joined(separator: ",") + "]"),
      problem: nil),
    TreeRow(name: "100 levels deep", json: nested(100), problem: nil),
    // The nearest a tree gets to a cycle: one identifier at every level of a path, so that a
    // selector `loop/loop` or layout matching by identifier could chase it.
    TreeRow(name: "one identifier at all 60 levels of a path", json: nested(60, identifier: "loop"), problem: nil),
    // Past 200 levels (two brackets each), refused before the parser (which stops at 512) reads it.
    TreeRow(
      name: "300 levels deep", json: nested(300),
      problem: "its JSON nests 603 brackets deep, over the limit of 408 (200 levels of elements)"),
    TreeRow(
      name: "100000 nested brackets",
      json: String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
      problem: "its JSON nests 100000 brackets deep, over the limit of 408 (200 levels of elements)"),
  ]

  @Test("a tree with one identifier down a path: selectors match each level, layout compares in time")
  func loopingIdentifiers() throws {
    let tree = try ElementTree.decode(Array(Self.nested(60, identifier: "loop").utf8), path: "loop.json")
    #expect(try ElementSelector("loop").matches(in: tree).count == 60)
    #expect(try ElementSelector("loop/loop").matches(in: tree).count == 59)
    #expect(LayoutComparison().changes(from: tree, to: tree).isEmpty)
    var moved = tree
    moved.root.frame.x = 5
    #expect(!LayoutComparison().changes(from: tree, to: moved).isEmpty)
  }

  @Test("element trees", arguments: treeRows)
  func tree(_ row: TreeRow) throws {
    try withWorkspace { workspace in
      try workspace.writeFrame("Home - test_tree/Home", Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let key = "Tree - test_tree/Tree"
      let path = workspace.root + "/frames/" + key + ".tree.json"
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(row.json.utf8).write(to: URL(fileURLWithPath: path))
      let before = try StoreBytes(workspace)
      let prefix = "\(path): not a valid element tree: "

      // The library.
      do {
        let tree = try ElementTree.load(path)
        #expect(row.problem == nil, "loaded, expected \(row.problem ?? "")")
        #expect(tree.pixelSize == PixelSize(width: 40, height: 30))
      } catch let error as ConfigurationError {
        #expect(row.problem != nil, "\(error)")
        #expect(error.message.hasPrefix(prefix + (row.problem ?? "")), "\(error)")
      }

      // `render TREE -o PNG`, then `check` with the tree as a new snapshot's frame.
      let output = workspace.root + "/render.png"
      let render = try workspace.snapdiff(["render", path, "-o", output])
      let check = try workspace.snapdiff(["check", "frames"])
      if let problem = row.problem {
        #expect(render.status == 2)
        #expect(
          render.standardError.hasPrefix("snapdiff: error: " + prefix + problem),
          "\(render.standardError)")
        #expect(check.status == 2)
        #expect(check.standardOutput.contains(prefix + problem))
        #expect(try StoreBytes(workspace) == before)
      } else {
        #expect(render.status == 0, "\(render.standardError)")
        #expect(
          try PNGDecoder().decode(contentsOf: output).size == PixelSize(width: 40, height: 30))
        #expect(check.status == 0)
        #expect(try workspace.lastStatuses()[key] == "new")
        #expect(try StoreBytes(workspace).keeps(before))
      }
    }
  }

  // MARK: - Numbers at the ends of Int

  /// Found by fuzz-diff: `x + width` overflowed in `PixelRect.clamped` and the process trapped
  /// (SIGILL) on `--ignore 9223372036854775807,0,9223372036854775807,1` or on a settings file's
  /// region at `Int.min`. Now: the regions clamp, the comparison is correct.
  @Test("ignore regions at the ends of Int")
  func extremeIgnoreRegions() throws {
    try withWorkspace { workspace in
      let key = "Home - test_ints/Home"
      try workspace.writeFrame(key, Workspace.screen([]))
      #expect(try workspace.snapdiff(["check", "frames"]).status == 0)
      let baseline = workspace.root + "/baselines/" + key + ".png"
      try workspace.writeFrame(key, Workspace.screen([PixelRect(x: 0, y: 0, width: 4, height: 4)]))
      let current = workspace.root + "/frames/" + key + ".png"

      let max = String(Int.max)
      let beyond = try workspace.snapdiff([
        "compare", baseline, current, "--ignore", "\(max),0,\(max),1", "--json",
      ])
      #expect(beyond.status == 1, "\(beyond.standardError)")
      #expect(try beyond.json()["differentPixels"] as? Int == 16)
      let everything = try workspace.snapdiff([
        "compare", baseline, current, "--ignore", "0,0,\(max),\(max)", "--json",
      ])
      #expect(everything.status == 0, "\(everything.standardError)")
      #expect(try everything.json()["ignoredPixels"] as? Int == 16)

      let settings = workspace.root + "/baselines/" + key + ".snapdiff.json"
      let regions = [
        (Int.min, Int.min, Int.min, Int.min), (Int.max, 0, Int.max, 1), (0, 0, 2, Int.max),
      ]
      .map { #"{"x": \#($0.0), "y": \#($0.1), "width": \#($0.2), "height": \#($0.3)}"# }
      try Data(#"{"ignoreRegions": [\#(regions.joined(separator: ", "))]}"#.utf8).write(
        to: URL(fileURLWithPath: settings))
      let before = try StoreBytes(workspace)
      let check = try workspace.snapdiff(["check", "frames"])
      #expect(check.status == 1, "\(check.standardOutput)\(check.standardError)")
      #expect(check.standardOutput.contains("8 px"), "\(check.standardOutput)")  // 16 differ, 8 ignored
      #expect(try StoreBytes(workspace) == before)
    }
  }
}

// MARK: - Helpers

/// The matrix's PNG files, written by hand (`PNGFileBuilder`: stored deflate blocks, real CRCs
/// and Adler-32), so it does not depend on the encoder under test.
enum MatrixPNG {
  /// 8×6, every pixel different, some translucent: the pixels every valid format must give.
  static let reference = RGBAImage(width: 8, height: 6, pixels: (0..<48).flatMap(referencePixel))
  /// The same in gray (red = green = blue), for the gray + alpha format.
  static let grayReference = RGBAImage(width: 8, height: 6, pixels: (0..<48).flatMap(grayPixel))

  static func referencePixel(_ i: Int) -> [UInt8] {
    let alpha: UInt8 = i % 5 == 0 ? 128 : 255
    return [UInt8(i * 5), UInt8(255 - i * 3), UInt8((i * 37) % 256), alpha]
  }

  static func grayPixel(_ i: Int) -> [UInt8] {
    let alpha: UInt8 = i % 7 == 0 ? 0 : 255
    return [UInt8(i * 5), UInt8(i * 5), UInt8(i * 5), alpha]
  }

  /// `image` as a PNG file of `colorType` (2 RGB, 3 palette with tRNS, 4 gray + alpha from red
  /// and alpha, 6 RGBA), `bitDepth` 8 or 16, damaged as asked.
  static func file(
    _ image: RGBAImage, colorType: UInt8 = 6, bitDepth: UInt8 = 8, interlaced: Bool = false,
    includeEnd: Bool = true, zlibBlockHeader: UInt8? = nil, dropsAdler: Bool = false
  ) -> [UInt8] {
    PNGFileBuilder(
      rgba: image.pixels, width: image.width, height: image.height, colorType: colorType, bitDepth: bitDepth,
      interlaced: interlaced, includeEnd: includeEnd, zlibBlockHeader: zlibBlockHeader, dropsAdler: dropsAdler
    ).build()
  }

  /// A valid header for an RGBA image of any declared size, then a few rows of data and IEND.
  static func header(width: Int, height: Int) -> [UInt8] {
    PNGBytes.signature + PNGBytes.chunk("IHDR", PNGBytes.ihdr(width: width, height: height, colorType: 6))
      + PNGBytes.chunk("IDAT", PNGBytes.zlibStored([UInt8](repeating: 0, count: 3 * 33))) + PNGBytes.chunk("IEND", [])
  }

  /// `file` with a chunk header claiming `length` bytes inserted after IHDR (and nothing after).
  static func insertingChunkHeader(_ file: [UInt8], length: UInt32, type: String) -> [UInt8] {
    Array(file.prefix(33)) + PNGBytes.bigEndian(length) + Array(type.utf8)
      + Array("XML:com.adobe.xmp\u{0}".utf8)
  }

  static func flipping(_ file: [UInt8], at offset: Int) -> [UInt8] {
    var copy = file
    copy[offset] ^= 0x01
    return copy
  }
}
