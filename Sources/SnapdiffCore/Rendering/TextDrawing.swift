/// Measuring, truncating, wrapping and drawing text in a ``BitmapFont``.
///
/// All of it is integer arithmetic on whole glyphs, so a string measures and draws the same on
/// every machine. Widths are in pixels at `scale`; a line is split at `Character` boundaries
/// only, so an emoji or a letter with its accents is never cut in two. Newlines (`\n`, `\r\n`,
/// U+2028…) end a line.
extension BitmapFont {
  /// The width of `text`'s widest line in pixels, from the first glyph's left edge to the last
  /// glyph's right edge (the gap after the last glyph is not counted; trailing spaces are).
  ///
  /// ```swift
  /// BitmapFont.standard.width(of: "OK", scale: 2)  // 22: (5 + 1 + 5) × 2
  /// ```
  public func width(of text: String, scale: Int = 1) -> Int {
    precondition(scale >= 1, "a text scale is at least 1")
    return Self.lines(of: text).reduce(0) { max($0, extent(of: $1)) } * scale
  }

  /// The height of `text` in pixels: its number of lines times ``lineHeight(scale:)`` (an empty
  /// string is one empty line).
  public func height(of text: String, scale: Int = 1) -> Int {
    Self.lines(of: text).count * lineHeight(scale: scale)
  }

  /// ``width(of:scale:)`` and ``height(of:scale:)`` together: the box that
  /// ``RGBAImage/drawText(_:x:y:color:scale:font:clippedTo:)`` draws in.
  public func size(of text: String, scale: Int = 1) -> PixelSize {
    PixelSize(width: width(of: text, scale: scale), height: height(of: text, scale: scale))
  }

  /// `text` if it fits in `width` pixels on one line; otherwise its longest start that fits with
  /// `…` after it (trailing spaces dropped before the `…`). A text of several lines keeps only
  /// its first, always with the `…`.
  ///
  /// - Returns: the empty string when not even `…` fits.
  ///
  /// ```swift
  /// font.truncated("Continue with email", toWidth: 60)  // "Continue wit…"
  /// ```
  public func truncated(_ text: String, toWidth width: Int, scale: Int = 1) -> String {
    let limit = Self.unscaled(width, scale: scale)
    let lines = Self.lines(of: text)
    if lines.count == 1 && extent(of: lines[0]) <= limit { return text }
    return withEllipsis(lines[0], limit: limit)
  }

  /// `text` broken into lines that fit in `width` pixels: words move to the next line whole,
  /// at spaces (U+0020; a no-break space does not break), and a word wider than a line is broken
  /// between characters. Spaces where a line breaks are dropped; newlines in `text` always
  /// break. A line holds at least one character, even if that is wider than `width`.
  ///
  /// - Parameters:
  ///   - maxLines: if given and the text needs more lines, the last line kept holds as much of
  ///     the rest of its paragraph as fits, then `…` (as ``truncated(_:toWidth:scale:)`` does).
  ///
  /// ```swift
  /// font.wrapped("Your password must have 8 characters", toWidth: 80)
  /// // ["Your password", "must have 8", "characters"]
  /// font.wrapped("Your password must have 8 characters", toWidth: 80, maxLines: 2)
  /// // ["Your password", "must have 8 cha…"]
  /// ```
  public func wrapped(
    _ text: String, toWidth width: Int, scale: Int = 1, maxLines: Int? = nil
  ) -> [String] {
    precondition(maxLines.map { $0 >= 1 } ?? true, "maxLines is at least 1")
    let limit = Self.unscaled(width, scale: scale)
    let paragraphs = Self.lines(of: text)
    var lines: [String] = []
    for (number, paragraph) in paragraphs.enumerated() {
      let slices = wrap(paragraph, limit: limit)
      let total = lines.count + slices.count
      let isLastParagraph = number == paragraphs.count - 1
      // Cut when there are more lines than allowed, or just enough but more text follows.
      guard let maxLines, total > maxLines || (total == maxLines && !isLastParagraph) else {
        lines += slices.map(String.init)
        continue
      }
      // The text goes on past the last line allowed: that line takes what fits of the rest of
      // its paragraph (a later paragraph is not pulled up), and says that more follows.
      let kept = maxLines - lines.count
      lines += slices.prefix(kept - 1).map(String.init)
      lines.append(withEllipsis(paragraph[slices[kept - 1].startIndex...], limit: limit))
      return lines
    }
    return lines
  }

