import Foundation

enum FileManagerList {
  /// The sorted names in a folder, hidden ones included.
  static func names(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }
}
