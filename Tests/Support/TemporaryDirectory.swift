import Foundation

/// A fresh folder under the system's temporary directory for the length of `body`, removed
/// afterwards. `prefix` names it (`<prefix>-<UUID>`), so a folder left by a crash says whose it is.
public func withTemporaryDirectory<T>(
  _ prefix: String = "snapdiff-tests", _ body: (String) throws -> T
) throws -> T {
  let path = try makeTemporaryDirectory(prefix)
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

/// A path under the system's temporary directory that nothing uses yet (`<prefix>-<UUID>`), not
/// created: for tests whose set-up and tear-down are separate methods, and which remove it.
public func temporaryPath(_ prefix: String = "snapdiff-tests") -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
}

/// A new, empty folder at `temporaryPath(prefix)`; the caller removes it.
public func makeTemporaryDirectory(_ prefix: String = "snapdiff-tests") throws -> String {
  let path = temporaryPath(prefix)
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}
