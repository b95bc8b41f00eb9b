// libFuzzer harness: the service's request decoding, the part that is snapdiff's own rather than
// Hummingbird's: the wire contract (Sources/SnapdiffWire: the multipart parser, the request
// bodies, `APIPaths`), which build.sh compiles whole and links, as the server and the test API
// do; with it the server's upload spool (Uploads/UploadFile.swift) and its review selection
// (DTOs/ReviewRequest+Selection.swift), which import no Hummingbird. Where the server's glue sits
// in a controller or RunService (which need Hummingbird), the same steps are spelled out here,
// marked `mirrors …`: change both.
//
// The first byte picks the decoder (the seeds write it as an ASCII digit, '0' = 48 ≡ 0 mod 6):
//
// | byte % 6 | input after it | through |
// |---|---|---|
// | 0 | a Content-Type, LF, a body | `MultipartForm`, then the parts as `PUT …/snapshots/{key}` takes them |
// | 1 | per-frame settings JSON | the `settings` part's decoding and checks, then a comparison under them |
// | 2 | `POST /api/v1/runs` body | `OpenRunRequest`, the service's name/branch checks, the environment as `BaselineStore` takes it |
// | 3 | `POST …/approve` body | `ReviewRequest`, the selection against a run, globs against keys |
// | 4 | the path after `snapshots/` | `APIPaths.decode`, the last-segment split, `SnapshotKey` |
// | 5 | a limit, a chunk size, a body | `UploadFile`: appended in chunks, read back under the limit, removed |
//
// Checks: every refusal is the typed error the API turns into a 4xx with a message
// (`MultipartError`, `DecodingError`, `ConfigurationError`, `KeyError`, `RunError`), never a
// crash or another error (which the API would answer with a 500); a parsed form's parts lie in
// the body, in order, each ended by the first delimiter after it, and serialise and parse back
// the same; a key validates again the same, survives percent-encoding, and its path, as the file
// system splits it, has no empty, `.` or `..` component (this check found keys whose `/` a
// combining mark joins, which SnapshotKey once accepted); decoded settings re-encode
// to themselves and compare two frames without trapping.
import SnapdiffCore
import SnapdiffWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  guard let first = bytes.first else { return 0 }
  let rest = Array(bytes.dropFirst())
  switch first % 6 {
  case 0:
    let (contentType, body) = RequestFuzzInput.multipart(rest)
    checkMultipart(contentType: contentType, body: body)
  case 1: _ = checkSettings(rest)
  case 2: checkOpenRun(rest)
  case 3: checkReview(rest)
  case 4: checkKeyPath(String(decoding: rest, as: UTF8.self))
  default: checkUpload(rest)
  }
  return 0
}

/// `FUZZ_REQUEST_VERBOSE=1`: each input's outcome on stderr (to see what a seed or a saved input
/// reaches: `fuzz-request -runs=0 DIR`).
private let verbose = getenv("FUZZ_REQUEST_VERBOSE") != nil

func trace(_ text: @autoclosure () -> String) {
  if verbose { fputs("fuzz-request: \(text())\n", stderr) }
}

/// How an input splits (Tests/SnapdiffServerTests/RequestFuzzRegressionTests.swift has a copy).
enum RequestFuzzInput {
  /// The Content-Type up to the first LF (a header value cannot hold one), the body after it.
  static func multipart(_ bytes: [UInt8]) -> (contentType: String, body: [UInt8]) {
    let newline = bytes.firstIndex(of: 10) ?? bytes.count
    return (String(decoding: bytes[..<newline], as: UTF8.self), Array(bytes.dropFirst(newline + 1)))
  }
}

/// An answer the API would give: a 4xx status and its message.
struct Refusal: Error {
  var status: Int
  var message: String

  init(_ status: Int, _ message: String) {
    trace("\(status) \(message)")
    precondition(!message.isEmpty, "a \(status) without a message")
    self.status = status
    self.message = message
  }
}

private let crlf: [UInt8] = [13, 10]

// MARK: - 0: multipart/form-data

