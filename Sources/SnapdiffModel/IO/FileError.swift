#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that cannot be read or written: missing, a directory, unreadable, a full disk.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
  public var path: String
  public var message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  /// The error for the `errno` a system call left.
  package static func system(path: String, action: String, errorNumber: Int32 = errno) -> FileError {
    let reason = String(cString: strerror(errorNumber))
    return FileError(path: path, message: "cannot \(action): \(reason.lowercased())")
  }

  public var description: String { "\(path): \(message)" }
}
