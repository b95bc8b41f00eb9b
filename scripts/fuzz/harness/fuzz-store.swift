// libFuzzer harness: the store's confinement (`Confinement`) and the frames listing
// (`FileSystem.files(under:accountingForEverything:)`) on random folder layouts.
//
// Each input builds a layout in a fresh temporary folder: `store/` (or `store` a link to
// `real/`), `outside/` with a file in it, then folders, files and symbolic links at paths made
// of a small alphabet (`evil`, `..`, `.hidden`, names that are not valid UTF-8, …), the links
// pointing out of the store, into it, at themselves, or nowhere. Then it writes, creates
// folders and removes at probe paths through the store's `Confinement`, and checks:
// - nothing outside the store's real folder changes (every path outside it, its kind, size and
//   content, is the same before and after), whatever was refused;
// - a refusal is a `StoreEscapeError` only when some link on the way really leads out or
//   nowhere (checked independently with `realpath`), and a write that was not refused landed
//   inside the store's real folder;
// - listing the store as a frames folder either throws a `FileError` with one of the known
//   messages, or returns only regular files whose names are valid UTF-8, and throws whenever a
//   name that is not valid UTF-8 is reachable through real folders.
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Folder and file names: ordinary, hidden, dots, not valid UTF-8.
let alphabet: [[UInt8]] = [
  Array("a".utf8), Array("b".utf8), Array("evil".utf8), Array("x.png".utf8), [0xFF], Array("caf".utf8) + [0xE9],
  Array(".".utf8), Array("..".utf8), Array(".hidden".utf8), Array("ios17".utf8),
]

/// Where links point (relative to the link's folder, or absolute under the layout).
func linkTargets(_ base: String) -> [String] {
  ["../outside", "../../outside", base + "/outside", "nowhere", "a", "../store/b", ".", "..", "../real", base,
    "evil", "../outside/inner"]
}

struct Reader {
  var bytes: [UInt8]
  var index = 0
  mutating func next() -> Int? {
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return Int(bytes[index])
  }
}

func cString(_ bytes: [UInt8]) -> [CChar] { (bytes + [0]).map { CChar(bitPattern: $0) } }

/// A path below the store as bytes: 1 to 3 components from the alphabet.
func path(_ reader: inout Reader) -> [[UInt8]]? {
  guard let count = reader.next() else { return nil }
  var parts: [[UInt8]] = []
  for _ in 0...(count % 3) {
    guard let pick = reader.next() else { return nil }
    parts.append(alphabet[pick % alphabet.count])
  }
  return parts
}

/// Every path under `folder` that is not under `excluded`, with what is there (links not
/// followed): what must not change.
func snapshot(_ folder: String, excluding excluded: String) -> [String: String] {
  var result: [String: String] = [:]
  func walk(_ path: String) {
    guard path != excluded && !path.hasPrefix(excluded + "/") else { return }
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      result[path] = "folder"
      for name in (try? FileSystem.entries(of: path)) ?? [] { walk(path + "/" + name) }
    case S_IFLNK:
      result[path] = "link → " + (FileSystem.linkTarget(path) ?? "?")
    default:
      let content = (try? FileIO.read(path, limit: 1 << 16)) ?? []
      result[path] = "file \(status.st_size) \(content.hashValue)"
    }
  }
  walk(folder)
  return result
}

/// Whether some prefix of `path` below `root` is a link that resolves outside `realRoot` or
/// nowhere: a refusal is right only then.
func escapes(_ path: String, root: String, realRoot: String) -> Bool {
  guard path.hasPrefix(root + "/") || path == root else { return true }
  var current = root
  for component in path.dropFirst(root.count).split(separator: "/") {
    current += "/" + component
    guard let kind = FileSystem.kind(of: current) else { return false }
    if kind == .symbolicLink {
      guard let real = FileSystem.resolved(current) else { return true }
      if !(real == realRoot || real.hasPrefix(realRoot + "/")) { return true }
    }
  }
  return false
}