  // MARK: Internals, in font pixels (scale 1)

  /// The lines of `text`, split at every newline `Character`.
  static func lines(of text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
  }

  /// A width in pixels as font pixels at `scale`: the most columns whose scaled width fits.
  private static func unscaled(_ width: Int, scale: Int) -> Int {
    precondition(scale >= 1, "a text scale is at least 1")
    // Why not plain `/`: it rounds towards zero, and a negative width must fit nothing.
    return width < 0 ? -1 : width / scale
  }

  /// The columns from the first glyph's left edge to the right edge of the rightmost ink cell.
  func extent(of characters: some Sequence<Character>) -> Int {
    var pen = 0
    var extent = 0
    for character in characters {
      let glyph = glyph(for: character)
      extent = max(extent, pen + glyph.width)
      pen += glyph.advance
    }
    return extent
  }

  /// How far the pen moves over `characters`.
  private func advance(of characters: some Sequence<Character>) -> Int {
    characters.reduce(0) { $0 + glyph(for: $1).advance }
  }

  /// The longest start of `line` that fits in `limit` with `…` after it, then the `…`.
  private func withEllipsis(_ line: Substring, limit: Int) -> String {
    let ellipsis = glyph(for: "…")
    guard ellipsis.width <= limit else { return "" }
    var pen = 0
    var end = line.startIndex
    for index in line.indices {
      pen += glyph(for: line[index]).advance
      // The pen only moves right, so the first character that does not fit ends the search.
      guard pen + ellipsis.width <= limit else { break }
      end = line.index(after: index)
    }
    var kept = line[..<end]
    while kept.last == " " { kept.removeLast() }
    return String(kept) + "…"
  }

  /// One paragraph (no newlines) as lines of at most `limit` columns, each a slice of it.
  private func wrap(_ paragraph: Substring, limit: Int) -> [Substring] {
    var lines: [Substring] = []
    var lineStart: String.Index?
    var lineEnd = paragraph.startIndex
    var lineExtent = 0
    var linePen = 0
    var spaces: Substring = ""
    var index = paragraph.startIndex

    /// Appends `range` of the paragraph, which starts where the line ends, to the line.
    func put(_ range: Range<String.Index>) {
      if lineStart == nil { lineStart = range.lowerBound }
      lineEnd = range.upperBound
      for character in paragraph[range] {
        let glyph = glyph(for: character)
        lineExtent = max(lineExtent, linePen + glyph.width)
        linePen += glyph.advance
      }
    }
    func breakLine() {
      lines.append(paragraph[(lineStart ?? lineEnd)..<lineEnd])
      lineStart = nil
      lineExtent = 0
      linePen = 0
    }

    while index < paragraph.endIndex {
      let start = index
      let isSpace = paragraph[index] == " "
      while index < paragraph.endIndex && (paragraph[index] == " ") == isSpace {
        paragraph.formIndex(after: &index)
      }
      if isSpace {
        spaces = paragraph[start..<index]
        continue
      }
      let word = paragraph[start..<index]
      // Spaces that begin a wrapped line are dropped; those that begin the paragraph indent it.
      let lead = lineStart == nil && !lines.isEmpty ? paragraph[start..<start] : spaces
      spaces = ""
      let wordExtent = extent(of: word)
      if lineStart != nil || !lead.isEmpty {
        if max(lineExtent, linePen + advance(of: lead) + wordExtent) <= limit {
          put(lead.startIndex..<word.endIndex)
          continue
        }
        if lineStart != nil { breakLine() }
      }
      if wordExtent <= limit {
        put(word.startIndex..<word.endIndex)
        continue
      }
      // Why character by character: a word wider than the line (a URL, an e-mail address) has
      // no better break, and clipping it would hide text a screenshot should show.
      for characterIndex in word.indices {
        let glyph = glyph(for: word[characterIndex])
        if lineStart != nil && max(lineExtent, linePen + glyph.width) > limit { breakLine() }
        put(characterIndex..<word.index(after: characterIndex))
      }
    }
    breakLine()
    return lines
  }
}

