#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads and atomic writes on POSIX calls, without Foundation.
public enum FileIO {
  /// The whole content of the file at `path`.
  ///
  /// - Throws: `FileError` when the file is missing, a directory, unreadable, or over `limit` bytes.
  public static func read(_ path: String, limit: Int = 1 << 34) throws(FileError) -> [UInt8] {
    FileAccessCounter.read(path)
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(path: path, action: "open") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .system(path: path, action: "stat") }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      throw FileError(path: path, message: "is a directory, not a file")
    }
    let expected = Int(status.st_size)
    guard expected <= limit else {
      throw FileError(path: path, message: "is \(expected) bytes, over the \(limit)-byte limit")
    }
    // One read into a buffer of exactly the file's size, left uninitialised: nothing is
    // written twice.
    var failure: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: max(expected, 0)) { buffer, count in
      var filled = 0
      while filled < buffer.count {
        let got = systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        if got < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        if got == 0 { break }
        filled += got
      }
      count = filled
    }
    if failure != 0 { throw .system(path: path, action: "read", errorNumber: failure) }
    // A file that grew while we read it (or a pipe that reported size 0): read the rest.
    try readRest(descriptor, into: &bytes, path: path, limit: limit)
    return bytes
  }

  /// The whole content of the regular file at `path`, for files whose origin is not trusted (a
  /// CI artifact, a run record's path): a device (`/dev/zero`), a FIFO or a socket is refused
  /// before a byte is read (opening never blocks), and the file is read only when its size is
  /// within `limit`.
  ///
  /// - Throws: `FileError` naming the file when it is missing, not a regular file, or over
  ///   `limit` bytes.
  public static func readRegularFile(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw .system(path: path, action: "open") }
    var status = stat()
    let statted = fstat(descriptor, &status) == 0
    close(descriptor)
    guard statted else { throw .system(path: path, action: "stat") }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw FileError(path: path, message: "is not a regular file")
    }
    guard Int(status.st_size) <= limit else {
      throw FileError(path: path, message: "is \(status.st_size) bytes, over the \(limit)-byte limit")
    }
    return try read(path, limit: limit)
  }

  /// The size of the regular file at `path`, or `nil` when it is not one or cannot be seen;
  /// errors are left to `read`, which names them.
  public static func regularFileSize(_ path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(status.st_size)
  }

  /// Whether the file at `path` holds exactly `bytes`, read in small pieces (no buffer the size
  /// of the file, and reading stops at the first difference). `false` on any error: `read`
  /// reports errors.
  public static func contentEquals(_ path: String, _ bytes: [UInt8]) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let chunkSize = 1 << 16
    let chunk = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { chunk.deallocate() }
    return bytes.withUnsafeBytes { expected in
      var offset = 0
      while true {
        let count = systemRead(descriptor, chunk, chunkSize)
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        if count == 0 { return offset == expected.count }
        guard count <= expected.count - offset,
          memcmp(chunk, expected.baseAddress! + offset, count) == 0
        else { return false }
        offset += count
      }
    }
  }

  private static func readRest(
    _ descriptor: Int32, into bytes: inout [UInt8], path: String, limit: Int
  ) throws(FileError) {
    var chunk = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while true {
      let count = withUnsafeMutableBytes(of: &chunk) { systemRead(descriptor, $0.baseAddress!, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(path: path, action: "read")
      }
      if count == 0 { return }
      withUnsafeBytes(of: &chunk) { bytes.append(contentsOf: $0.prefix(count)) }
      guard bytes.count <= limit else {
        throw FileError(path: path, message: "is over the \(limit)-byte limit")
      }
    }
  }

  /// Writes `bytes` to `path` atomically: a temporary file in the same folder, `fsync`, then
  /// `rename` over the target, so a reader sees the old file or the new one, never a part.
  ///
  /// - Parameters:
  ///   - synced: `false` skips the `fsync` (still atomic for readers, not durable across a
  ///     crash of the machine): for output that is made again on request, such as the diff
  ///     image of `snapdiff compare --diff`, where waiting for the disk was most of the time
  ///     the diff image added.
  /// - Throws: `FileError` when the folder is missing or not writable, or the disk is full.
  public static func writeAtomically(_ bytes: [UInt8], to path: String, synced: Bool = true) throws(FileError) {
    let temporary = temporaryPath(beside: path)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .system(path: path, action: "create a file beside it") }
    var failure = writeAll(bytes, to: descriptor)
    if failure == 0 && synced {
      FileAccessCounter.synced(path)
      if fsync(descriptor) != 0 { failure = errno }
    }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(temporary, path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary)
      throw .system(path: path, action: "write", errorNumber: failure)
    }
  }

  /// Makes `path` a hard link to the file at `source`, replacing what is there atomically (a
  /// reader sees the old file or the new one, never none): a second name for bytes already
  /// written, not a second write. Where no link can be made (another file system, one without
  /// hard links) the bytes are copied, atomically and not flushed.
  public static func replaceWithLink(to source: String, at path: String) throws(FileError) {
    let temporary = temporaryPath(beside: path)
    guard link(source, temporary) == 0 else {
      return try writeAtomically(read(source), to: path, synced: false)
    }
    let failure = rename(temporary, path) == 0 ? 0 : errno
    // When `path` already was a link to `source`, rename(2) does nothing and the temporary name
    // stays: removed either way.
    unlink(temporary)
    if failure != 0 { throw .system(path: path, action: "replace", errorNumber: failure) }
  }

  /// Appends `line` (one line, ending with a line feed) to `path` (created when missing) with
  /// `O_APPEND`, then flushes it to disk: the one way a line goes onto an append-only log. When
  /// the file does not end with a line feed (a crash or a full disk cut its last line short),
  /// a line feed goes first, so the new line is never glued onto the broken one.
  ///
  /// - Returns: where the line (without that line feed) lies in the file, in bytes.
  @discardableResult
  public static func appendLine(_ line: [UInt8], to path: String) throws(FileError) -> Range<Int> {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .system(path: path, action: "open for appending") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .system(path: path, action: "read the size of") }
    let size = Int(status.st_size)
    var bytes = line
    if size > 0 {
      var last: UInt8 = 0
      let reader = open(path, O_RDONLY | O_CLOEXEC)
      if reader >= 0 {
        if pread(reader, &last, 1, off_t(size - 1)) == 1, last != 0x0A { bytes.insert(0x0A, at: 0) }
        close(reader)
      }
    }
    var failure = writeAll(bytes, to: descriptor)
    if failure == 0 {
      FileAccessCounter.synced(path)
      #if canImport(Darwin)
        if fsync(descriptor) != 0 { failure = errno }
      #else
        if fdatasync(descriptor) != 0 { failure = errno }
      #endif
    }
    if failure != 0 { throw .system(path: path, action: "append to", errorNumber: failure) }
    let start = size + bytes.count - line.count
    return start..<(size + bytes.count)
  }

  /// Writes every byte of `bytes` to `descriptor`, retrying after signals; 0, or the `errno`
  /// of the write that failed.
  private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
    bytes.withUnsafeBytes { buffer in
      var written = 0
      while written < buffer.count {
        let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
        if count < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += count
      }
      return 0
    }
  }

  private static func systemRead(
    _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int
  ) -> Int {
    #if canImport(Glibc)
      Glibc.read(descriptor, buffer, count)
    #else
      Darwin.read(descriptor, buffer, count)
    #endif
  }

  private static func temporaryPath(beside path: String) -> String {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let suffix = ".\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    // `.NAME.PID.RANDOM.tmp` must itself be a valid file name (255 bytes): a long NAME is cut.
    var shortened = Substring(name)
    while 1 + shortened.utf8.count + suffix.utf8.count > 255 { shortened = shortened.dropLast() }
    return "\(folder).\(shortened)\(suffix)"
  }
}