func checkMultipart(contentType: String, body: [UInt8]) {
  // mirrors SnapshotsController.put: the media type picks the body kind, then the boundary is
  // checked before the body is received.
  let mediaType =
    contentType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
  let boundary: String
  do {
    boundary = try MultipartForm.boundary(in: contentType)
  } catch {
    trace("400 \(error)")
    precondition(!error.message.isEmpty)
    do {
      _ = try MultipartForm(body: body, contentType: contentType)
      preconditionFailure("a form parses under a content type without a boundary")
    } catch {
      precondition(!error.message.isEmpty)
    }
    return
  }
  precondition(mediaType == "multipart/form-data", "a boundary in a \(mediaType) content type")
  precondition(
    (1...70).contains(boundary.utf8.count) && boundary.utf8.allSatisfy { (32...126).contains($0) },
    "boundary '\(boundary)'")

  let form: MultipartForm
  do {
    form = try MultipartForm(body: body, contentType: contentType)
  } catch {
    trace("400 \(error)")
    precondition(
      !error.message.isEmpty
        && error.description == "malformed multipart/form-data body: \(error.message)")
    return
  }
  trace("form: \(form.parts.map { "\($0.name) (\($0.body.count) bytes)" })")
  let delimiter = crlf + Array("--\(boundary)".utf8)
  checkPartsLieInBody(form, body: body, delimiter: delimiter)
  checkRoundTrip(form, contentType: contentType, boundary: boundary)
  _ = frame(fromMultipart: form)
}

/// Each part's body is in `body`, after its headers' empty line and before the first delimiter
/// that follows; parts come in order and do not overlap.
func checkPartsLieInBody(_ form: MultipartForm, body: [UInt8], delimiter: [UInt8]) {
  var searchFrom = 0
  var total = 0
  for part in form.parts {
    precondition(!part.name.isEmpty, "a part without a name")
    precondition(
      MultipartForm.find(delimiter, in: part.body, from: 0) == nil,
      "part '\(part.name)' holds its delimiter")
    total += part.body.count
    precondition(total <= body.count, "the parts hold more bytes than the body")
    // The part ends at a delimiter: the first one after its headers' end whose preceding bytes
    // are the part's body.
    var found: Int?
    var from = searchFrom
    while let end = MultipartForm.find(delimiter, in: body, from: from) {
      let start = end - part.body.count
      if start - 4 >= searchFrom, body[(start - 4)..<start].elementsEqual(crlf + crlf),
        body[start..<end].elementsEqual(part.body)
      {
        found = end
        break
      }
      from = end + 1
    }
    guard let end = found else { preconditionFailure("part '\(part.name)' is not in the body") }
    searchFrom = end + delimiter.count
  }
}

/// A form written out again (quoted, escaped) parses to the same parts. Only for ASCII header
/// values: the parser reads headers as Swift `Character`s, and a combining mark after a quote,
/// `;` or `:` joins it into one Character, so a non-ASCII value may read differently when
/// written out again.
func checkRoundTrip(_ form: MultipartForm, contentType: String, boundary: String) {
  func ascii(_ text: String?) -> Bool { text?.utf8.allSatisfy { $0 < 0x80 } ?? true }
  guard form.parts.allSatisfy({ ascii($0.name) && ascii($0.filename) && ascii($0.contentType) })
  else { return }
  func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      if scalar == "\"" || scalar == "\\" { result += "\\" }
      result.unicodeScalars.append(scalar)
    }
    return result + "\""
  }
  var bytes: [UInt8] = []
  for part in form.parts {
    var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\(quoted(part.name))"
    if let filename = part.filename { head += "; filename=\(quoted(filename))" }
    if let type = part.contentType { head += "\r\nContent-Type: \(type)" }
    // Escaping can lengthen headers past the parser's limit (unquoted `"` in the input).
    guard head.utf8.count < MultipartForm.maximumHeaderLength else { return }
    head += "\r\n\r\n"
    bytes += Array(head.utf8) + part.body + crlf
  }
  bytes += Array("--\(boundary)--\r\n".utf8)
  let again: MultipartForm
  do {
    again = try MultipartForm(body: bytes, contentType: contentType)
  } catch {
    preconditionFailure("a parsed form written out again does not parse: \(error)")
  }
  precondition(again.parts.count == form.parts.count, "parts lost in a round trip")
  for (a, b) in zip(form.parts, again.parts) {
    precondition(
      a.name == b.name && a.filename == b.filename && a.contentType == b.contentType
        && a.body == b.body, "part '\(a.name)' changes in a round trip")
  }
}

