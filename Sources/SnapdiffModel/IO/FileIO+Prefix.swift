#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileIO {
  /// The first `count` bytes of the file at `path` (fewer when it is shorter): the head of a
  /// large file whose first bytes say what is needed.
  ///
  /// - Throws: `FileError` when the file cannot be opened or read.
  public static func readPrefix(_ path: String, count: Int) throws(FileError) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(path: path, action: "open") }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: max(count, 0))
    var filled = 0
    while filled < bytes.count {
      let got = bytes.withUnsafeMutableBytes { buffer in
        #if canImport(Glibc)
          Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        #else
          Darwin.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        #endif
      }
      if got < 0 {
        if errno == EINTR { continue }
        throw .system(path: path, action: "read")
      }
      if got == 0 { break }
      filled += got
    }
    return Array(bytes.prefix(filled))
  }
}
