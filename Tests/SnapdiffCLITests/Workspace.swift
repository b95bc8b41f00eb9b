import Foundation
import SnapdiffCore
import Testing

/// A project folder in a temporary directory: frames to check, a baseline store, runs.
struct Workspace {
  let root: String

  static let white = RGBAColor(red: 255, green: 255, blue: 255)

  /// A 60×40 white screen with dark rectangles on it.
  static func screen(_ rects: [PixelRect]) -> RGBAImage {
    var image = RGBAImage(width: 60, height: 40, filledWith: white)
    for rect in rects {
      for y in rect.y..<rect.maxY {
        for x in rect.x..<rect.maxX { image[x: x, y: y] = RGBAColor(red: 20, green: 30, blue: 40) }
      }
    }
    return image
  }

  /// Writes `image` as the current frame of `key` (under `frames/`).
  func writeFrame(_ key: String, _ image: RGBAImage, folder: String = "frames") throws {
    let path = root + "/" + folder + "/" + key + ".png"
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try PNGEncoder().write(image, to: path)
  }

  func removeFrame(_ key: String) throws {
    try FileManager.default.removeItem(atPath: root + "/frames/" + key + ".png")
  }

  func baseline(_ key: String) throws -> RGBAImage {
    try PNGDecoder().decode(contentsOf: root + "/baselines/" + key + ".png")
  }

  func hasBaseline(_ key: String) -> Bool {
    FileManager.default.fileExists(atPath: root + "/baselines/" + key + ".png")
  }

  /// `snapdiff arguments…` run in this folder.
  @discardableResult
  func snapdiff(_ arguments: [String], environment: [String: String] = [:]) throws -> SnapdiffProcess.Output {
    try SnapdiffProcess.run(arguments, in: root, environment: environment)
  }

  /// The last run's record.
  func lastRun() throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: root + "/.snapdiff/runs/last/run.json"))
    return try JSONSerialization.jsonObject(with: data) as! [String: Any]
  }

  /// The last run's statuses by key.
  func lastStatuses() throws -> [String: String] {
    let snapshots = try lastRun()["snapshots"] as! [[String: Any]]
    return Dictionary(uniqueKeysWithValues: snapshots.map { ($0["key"] as! String, $0["status"] as! String) })
  }
}

func withWorkspace<T>(_ body: (Workspace) throws -> T) throws -> T {
  try withTemporaryDirectory { try body(Workspace(root: $0)) }
}

/// The bytes of everything under a workspace's `baselines/` (files, folders, link targets), to
/// show that nothing stored changed.
struct StoreBytes: Equatable {
  enum Entry: Equatable {
    case file(Data)
    case folder
    case link(String)
  }

  var entries: [String: Entry] = [:]

  init(_ workspace: Workspace) throws {
    let root = workspace.root + "/baselines"
    let manager = FileManager.default
    guard let names = manager.enumerator(atPath: root) else { return }
    for case let name as String in names {
      let path = root + "/" + name
      let attributes = try manager.attributesOfItem(atPath: path)
      switch attributes[.type] as? FileAttributeType {
      case .typeSymbolicLink?:
        entries[name] = .link(try manager.destinationOfSymbolicLink(atPath: path))
      case .typeDirectory?: entries[name] = .folder
      default: entries[name] = .file(try Data(contentsOf: URL(fileURLWithPath: path)))
      }
    }
  }

  /// Every entry of `earlier` is here, unchanged (new ones may have been added).
  func keeps(_ earlier: StoreBytes) -> Bool {
    earlier.entries.allSatisfy { entries[$0.key] == $0.value }
  }
}

extension Workspace {
  /// Writes `bytes` as `key`'s frame in place (PNGEncoder's temporary file would need a longer
  /// name than some of these keys leave room for).
  func writeRawFrame(_ key: String, _ bytes: [UInt8]) throws {
    let path = root + "/frames/" + key + ".png"
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Records `image` as `key`'s baseline, then writes `bytes` as the current frame of `key` and
  /// of `new` (a snapshot without a baseline). Returns the two frames' paths.
  func recordThenReplace(
    _ key: String, recording image: RGBAImage, new: String, with bytes: [UInt8]
  )
    throws -> (String, String)
  {
    try writeFrame(key, image)
    let first = try snapdiff(["check", "frames"])
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    var paths: [String] = []
    for name in [key, new] {
      let path = root + "/frames/" + name + ".png"
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      paths.append(path)
    }
    return (paths[0], paths[1])
  }
}
