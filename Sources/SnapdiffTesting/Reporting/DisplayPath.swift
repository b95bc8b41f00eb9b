import Foundation

/// Paths as messages show them: relative to the current folder when inside it (as `snapdiff`
/// prints them), absolute otherwise, so that every path of one message is written the same way.
enum DisplayPath {
  static func shown(_ path: String) -> String {
    let current = FileManager.default.currentDirectoryPath
    let absolute = path.hasPrefix("/") ? path : current + "/" + path
    let prefix = current.hasSuffix("/") ? current : current + "/"
    var shown = absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    while shown.hasPrefix("./") { shown.removeFirst(2) }
    return shown
  }
}
