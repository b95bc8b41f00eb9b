import SnapdiffCore

/// The most bytes each kind of body and part may have: one place for the service's limits.
/// Each is enforced while the body is read (`Upload`), so that a larger one costs no more than
/// its limit in time and memory.
enum UploadLimits {
  /// An element tree, as a `tree` part or an `application/json` frame body. Trees of real
  /// screens are tens of KiB; parsing a 4 MiB tree takes a worker well under a second.
  static let tree = 4 << 20
  /// A `settings` part: as much as a settings file may hold.
  static let settings = SnapshotSettings.maximumBytes
  /// A JSON request body (open a run, approve, reject, skip).
  static let json = 1 << 20

  /// The limit of a multipart part by its name; `nil` for a part the upload route does not take.
  static func part(_ name: String, maxUploadBytes: Int) -> Int? {
    switch name {
    case "frame": maxUploadBytes
    case "tree": tree
    case "settings": settings
    default: nil
    }
  }
}
