/// One 8-bit RGBA colour, as the diff engine draws it.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public var alpha: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Parses `"R,G,B"` (each 0–255), as the CLI takes colours; `nil` when malformed.
  public init?(commaSeparated text: String) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var channels: [UInt8] = []
    for part in parts {
      guard let value = UInt8(part.trimmingWhitespace()) else { return nil }
      channels.append(value)
    }
    self.init(red: channels[0], green: channels[1], blue: channels[2])
  }

  /// The colour as the little-endian 32-bit word it occupies in an RGBA8 buffer.
  @inline(__always)
  package var word: UInt32 {
    UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24
  }

  public var description: String { "\(red),\(green),\(blue)" }

  public static let red = RGBAColor(red: 255, green: 0, blue: 0)
  public static let yellow = RGBAColor(red: 255, green: 255, blue: 0)
}

extension Substring {
  func trimmingWhitespace() -> Substring {
    var text = self
    while let first = text.first, first == " " { text.removeFirst() }
    while let last = text.last, last == " " { text.removeLast() }
    return text
  }
}
