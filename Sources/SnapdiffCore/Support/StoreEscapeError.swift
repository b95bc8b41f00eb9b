/// A write, rename or removal refused because its path leads out of the folder it must stay in
/// (the baseline store, a run folder) through a symbolic link.
///
/// `description` names the absolute paths, for the CLI; `messageInsideFolder` names them
/// relative to the folder, for API answers (which do not show the server's folders).
public struct StoreEscapeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path that was to be written or removed, absolute.
  public var path: String
  /// The folder it must stay in, absolute (as given, before links are resolved).
  public var root: String
  /// The symbolic link on the way that leads out, absolute; `nil` when the path itself lies
  /// outside `root`.
  public var link: String?
  /// What the folder is, for messages: `baseline store`, `run folder`.
  public var place: String

  public init(path: String, root: String, link: String?, place: String) {
    self.path = path
    self.root = root
    self.link = link
    self.place = place
  }

  public var description: String {
    if link == path {
      return "\(path): is a symbolic link that leads outside the \(place) \(root); nothing was written or removed"
    }
    let how = link.map { ": \($0) is a symbolic link that leads outside it" } ?? ""
    return "\(path): leads outside the \(place) \(root)\(how); nothing was written or removed"
  }

  /// The message with paths relative to the folder: `'evil/y.png' leads outside the baseline
  /// store: 'evil' is a symbolic link that leads outside it`.
  public var messageInsideFolder: String {
    func shown(_ absolute: String) -> String {
      let prefix = (root + "/").utf8
      guard absolute.utf8.starts(with: prefix) else { return "<\(place)>" }
      return String(decoding: absolute.utf8.dropFirst(prefix.count), as: UTF8.self)
    }
    if link == path {
      return "'\(shown(path))' is a symbolic link that leads outside the \(place); nothing was written or removed"
    }
    let how = link.map { ": '\(shown($0))' is a symbolic link that leads outside it" } ?? ""
    return "'\(shown(path))' leads outside the \(place)\(how); nothing was written or removed"
  }
}
