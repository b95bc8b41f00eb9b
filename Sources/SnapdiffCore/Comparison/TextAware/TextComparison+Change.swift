// What the text comparison found, in words: its changes, their sentences and JSON, and the
// colours and distances they quote.
extension TextComparison {
  /// One text element that changed.
  public struct Change: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
      /// Its label (a field: its value) changed.
      case text
      /// Its ink grew or shrank beyond `maxCoverageChange` (a label that vanished).
      case coverage
      /// Its ink moved inside its frame.
      case shifted
      /// Its glyphs' colour changed.
      case color
      /// Pixels differ away from the glyphs of one of the images.
      case ink
    }

    public var kind: Kind
    public var elementType: ElementType
    public var identifier: String
    /// The baseline's text.
    public var text: String
    /// The box compared, in pixels (both frames together, inside both images).
    public var box: PixelRect
    /// What changed, in words: `label 'Track' → 'Trace'`.
    public var detail: String

    /// The element as a tester names it: `button 'saveButton'`, or its text.
    public var name: String {
      if !identifier.isEmpty { return "\(elementType.rawValue) '\(identifier)'" }
      return "\(elementType.rawValue) \"\(text)\""
    }

    /// `staticText "Senior iOS Engineer": label 'Senior iOS Engineer' → 'Senior iOS Engineers'`.
    public var sentence: String { "\(name): \(detail)" }

    /// `{identifier, elementType, text, change, box, description}` for `--json`.
    public var json: JSONValue {
      .object([
        ("identifier", .string(identifier)), ("elementType", .string(elementType.rawValue)),
        ("text", .string(text)), ("change", .string(kind.rawValue)),
        (
          "box",
          .object([("x", .int(box.x)), ("y", .int(box.y)), ("width", .int(box.width)), ("height", .int(box.height))])
        ),
        ("description", .string(sentence)),
      ])
    }
  }

  /// What the text comparison found.
  public struct Outcome: Sendable {
    /// The boxes compared as text; the pixel comparison leaves them out.
    public var boxes: [PixelRect]
    /// The text elements that changed, one change each, in the current tree's order.
    public var changes: [Change]
    /// The pixels that differ away from the glyphs, for the diff image.
    public var strayPixels: [(x: Int, y: Int)]
    /// Text elements whose frame changed width as hinting changes it (`hintedWidth`): their
    /// frames before and after, and the change in points. The layout comparison does not
    /// report them.
    public var hintedFrames: [(before: ElementFrame, after: ElementFrame, change: Double)] = []
  }

  /// `#RRGGBB` (with alpha when not opaque) of a little-endian RGBA word.
  static func hex(_ word: UInt32) -> String {
    HexColor(
      RGBAColor(
        red: UInt8(word & 0xff), green: UInt8((word >> 8) & 0xff), blue: UInt8((word >> 16) & 0xff),
        alpha: UInt8(word >> 24))
    ).description
  }

  static func pixels(_ value: Double) -> String { "\(ElementFrame.format((value * 10).rounded() / 10)) px" }
}
