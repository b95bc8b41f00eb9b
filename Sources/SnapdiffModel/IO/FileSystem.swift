#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file-system operations snapdiff needs, on POSIX calls.
public enum FileSystem {
  public enum Kind: Sendable { case file, directory, symbolicLink, other }

  /// What is at `path` (without following a final symbolic link), or `nil` when nothing is.
  public static func kind(of path: String) -> Kind? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .directory
    case S_IFLNK: return .symbolicLink
    default: return .other
    }
  }

  /// Whether `path` is a regular file or a link to one.
  public static func isFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  public static func isDirectory(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
  }

  public static func exists(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0
  }

  /// Creates `path` and every missing folder above it.
  public static func createDirectories(_ path: String) throws(FileError) {
    if isDirectory(path) { return }
    var built = path.utf8.first == UInt8(ascii: "/") ? "" : "."
    let folders = PathText.components(path).map { component in
      built += "/" + component
      return built
    }
    // From the deepest folder that exists down: a frame's new folder in a run is one `mkdir`,
    // not one per component of its path (seven that failed with EEXIST, for each frame).
    var existing = folders.count
    while existing > 0 {
      let folder = folders[existing - 1]
      FileAccessCounter.createdFolder(folder)
      if mkdir(folder, 0o755) == 0 || errno == EEXIST { break }
      guard errno == ENOENT else { throw .system(path: folder, action: "create the folder") }
      existing -= 1
    }
    // `folders[existing - 1]` is there now; the ones below it are made in order.
    for folder in folders.dropFirst(existing) {
      FileAccessCounter.createdFolder(folder)
      if mkdir(folder, 0o755) != 0 && errno != EEXIST { throw .system(path: folder, action: "create the folder") }
    }
    guard isDirectory(path) else {
      throw FileError(path: path, message: "exists and is not a folder")
    }
  }

  /// Removes a file (or an empty folder); missing is fine.
  public static func remove(_ path: String) throws(FileError) {
    if unlink(path) == 0 || errno == ENOENT { return }
    if errno == EISDIR || errno == EPERM, rmdir(path) == 0 { return }
    throw .system(path: path, action: "remove")
  }

  /// Removes a folder and everything in it.
  public static func removeTree(_ path: String) throws(FileError) {
    guard kind(of: path) == .directory else { return try remove(path) }
    for name in try entries(of: path) { try removeTree(path + "/" + name) }
    if rmdir(path) != 0 && errno != ENOENT { throw .system(path: path, action: "remove the folder") }
  }

  /// The names in a folder, `.` and `..` left out, sorted by their bytes. A name that is not
  /// valid UTF-8 comes back with replacement characters (and so names no file): listings that
  /// must account for every file use `nameBytes(of:)`.
  public static func entries(of path: String) throws(FileError) -> [String] {
    try nameBytes(of: path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The names in a folder as the file system holds them (bytes), `.` and `..` left out, sorted.
  public static func nameBytes(of path: String) throws(FileError) -> [[UInt8]] {
    guard let directory = opendir(path) else { throw .system(path: path, action: "list the folder") }
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
      if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
    }
    return names.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// Every regular file below `root`, as `/`-separated paths relative to it, sorted. Hidden
  /// names (starting with `.`) are skipped; `skip` can leave out folders by relative path.
  ///
  /// With `accountingForEverything` (a folder of frames: every file in it is checked or
  /// reported), what would otherwise be passed over silently is an error naming it: a name that
  /// is not valid UTF-8 (shown with its bytes escaped, `\xFF`), a link that leads nowhere, a link
  /// to a folder (not followed), and anything that is neither a file nor a folder.
  public static func files(
    under root: String, accountingForEverything: Bool = false, skip: (String) -> Bool = { _ in false }
  ) throws(FileError) -> [String] {
    var result: [String] = []
    func walk(_ relative: String) throws(FileError) {
      let absolute = relative.isEmpty ? root : root + "/" + relative
      for bytes in try nameBytes(of: absolute) where bytes.first != UInt8(ascii: ".") {
        guard let name = UTF8Text.decode(bytes) else {
          if accountingForEverything {
            throw FileError(
              path: absolute + "/" + PathText.shown(bytes),
              message: "the name is not valid UTF-8, so it cannot be a snapshot key: rename it")
          }
          continue
        }
        let child = relative.isEmpty ? name : relative + "/" + name
        let path = root + "/" + child
        let isLink = kind(of: path) == .symbolicLink
        if isDirectory(path) {
          if isLink && accountingForEverything {
            throw FileError(
              path: path, message: "is a symbolic link to a folder, which is not followed: move or copy the frames in")
          }
          if isLink || skip(child) { continue }
          try walk(child)
        } else if isFile(path) {
          result.append(child)
        } else if accountingForEverything {
          throw FileError(
            path: path,
            message: isLink ? "is a symbolic link that leads nowhere" : "is neither a file nor a folder")
        }
      }
    }
    try walk("")
    return result.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The current working folder.
  public static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `path` made absolute against the working folder and normalised (`.`, `..`, `//` resolved
  /// textually; symbolic links are not followed).
  public static func absolute(_ path: String, relativeTo base: String? = nil) -> String {
    let joined = path.utf8.first == UInt8(ascii: "/") ? path : (base ?? currentDirectory()) + "/" + path
    var parts: [Substring] = []
    for part in PathText.components(joined) {
      if part.utf8.elementsEqual(".".utf8) { continue }
      if part.utf8.elementsEqual("..".utf8) {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The path that leads from folder `base` to `target` (both made absolute), `/`-separated.
  public static func relativePath(from base: String, to target: String) -> String {
    let from = PathText.components(absolute(base))
    let to = PathText.components(absolute(target))
    var common = 0
    while common < from.count && common < to.count && from[common].utf8.elementsEqual(to[common].utf8) { common += 1 }
    let ups = Array(repeating: "..", count: from.count - common)
    let downs = to[common...].map(String.init)
    let parts = ups + downs
    return parts.isEmpty ? "." : parts.joined(separator: "/")
  }

  /// The real path with every symbolic link resolved, or `nil` when it does not exist.
  public static func resolved(_ path: String) -> String? {
    FileAccessCounter.resolved(path)
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }

  /// Points the symbolic link at `path` to `target`, replacing an old link atomically.
  public static func replaceSymbolicLink(at path: String, pointingTo target: String) throws(FileError) {
    let temporary = path + ".\(getpid()).tmp"
    unlink(temporary)
    guard symlink(target, temporary) == 0 else { throw .system(path: path, action: "create the link") }
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      throw .system(path: path, action: "replace the link")
    }
  }

  /// Makes `path` a hard link to `source`; `true` when it is made or `path` already exists.
  public static func hardLink(_ source: String, to path: String) -> Bool {
    link(source, path) == 0 || errno == EEXIST
  }

  /// The target of a symbolic link.
  public static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