var counter = 0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var reader = Reader(bytes: data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
  counter += 1
  let base = "/tmp/snapdiff-fuzz-store-\(getpid())-\(counter)"
  defer { try? FileSystem.removeTree(base) }
  try! FileSystem.createDirectories(base + "/outside/inner")
  try! FileIO.writeAtomically([1, 2, 3], to: base + "/outside/y.tree.json")
  let linkedRoot = (reader.next() ?? 0) % 2 == 1
  if linkedRoot {
    try! FileSystem.createDirectories(base + "/real")
    symlink("real", base + "/store")
  } else {
    try! FileSystem.createDirectories(base + "/store")
  }
  let root = base + "/store"

  // The layout.
  var probes: [String] = []
  var invalidNameMade = false
  while let op = reader.next() {
    guard let parts = path(&reader) else { break }
    let full = Array(root.utf8) + parts.flatMap { [UInt8(ascii: "/")] + $0 }
    switch op % 4 {
    case 0: mkdir(cString(full), 0o755)
    case 1:
      let descriptor = open(cString(full), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
      if descriptor >= 0 { close(descriptor) }
    case 2:
      let targets = linkTargets(base)
      symlink(targets[(reader.next() ?? 0) % targets.count], cString(full))
    default:
      // Probes are strings (keys are): names that are not UTF-8 become `a`.
      let text = parts.map { String(validating: $0, as: UTF8.self) ?? "a" }.joined(separator: "/")
      probes.append(root + "/" + text)
    }
    if parts.contains(where: { String(validating: $0, as: UTF8.self) == nil }) { invalidNameMade = true }
  }

  let confinement = Confinement(root: root, place: "baseline store")
  let realRoot = confinement.realRoot
  precondition(realRoot == FileSystem.resolved(root), "the store's real path: \(realRoot)")
  let outsideBefore = snapshot(base, excluding: realRoot)

  for probe in probes.prefix(8) {
    let absolute = FileSystem.absolute(probe)
    let expectedEscape = escapes(absolute, root: root, realRoot: realRoot)
    do {
      try confinement.check(absolute)
      precondition(!expectedEscape, "not refused: \(absolute)")
    } catch {
      precondition(expectedEscape, "refused without an escape: \(absolute): \(error)")
    }
    for action in 0..<3 {
      do {
        switch action {
        case 0: try confinement.createFolders(containing: absolute)
        case 1:
          // The file lands where the final rename puts it: the real folder above the path (as it
          // is before the write), and the path's last name (a link of that name is replaced,
          // never followed: a path that ends in a link to the store itself replaces the link).
          let above = FileSystem.resolved(PathText.parent(of: absolute))
          try confinement.write([9, 9], to: absolute)
          let folder = above ?? ""
          let written = folder + "/" + (PathText.components(absolute).last.map(String.init) ?? "")
          precondition(folder == realRoot || folder.hasPrefix(realRoot + "/"), "written outside: \(written)")
          precondition(FileSystem.isDirectory(realRoot), "the store itself was replaced")
        default: try confinement.remove(absolute)
        }
      } catch is StoreEscapeError {
      } catch is FileError {
        // A file where a folder must be, a folder where a file must be: refused by the system.
      } catch {
        preconditionFailure("not a StoreEscapeError or FileError: \(error)")
      }
    }
  }
  let outsideAfter = snapshot(base, excluding: realRoot)
  precondition(outsideBefore == outsideAfter, "something outside the store changed")

  // The frames listing accounts for every file.
  do {
    let files = try FileSystem.files(under: root, accountingForEverything: true)
    for file in files {
      precondition(!file.unicodeScalars.contains("\u{FFFD}"), "a replaced name listed: \(file)")
      precondition(FileSystem.isFile(root + "/" + file), "listed but not a file: \(file)")
    }
    if invalidNameMade {
      // Every invalid name was either hidden below a hidden folder, a link, or never made
      // (its folder missing): look for one the listing should have met.
      precondition(!reachableInvalidName(root), "a name that is not UTF-8 was passed over")
    }
  } catch let error as FileError {
    let known = [
      "the name is not valid UTF-8", "is a symbolic link to a folder", "is a symbolic link that leads nowhere",
      "is neither a file nor a folder", "cannot list the folder",
    ]
    precondition(known.contains { error.message.hasPrefix($0) }, "\(error)")
  } catch {
    preconditionFailure("not a FileError: \(error)")
  }
  return 0
}

/// Whether a non-hidden name that is not valid UTF-8 lies below `folder` through real folders
/// whose names are not hidden.
func reachableInvalidName(_ folder: String) -> Bool {
  for bytes in (try? FileSystem.nameBytes(of: folder)) ?? [] where bytes.first != UInt8(ascii: ".") {
    guard let name = String(validating: bytes, as: UTF8.self) else { return true }
    if FileSystem.kind(of: folder + "/" + name) == .directory && reachableInvalidName(folder + "/" + name) {
      return true
    }
  }
  return false
}