/// mirrors SnapshotsController.frame(fromMultipart:contentType:key:): `frame`, `tree` and
/// `settings`, each at most once, and a frame or a tree.
func frame(fromMultipart form: MultipartForm) -> Refusal? {
  var seen = Set<String>()
  var hasFrame = false
  var hasTree = false
  for part in form.parts {
    guard seen.insert(part.name).inserted else {
      return Refusal(400, "part '\(part.name)' is sent twice")
    }
    switch part.name {
    case "frame": hasFrame = true
    case "tree":
      do {
        _ = try ElementTree.decode(part.body, path: "the tree of 'fuzz'")
      } catch let error as ConfigurationError {
        return Refusal(422, error.description)
      } catch {
        preconditionFailure("a tree part fails with \(type(of: error)), not ConfigurationError")
      }
      hasTree = true
    case "settings":
      if case .failure(let refusal) = checkSettings(part.body) { return refusal }
    default:
      return Refusal(400, "unknown part '\(part.name)': send frame (PNG), tree and settings (JSON)")
    }
  }
  guard hasFrame || hasTree else {
    return Refusal(400, "send a 'frame' part (PNG), a 'tree' part (element tree), or both")
  }
  trace("frame accepted")
  return nil
}

// MARK: - 1: settings

/// mirrors SnapshotsController.settings(_:key:), then compares two small frames under them.
func checkSettings(_ bytes: [UInt8]) -> Result<SnapshotSettings, Refusal> {
  let settings: SnapshotSettings
  do {
    settings = try JSONDecoder().decode(SnapshotSettings.self, from: Data(bytes))
  } catch {
    precondition(error is DecodingError, "settings fail with \(type(of: error)): \(error)")
    return .failure(Refusal(422, "the settings are not valid: \(JSONProblem.describe(error))"))
  }
  if let problem = settings.applied(to: DiffOptions()).problem {
    return .failure(Refusal(422, problem))
  }
  let comparison: FrameComparison
  do {
    comparison = try settings.applied(to: FrameComparison())
  } catch let error as ConfigurationError {
    return .failure(Refusal(422, error.description))
  } catch {
    preconditionFailure("settings checks fail with \(type(of: error)): \(error)")
  }
  precondition(comparison.options.problem == nil)

  // What the service keeps, it can write and read again (settings travel as JSON to run folders).
  let encoded = try! JSONEncoder().encode(settings)
  let again = try! JSONDecoder().decode(SnapshotSettings.self, from: encoded)
  precondition(again == settings, "settings do not survive encoding")

  // A comparison under them: regions, masks, match level, layout tolerance as a client sent them.
  let outcome: FrameComparison.Outcome
  do {
    outcome = try comparison.compare(Frames.baseline, Frames.current, drawing: true)
  } catch let error as ConfigurationError {
    precondition(!error.description.isEmpty)
    return .success(settings)
  } catch {
    preconditionFailure("a comparison fails with \(type(of: error)): \(error)")
  }
  let result = outcome.result
  trace("settings compared: \(result.differentPixels) different, \(result.ignoredPixels) ignored, layout \(outcome.layout?.count ?? -1)")
  precondition(result.totalPixels == Frames.baseline.image.width * Frames.baseline.image.height)
  precondition(
    result.differentPixels + result.antialiasedPixels + result.ignoredPixels <= result.totalPixels)
  if let image = outcome.diffImage {
    precondition(image.width > 0 && image.height > 0)
  }
  return .success(settings)
}

/// Two 16×10 frames with trees: a button that moves and changes colour, a clock that ticks.
enum Frames {
  static func tree(buttonX: Int) -> ElementTree {
    let json = """
      {"scale": 1, "screen": {"width": 16, "height": 10},
       "root": {"identifier": "app", "elementType": "application", "frame": {"x": 0, "y": 0, "width": 16, "height": 10},
        "children": [
          {"identifier": "clock", "elementType": "staticText", "label": "9:41", "frame": {"x": 0, "y": 0, "width": 6, "height": 3}},
          {"identifier": "alert", "elementType": "alert", "frame": {"x": 2, "y": 4, "width": 12, "height": 6},
           "children": [{"identifier": "okButton", "elementType": "button", "label": "OK", "frame": {"x": \(buttonX), "y": 6, "width": 5, "height": 3}}]}
        ]}}
      """
    return try! ElementTree.decode(Array(json.utf8), path: "fuzz.tree.json")
  }

  static func image(clock: UInt8, buttonX: Int) -> RGBAImage {
    var image = RGBAImage(width: 16, height: 10, filledWith: RGBAColor(red: 250, green: 250, blue: 250))
    var pixels = image.pixels
    func paint(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ value: UInt8) {
      for y in y0..<(y0 + h) {
        for x in x0..<(x0 + w) { pixels.replaceSubrange((y * 16 + x) * 4..<(y * 16 + x) * 4 + 4, with: [value, value / 2, 255 - value, 255]) }
      }
    }
    paint(0, 0, 6, 3, clock)
    paint(buttonX, 6, 5, 3, 20)
    image = RGBAImage(width: 16, height: 10, pixels: pixels)
    return image
  }

