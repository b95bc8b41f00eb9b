import Foundation
import SnapdiffCore

/// The fixture images copied from pixelmatch's and odiff's test suites, and helpers around them.
enum Fixtures {
  /// `Tests/SnapdiffCoreTests/Fixtures`, found from this source file so that debug and release
  /// test runs both see it.
  static let directory: String = {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return here.appendingPathComponent("Fixtures").path
  }()

  static func path(_ relative: String) -> String { directory + "/" + relative }

  static func image(_ relative: String) throws -> RGBAImage {
    try PNGDecoder().decode(contentsOf: path(relative))
  }

  /// The entries of a fixture folder's `expected.json`.
  static func expectations(_ folder: String) throws -> [[String: Any]] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path(folder + "/expected.json")))
    return try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
  }
}

extension DiffOptions {
  /// Options from a pixelmatch-style JSON object (`threshold`, `includeAA`, `alpha`, `aaColor`,
  /// `diffColor`, `diffColorAlt`, `diffMask`; `checkerboard: false` is v6's behaviour already).
  init(pixelmatch json: [String: Any]) {
    self.init()
    if let value = json["threshold"] as? Double { threshold = value }
    if let value = json["includeAA"] as? Bool { includeAA = value }
    if let value = json["alpha"] as? Double { alpha = value }
    if let value = json["diffMask"] as? Bool { diffMask = value }
    if let value = json["aaColor"] as? [Int] { aaColor = RGBAColor(value) }
    if let value = json["diffColor"] as? [Int] { diffColor = RGBAColor(value) }
    if let value = json["diffColorAlt"] as? [Int] { diffColorAlt = RGBAColor(value) }
  }
}

extension RGBAColor {
  init(_ channels: [Int]) {
    self.init(red: UInt8(channels[0]), green: UInt8(channels[1]), blue: UInt8(channels[2]))
  }
}