extension RGBAImage {
  /// Draws `text` with its top-left corner at (`x`, `y`), each font pixel a `scale` × `scale`
  /// block of `color`, blended source-over when `color` is translucent. Lines are left-aligned
  /// and ``BitmapFont/lineHeight(scale:)`` apart; the first baseline is at
  /// `y + font.baseline(scale:)`.
  ///
  /// Nothing outside the image or outside `clip` is written, so a child's text can be clipped to
  /// its parent's frame. Each pixel is blended at most once per call.
  ///
  /// - Parameters:
  ///   - clip: the only pixels that may change; `nil` for the whole image.
  /// - Returns: the box the text occupies, ``BitmapFont/size(of:scale:)`` at (`x`, `y`), before
  ///   clipping.
  ///
  /// ```swift
  /// let white = RGBAColor(red: 255, green: 255, blue: 255)
  /// var image = RGBAImage(width: 80, height: 30, filledWith: white)
  /// image.drawText("Sign in", x: 4, y: 4, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 128),
  ///   scale: 2, clippedTo: PixelRect(x: 0, y: 0, width: 40, height: 30))
  /// ```
  @discardableResult
  public mutating func drawText(
    _ text: String, x: Int, y: Int, color: RGBAColor, scale: Int = 1,
    font: BitmapFont = .standard, clippedTo clip: PixelRect? = nil
  ) -> PixelRect {
    let size = font.size(of: text, scale: scale)
    let box = PixelRect(x: x, y: y, width: size.width, height: size.height)
    let image = PixelRect(x: 0, y: 0, width: width, height: height)
    let bounds = clip.map { intersection(image, $0) } ?? image
    guard color.alpha > 0, !bounds.isEmpty else { return box }

    let imageWidth = width
    let lineHeight = font.lineHeight(scale: scale)
    pixels.withUnsafeMutableBufferPointer { buffer in
      for (number, line) in BitmapFont.lines(of: text).enumerated() {
        let top = y + number * lineHeight
        guard top < bounds.maxY, top + lineHeight > bounds.y else { continue }
        var pen = x
        for character in line {
          // The pen only moves right: once past the clip, the rest of the line is too.
          guard pen < bounds.maxX else { break }
          let glyph = font.glyph(for: character)
          if pen + glyph.width * scale > bounds.x {
            for row in 0..<BitmapFont.cellHeight where glyph.rows[row] != 0 {
              let rowTop = top + row * scale
              let y0 = max(rowTop, bounds.y)
              let y1 = min(rowTop + scale, bounds.maxY)
              guard y0 < y1 else { continue }
              for column in 0..<glyph.width where glyph.rows[row] & (1 << column) != 0 {
                let left = pen + column * scale
                let x0 = max(left, bounds.x)
                let x1 = min(left + scale, bounds.maxX)
                guard x0 < x1 else { continue }
                for py in y0..<y1 {
                  let row = py &* imageWidth
                  for px in x0..<x1 { blend(color, into: buffer, at: (row &+ px) &* 4) }
                }
              }
            }
          }
          pen += glyph.advance * scale
        }
      }
    }
    return box
  }
}

/// The pixels in both rectangles (empty, at `a`'s corner, when none are).
private func intersection(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
  let left = max(a.x, b.x)
  let top = max(a.y, b.y)
  let right = min(a.maxX, b.maxX)
  let bottom = min(a.maxY, b.maxY)
  guard left < right, top < bottom else { return PixelRect(x: a.x, y: a.y, width: 0, height: 0) }
  return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
}

/// `color` over the straight-alpha pixel at `offset` (Porter–Duff source-over), in integers:
/// with weights in 255ths of 255ths every channel is one exact division, rounded half up.
@inline(__always)
private func blend(
  _ color: RGBAColor, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
) {
  let sourceAlpha = Int(color.alpha)
  // Why a fast path: opaque text is the common case, and it must replace, not mix.
  if sourceAlpha == 255 {
    buffer[offset] = color.red
    buffer[offset + 1] = color.green
    buffer[offset + 2] = color.blue
    buffer[offset + 3] = 255
    return
  }
  let destinationWeight = Int(buffer[offset + 3]) * (255 - sourceAlpha)
  let sourceWeight = sourceAlpha * 255
  // The result's alpha × 255²; above zero because `sourceAlpha` is (the caller skips 0).
  let total = sourceWeight + destinationWeight
  func mix(_ source: UInt8, _ destination: UInt8) -> UInt8 {
    UInt8((Int(source) * sourceWeight + Int(destination) * destinationWeight + total / 2) / total)
  }
  buffer[offset] = mix(color.red, buffer[offset])
  buffer[offset + 1] = mix(color.green, buffer[offset + 1])
  buffer[offset + 2] = mix(color.blue, buffer[offset + 2])
  buffer[offset + 3] = UInt8((total + 127) / 255)
}