  static let baseline = Frame(image: image(clock: 10, buttonX: 4), tree: tree(buttonX: 4), path: "baseline.png")
  static let current = Frame(image: image(clock: 200, buttonX: 7), tree: tree(buttonX: 7), path: "current.png")
}

// MARK: - 2: open-run body

/// Hummingbird's `request.decode`: `JSONDecoder` with ISO 8601 dates (RequestContext's default).
private func requestDecoder() -> JSONDecoder {
  let decoder = JSONDecoder()
  decoder.dateDecodingStrategy = .iso8601
  return decoder
}

func checkOpenRun(_ bytes: [UInt8]) {
  let request: OpenRunRequest
  do {
    request = try requestDecoder().decode(OpenRunRequest.self, from: Data(bytes))
  } catch {
    // APIError(_:) answers a DecodingError with 400 and JSONProblem's message, anything else 500.
    trace("400 \(JSONProblem.describe(error))")
    precondition(error is DecodingError, "an open-run body fails with \(type(of: error)): \(error)")
    precondition(!JSONProblem.describe(error).isEmpty)
    return
  }
  if let mode = request.recordMode { precondition(RecordMode.allCases.contains(mode)) }
  // mirrors RunService.open's checks before it touches anything.
  let name = request.name
  guard !name.isEmpty, name.utf8.count <= 200, !name.unicodeScalars.contains(where: { $0.value < 0x20 })
  else { return }
  // The environment names a folder of the store, written to when frames are recorded.
  guard let environment = request.environment else { return }
  do {
    let store = try BaselineStore(root: "/nonexistent/fuzz-store", environment: environment)
    trace("environment '\(environment)'")
    precondition(store.environment == environment)
    checkFolderName(environment)
  } catch {
    trace("422 \(error)")
    precondition(error.description.utf8.starts(with: "snapshot key '".utf8), "\(error)")
  }
}

/// An environment the store takes is one folder name as the file system reads it: no `/` byte,
/// not `.` or `..`.
func checkFolderName(_ name: String) {
  precondition(
    !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.elementsEqual([46])
      && !name.utf8.elementsEqual([46, 46]), "environment '\(name)' is not one folder name")
}

// MARK: - 3: approve / reject body

/// A run as `run.json` holds it: snapshots in every status, two with the same change.
private let reviewRecord: RunRecord = {
  func snapshot(_ key: String, _ status: SnapshotStatus, hash: String? = nil) -> SnapshotRecord {
    var record = SnapshotRecord(key: key, status: status)
    record.changeHash = hash
    return record
  }
  return RunRecord(
    id: "20260101-000000-fuzz", createdAt: "2026-01-01T00:00:00Z", currentDirectory: "current",
    baselinesDirectory: "baselines", environment: nil, recordMode: .never, complete: false,
    snapshots: [
      snapshot("Home - test_search/Home", .failed, hash: "aa"),
      snapshot("Home - test_search/Home - search action", .failed, hash: "aa"),
      snapshot("Login - test_login/Login", .new),
      snapshot("Profile - test_profile/Profile", .passed),
      snapshot("Settings - test_settings/Settings", .missing),
      snapshot("Café/Menu", .rejected, hash: "bb"),
      snapshot("a/b/c", .approved),
    ])
}()

func checkReview(_ bytes: [UInt8]) {
  let request: ReviewRequest
  do {
    request = try requestDecoder().decode(ReviewRequest.self, from: Data(bytes))
  } catch {
    trace("400 \(JSONProblem.describe(error))")
    precondition(error is DecodingError, "a review body fails with \(type(of: error)): \(error)")
    precondition(!JSONProblem.describe(error).isEmpty)
    return
  }
  let selection = request.selection
  // RunService.check refuses an empty selection (400) before anything else.
  guard !selection.isEmpty else { return }
  // Globs against every key (what RunService.check and Review.select do per pattern).
  let keys = reviewRecord.snapshots.map { try! SnapshotKey($0.key) }
  for pattern in selection.patterns.prefix(64) {
    let literal = !pattern.unicodeScalars.contains { $0 == "*" || $0 == "?" }
    for key in keys {
      let matched = key.matches(glob: pattern)
      if literal { precondition(matched == (key.rawValue.unicodeScalars.elementsEqual(pattern.unicodeScalars))) }
    }
    if (try? SnapshotKey(pattern)) != nil, literal {
      precondition(try! SnapshotKey(pattern).matches(glob: pattern), "a key does not match itself")
    }
  }
  let chosen: [SnapshotRecord]
  do {
    chosen = try Review.select(selection, in: reviewRecord)
  } catch let error as RunError {
    trace("409/404 \(error)")
    precondition(!error.message.isEmpty)
    return
  } catch {
    preconditionFailure("Review.select fails with \(type(of: error)): \(error)")
  }
  trace("review chose \(chosen.map(\.key))")
  let reviewable: Set<SnapshotStatus> = [.failed, .new, .missing, .rejected]
  precondition(chosen.allSatisfy { reviewable.contains($0.status) }, "a snapshot with nothing to review is chosen")
  precondition(Set(chosen.map(\.key)).count == chosen.count, "a snapshot is chosen twice")
  if selection.all {
    precondition(chosen.count == reviewRecord.snapshots.filter { reviewable.contains($0.status) }.count)
  }
}

