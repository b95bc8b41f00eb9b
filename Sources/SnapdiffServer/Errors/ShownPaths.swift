/// The server's own folders as clients are shown them: by their role (`<data>/runs/…`,
/// `<baselines>/…`), never by their absolute paths, which say how the machine is laid out. Every
/// message the API sends that may hold a path (errors of any status, a verdict's `error`) goes
/// through ``hide(_:)``.
struct ShownPaths: Sendable {
  /// Absolute folders and the names they are shown by, longest first (the data folder may hold
  /// the store, or the store the data folder).
  private let folders: [(path: String, name: String)]

  init(dataDirectory: String, baselines: String) {
    folders = [(dataDirectory, "<data>"), (baselines, "<baselines>")].sorted { $0.0.count > $1.0.count }
  }

  /// `text` with each folder's absolute path replaced by its role.
  func hide(_ text: String) -> String {
    var text = text
    for folder in folders {
      text = text.replacing(folder.path + "/", with: folder.name + "/")
      // The folder itself, not followed by a slash (a message that names it alone).
      if text.hasSuffix(folder.path) { text = String(text.dropLast(folder.path.count)) + folder.name }
      text = text.replacing(folder.path + ":", with: folder.name + ":")
      text = text.replacing(folder.path + " ", with: folder.name + " ")
      text = text.replacing(folder.path + "'", with: folder.name + "'")
    }
    return text
  }
}
