extension PixelRect {
  /// `{"x", "y", "width", "height"}`.
  public var json: JSONValue {
    .object([("x", .int(x)), ("y", .int(y)), ("width", .int(width)), ("height", .int(height))])
  }
}

extension PixelSize {
  /// `{"width", "height"}`.
  public var json: JSONValue { .object([("width", .int(width)), ("height", .int(height))]) }
}

extension DiffResult {
  /// The result's fields as JSON members, in the order the CLI prints them.
  public var jsonMembers: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [
      ("width", .int(max(baselineSize.width, currentSize.width))),
      ("height", .int(max(baselineSize.height, currentSize.height))),
      ("identical", .bool(identical)),
      ("passed", .bool(passed)),
      ("differentPixels", .int(differentPixels)),
      ("antialiasedPixels", .int(antialiasedPixels)),
      ("ignoredPixels", .int(ignoredPixels)),
    ]
    // Only the rendering-tolerant level tolerates pixels; other levels' JSON is unchanged.
    if toleratedPixels > 0 { members.append(("toleratedPixels", .int(toleratedPixels))) }
    members += [
      ("totalPixels", .int(totalPixels)),
      ("differentRatio", .double(differentRatio)),
      ("regions", .array(regions.map(\.json))),
    ]
    if let colorConversion { members.append(("colorConversion", colorConversion.json)) }
    if let loneMove { members.append(("loneMove", loneMove.json)) }
    if !sizesMatch {
      members.append(("baselineSize", baselineSize.json))
      members.append(("currentSize", currentSize.json))
    }
    return members
  }
}