// MARK: - 4: snapshot key path

/// mirrors SnapshotsController.split: `a%2Fb/diff.png` → (`a%2Fb`, `diff.png`).
func splitAction(_ tail: Substring) -> (key: Substring, action: String)? {
  guard let slash = tail.lastIndex(of: "/") else { return nil }
  return (tail[..<slash], String(tail[tail.index(after: slash)...]))
}

func checkKeyPath(_ tail: String) {
  var raws: [Substring] = [tail[...]]
  if let (key, _) = splitAction(tail[...]) { raws.append(key) }
  for raw in raws {
    // mirrors SnapshotsController.key: a bad escape is a 400, a bad key a 422.
    guard let decoded = APIPaths.decode(raw) else { continue }
    precondition(
      APIPaths.decode(APIPaths.segment(decoded)[...]) == decoded, "'\(decoded)' does not survive percent-encoding")
    let key: SnapshotKey
    do {
      key = try SnapshotKey(decoded)
    } catch {
      trace("422 \(error)")
      precondition(!error.problem.isEmpty && error.description.utf8.starts(with: "snapshot key '".utf8))
      continue
    }
    trace("key '\(key)'")
    precondition(key.rawValue == decoded)
    precondition((try? SnapshotKey(key.rawValue)) == key, "a key does not validate again")
    // The URL the API gives for it leads back to it.
    let url = APIPaths.snapshot(run: "r", key: key.rawValue)
    let segment = url.dropFirst("/api/v1/runs/r/snapshots/".count)
    precondition(!segment.contains("/") && APIPaths.decode(segment) == key.rawValue, "\(url)")
    checkKeyBytes(key.rawValue)
  }
}

/// A key the store takes is a relative path as the file system reads it (split on the byte
/// `/`): no leading or trailing `/`, no empty, `.` or `..` component, none over `SnapshotKey.maximumComponentLength` bytes.
func checkKeyBytes(_ key: String) {
  let components = key.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
  for component in components {
    precondition(
      !component.isEmpty && !component.elementsEqual([46]) && !component.elementsEqual([46, 46])
        && component.count <= SnapshotKey.maximumComponentLength,
      "key '\(key)' has the path component '\(String(decoding: component, as: UTF8.self))'")
  }
}

// MARK: - 5: uploads

private let uploadsDirectory = "/tmp/snapdiff-fuzz-uploads-\(getpid())"
/// The (empty) folder is removed when the fuzzer exits.
private let removeUploadsDirectoryAtExit: Void = { atexit { _ = rmdir(uploadsDirectory) } }()

/// mirrors Upload.receive: chunks appended to an upload file until the limit is passed (a 413),
/// then the file read back under the limit and removed.
func checkUpload(_ bytes: [UInt8]) {
  let limits = [0, 1, 7, 64, 1000, 1 << 20]
  let limit = limits[Int(bytes.first ?? 0) % limits.count]
  let chunk = max(1, Int(bytes.dropFirst().first ?? 1))
  let body = Array(bytes.dropFirst(2))
  _ = removeUploadsDirectoryAtExit
  let file = try! UploadFile(in: uploadsDirectory)
  defer {
    file.discard()
    precondition(!FileSystem.exists(file.path), "an upload file outlives its request")
  }
  var received = 0
  var offset = 0
  while offset < body.count {
    let piece = body[offset..<min(offset + chunk, body.count)]
    received += piece.count
    if received > limit { return }  // 413
    try! piece.withUnsafeBytes { try file.append($0) }
    offset += piece.count
  }
  let read = try! file.readAll(limit: limit)
  precondition(read == body, "an upload reads back different bytes")
}
