import Foundation
import SnapdiffCore
import Testing

/// The built-in bitmap font: its glyph table, measuring, truncating, wrapping, and drawing
/// (clipping, blending), plus a golden specimen of every glyph.
@Suite("Bitmap font")
struct BitmapFontTests {
  let font = BitmapFont.standard

  static let white = RGBAColor(red: 255, green: 255, blue: 255)
  static let ink = RGBAColor(red: 20, green: 20, blue: 20)
  static let printableASCII: [Character] = (0x21...0x7E).map { Character(Unicode.Scalar($0)!) }

  // MARK: The glyph table

  @Test func everyPrintableASCIICharacterHasAGlyphWithInk() {
    for character in Self.printableASCII {
      #expect(font.hasGlyph(for: character), "\(character) has no glyph")
      #expect(font.glyph(for: character) != font.missingGlyph, "\(character) is the box")
      #expect(font.glyph(for: character).hasInk, "\(character) is blank")
    }
    #expect(font.hasGlyph(for: " "))
    #expect(!font.glyph(for: " ").hasInk)
  }

  @Test func theExtraCharactersHaveGlyphs() {
    for character in "•…©°€£·–—‘’“”éèêàâçôüöäñÉÈÊÀÂÇÔÜÖÄÑ" {
      #expect(font.hasGlyph(for: character), "\(character) has no glyph")
      #expect(font.glyph(for: character).hasInk)
    }
  }

  @Test func noTwoGlyphsAreAlikeAndNoneIsTheBox() {
    var owners: [BitmapFont.Glyph: Character] = [:]
    for character in font.characters {
      let glyph = font.glyph(for: character)
      #expect(glyph != font.missingGlyph, "\(character) looks like the box")
      if let other = owners[glyph] {
        Issue.record("\(character) and \(other) have the same glyph")
      }
      owners[glyph] = character
    }
    #expect(owners.count == font.characters.count)
  }

  /// Consistent metrics: capitals and digits on rows 2–8, the x-height on rows 4–8, ascenders
  /// from row 2 and descenders to row 10.
  @Test(arguments: [
    ("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdfhikl", 2, 8),
    ("acemnorsuvwxz", 4, 8),
    ("gpqy", 4, 10),
    ("j", 2, 10),
    ("t", 3, 8),
  ])
  func glyphsShareTheirRows(characters: String, top: Int, bottom: Int) {
    for character in characters {
      let rows = font.glyph(for: character).rows
      let inked = rows.indices.filter { rows[$0] != 0 }
      #expect(inked.first == top && inked.last == bottom, "\(character): rows \(inked)")
    }
  }

  /// Side bearings come from the gap alone, so that a string measures to its ink; digits are
  /// the exception, all 5 columns wide so that numbers line up.
  @Test func glyphsHaveInkInTheirFirstAndLastColumns() {
    for character in font.characters where !character.isNumber {
      let glyph = font.glyph(for: character)
      guard glyph.hasInk else { continue }
      let columns = (0..<glyph.width).filter { x in
        (0..<BitmapFont.cellHeight).contains { glyph.isInked(x: x, y: $0) }
      }
      #expect(columns.first == 0 && columns.last == glyph.width - 1, "\(character): \(columns)")
    }
    for digit in "0123456789" { #expect(font.glyph(for: digit).width == 5) }
  }

  @Test func unknownCharactersAreOneBoxEach() {
    let box = font.missingGlyph
    #expect(box.hasInk)
    for character in ["😀", "👨‍👩‍👧", "🇫🇷", "中", "✓", "\u{E000}", "\t", "q\u{301}"] as [Character] {
      #expect(!font.hasGlyph(for: character), "\(character) has a glyph")
      #expect(font.glyph(for: character) == box)
    }
    // A family is one grapheme cluster of five scalars: one box, not five.
    #expect(font.width(of: "👨‍👩‍👧") == box.width)
    #expect(font.width(of: "a👨‍👩‍👧b") == font.width(of: "a\u{E000}b"))
    #expect(render("x😀y") == render("x\u{E000}y"))
    #expect(render("x😀y") != render("xy"))
  }

  /// Lookup is by `Character`, whose equality is canonical equivalence.
  @Test func decomposedAccentsDrawAsTheirPrecomposedLetters() {
    #expect(render("Cafe\u{301}") == render("Café"))
    #expect(render("A\u{308}rger") == render("Ärger"))
    #expect(font.width(of: "n\u{303}") == font.width(of: "ñ"))
  }

  @Test func invisibleCharactersTakeNoRoom() {
    #expect(font.width(of: "a\u{200B}b") == font.width(of: "ab"))
    #expect(render("a\u{200B}b") == render("ab"))
    #expect(render("a\u{A0}b") == render("a b"))
  }

  // MARK: Measuring

  @Test func metrics() {
    #expect(font.lineHeight(scale: 1) == 11)
    #expect(font.lineHeight(scale: 3) == 33)
    #expect(font.baseline(scale: 2) == 18)
    #expect(font.ascent + font.descent == BitmapFont.cellHeight)
    #expect(font.width(of: "") == 0)
    #expect(font.width(of: "OK", scale: 2) == 22)
    #expect(font.width(of: "ab\nabcd") == font.width(of: "abcd"))
    #expect(font.height(of: "") == 11)
    #expect(font.height(of: "a\nb\r\nc", scale: 2) == 66)
    #expect(font.size(of: "Il1") == PixelSize(width: 3 + 1 + 2 + 1 + 5, height: 11))
  }

  @Test(arguments: [(0, 1), (12, 1), (14, 1), (15, 2), (17, 2), (24, 2), (34, 3), (51, 5)])
  func scaleForAPixelSize(pixelSize: Int, scale: Int) {
    #expect(font.scale(forPixelSize: pixelSize) == scale)
  }

  static let samples = [
    "Sign in", "The quick brown fox jumps over the lazy dog.", "Il1| O0o rn m", "€12.99 — 45 %",
    "Öffnen · Übersicht", "“Quoted” ‘single’", "ab😀cd", "Two\nlines here", "x", "j", "1",
  ]

  /// The ink lies inside the measured box; where the text starts and ends with ink (not a space,
  /// not a digit's side bearing), it touches the box's left and right edges.
  @Test(arguments: samples, [1, 2, 3])
  func drawingStaysInsideTheMeasuredBox(text: String, scale: Int) throws {
    let size = font.size(of: text, scale: scale)
    var image = RGBAImage(width: size.width + 20, height: size.height + 20, filledWith: Self.white)
    let box = image.drawText(text, x: 10, y: 10, color: Self.ink, scale: scale)
    #expect(box == PixelRect(x: 10, y: 10, width: size.width, height: size.height))
    let ink = try #require(inkBounds(image, background: Self.white))
    #expect(ink.x >= box.x && ink.y >= box.y && ink.maxX <= box.maxX && ink.maxY <= box.maxY)
    let lines = text.split(separator: "\n")
    if lines.allSatisfy({ $0.first?.isNumber == false && $0.last?.isNumber == false }) {
      #expect(ink.x == box.x)
      #expect(ink.maxX == box.maxX)
    }
  }

  // MARK: Drawing

  @Test func clippingNeverWritesOutsideTheClip() {
    let sentinel = RGBAColor(red: 1, green: 2, blue: 3, alpha: 4)
    let clips = [
      PixelRect(x: 5, y: 3, width: 17, height: 9), PixelRect(x: -10, y: -10, width: 25, height: 20),
      PixelRect(x: 30, y: 15, width: 100, height: 100), PixelRect(x: 12, y: 0, width: 0, height: 9),
      PixelRect(x: 50, y: 50, width: 10, height: 10), PixelRect(x: 0, y: 0, width: 1, height: 1),
    ]
    let origins = [(-7, -5), (0, 0), (3, 4), (20, 18), (-30, 10), (38, -12)]
    for clip in clips {
      for (x, y) in origins {
        for color in [Self.ink, RGBAColor(red: 200, green: 40, blue: 90, alpha: 99)] {
          var clipped = RGBAImage(width: 40, height: 30, filledWith: sentinel)
          var whole = clipped
          clipped.drawText("Wq\nÉj😀", x: x, y: y, color: color, scale: 2, clippedTo: clip)
          whole.drawText("Wq\nÉj😀", x: x, y: y, color: color, scale: 2)
          for py in 0..<30 {
            for px in 0..<40 {
              let inside = px >= clip.x && px < clip.maxX && py >= clip.y && py < clip.maxY
              let expected = inside ? whole[x: px, y: py] : sentinel
              #expect(clipped[x: px, y: py] == expected, "(\(px), \(py)), \(clip), at (\(x), \(y))")
            }
          }
        }
      }
    }
  }

  @Test func textFarOutsideTheImageDrawsNothing() {
    let blank = RGBAImage(width: 20, height: 20, filledWith: Self.white)
    for (x, y) in [(-1000, 0), (0, -1000), (20, 0), (0, 20), (Int(Int32.max), 5)] {
      var image = blank
      image.drawText("Hello", x: x, y: y, color: Self.ink, scale: 3)
      #expect(image == blank)
    }
  }

  /// Source-over in integers: exact values, rounded half up.
  @Test func translucentColorsBlendSourceOver() {
    let red = RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
    var onWhite = RGBAImage(width: 8, height: 12, filledWith: Self.white)
    onWhite.drawText(".", x: 0, y: 0, color: red)
    // 255 × (255 − 128) / 255 = 127 exactly.
    #expect(onWhite[x: 0, y: 8] == RGBAColor(red: 255, green: 127, blue: 127, alpha: 255))
    #expect(onWhite[x: 1, y: 8] == Self.white)

    let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    var onClear = RGBAImage(width: 8, height: 12, filledWith: clear)
    onClear.drawText(".", x: 0, y: 0, color: red)
    #expect(onClear[x: 0, y: 8] == red)

    let half = RGBAColor(red: 0, green: 0, blue: 255, alpha: 64)
    let halfYellow = RGBAColor(red: 255, green: 255, blue: 0, alpha: 128)
    var onHalf = RGBAImage(width: 8, height: 12, filledWith: halfYellow)
    onHalf.drawText(".", x: 0, y: 0, color: half)
    // Weights 64 × 255 and 128 × 191, total 40 768: alpha 40 768 / 255 = 159.9 → 160,
    // red 255 × 24 448 / 40 768 = 152.9 → 153, blue 255 × 16 320 / 40 768 = 102.1 → 102.
    #expect(onHalf[x: 0, y: 8] == RGBAColor(red: 153, green: 153, blue: 102, alpha: 160))

    var invisible = RGBAImage(width: 8, height: 12, filledWith: Self.white)
    invisible.drawText("A", x: 0, y: 0, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
    #expect(invisible == RGBAImage(width: 8, height: 12, filledWith: Self.white))
  }

  @Test func drawingTwiceGivesTheSameBytes() {
    let text = "Déjà vu — 12:30 •••• 😀"
    let translucent = RGBAColor(red: 10, green: 120, blue: 200, alpha: 150)
    let paper = RGBAColor(red: 240, green: 230, blue: 220, alpha: 200)
    var first = RGBAImage(width: 300, height: 40, filledWith: paper)
    var second = first
    first.drawText(text, x: 3, y: 4, color: translucent, scale: 2)
    second.drawText(text, x: 3, y: 4, color: translucent, scale: 2)
    #expect(first.pixels == second.pixels)
    // Opaque text drawn again over itself changes nothing.
    var again = RGBAImage(width: 300, height: 40, filledWith: Self.white)
    again.drawText(text, x: 3, y: 4, color: Self.ink, scale: 2)
    let once = again
    again.drawText(text, x: 3, y: 4, color: Self.ink, scale: 2)
    #expect(again == once)
  }

  // MARK: Truncating

  @Test func truncation() {
    #expect(font.truncated("Sign in", toWidth: 100) == "Sign in")
    #expect(font.truncated("Sign in", toWidth: font.width(of: "Sign in")) == "Sign in")
    // Pens: "Continue wit" ends at 53, + "…" (5) = 58; "Continue with" would need 63.
    #expect(font.truncated("Continue with email", toWidth: 60) == "Continue wit…")
    #expect(font.truncated("Continue with email", toWidth: 120, scale: 2) == "Continue wit…")
    #expect(font.truncated("Continue with email", toWidth: 61, scale: 2) == "Conti…")
    // The space before the "…" is dropped.
    #expect(font.truncated("Continue with email", toWidth: 50) == "Continue…")
    #expect(font.truncated("Continue with email", toWidth: 100, scale: 2) == "Continue…")
    #expect(font.truncated("Continue", toWidth: 5) == "…")
    #expect(font.truncated("Continue", toWidth: 4) == "")
    #expect(font.truncated("Continue", toWidth: -3) == "")
    #expect(font.truncated("First line\nSecond", toWidth: 500) == "First line…")
    #expect(font.truncated("", toWidth: 0) == "")
  }

  @Test(arguments: [0, 7, 20, 33, 64, 100, 180])
  func truncationFitsAndKeepsWholeCharacters(width: Int) {
    let texts = Self.samples + ["👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", "Ünïcödé ñ e\u{301}e\u{301}e\u{301}"]
    for text in texts where !text.contains("\n") {
      let result = font.truncated(text, toWidth: width)
      #expect(font.width(of: result) <= width, "\(result)")
      if result != text && !result.isEmpty {
        #expect(result.hasSuffix("…"))
        let kept = result.dropLast()
        #expect(text.hasPrefix(kept), "\(result) is not a start of \(text)")
        // The longest start that fits: one more character (and its spaces) would not.
        let next = text.dropFirst(kept.count).drop { $0 == " " }
        if let character = next.first {
          let longer = text.prefix(text.count - next.count) + String(character) + "…"
          #expect(font.width(of: String(longer)) > width, "\(longer) would fit in \(width)")
        }
      }
    }
  }

  // MARK: Wrapping

  @Test func wrapping() {
    let text = "Your password must have 8 characters"
    #expect(font.wrapped(text, toWidth: 80) == ["Your password", "must have 8", "characters"])
    #expect(font.wrapped(text, toWidth: 160, scale: 2) == font.wrapped(text, toWidth: 80))
    #expect(font.wrapped(text, toWidth: 1000) == [text])
    #expect(font.wrapped("a\n\nb", toWidth: 100) == ["a", "", "b"])
    #expect(font.wrapped("", toWidth: 100) == [""])
    #expect(font.wrapped("  indented text", toWidth: 1000) == ["  indented text"])
    #expect(font.wrapped("one    two", toWidth: 20) == ["one", "two"])
    // A line holds at least one character, even one wider than the line.
    #expect(font.wrapped("WW", toWidth: 3) == ["W", "W"])
    #expect(font.wrapped("no\u{A0}break here", toWidth: 40) == ["no\u{A0}break", "here"])
  }

  @Test func longWordsBreakBetweenCharacters() {
    let word = "supercalifragilisticexpialidocious"
    let lines = font.wrapped("see " + word + " now", toWidth: 40)
    #expect(lines.count > 3)
    #expect(lines.first == "see")
    #expect(lines.dropFirst().joined().hasPrefix(word))
    for line in lines { #expect(font.width(of: line) <= 40, "\(line)") }
    let families = font.wrapped("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", toWidth: 10)
    #expect(families == ["👨‍👩‍👧", "👨‍👩‍👧", "👨‍👩‍👧"])
  }

  @Test(arguments: [30, 45, 70, 120, 200])
  func wrappedLinesFitAndAreGreedy(width: Int) {
    let text = "The quick brown fox jumps over the lazy dog, then naps under a tree until dusk."
    let lines = font.wrapped(text, toWidth: width)
    #expect(lines.joined(separator: " ") == text)
    for (index, line) in lines.enumerated() {
      #expect(font.width(of: line) <= width, "\(line)")
      if index + 1 < lines.count, let next = lines[index + 1].split(separator: " ").first {
        #expect(font.width(of: line + " " + next) > width, "\(next) would fit after \(line)")
      }
    }
  }

  @Test func maxLinesEndsTheLastLineWithAnEllipsis() {
    let text = "Your password must have 8 characters"
    let lines = font.wrapped(text, toWidth: 80, maxLines: 2)
    #expect(lines == ["Your password", "must have 8 cha…"])
    #expect(font.width(of: lines[1]) <= 80)
    // The last line is filled from the rest of the paragraph, not only its own words.
    #expect(font.wrapped(text, toWidth: 50, maxLines: 1) == ["Your pass…"])
    #expect(font.wrapped(text, toWidth: 80, maxLines: 3) == font.wrapped(text, toWidth: 80))
    #expect(font.wrapped(text, toWidth: 80, maxLines: 9) == font.wrapped(text, toWidth: 80))
    // A later paragraph is not pulled up; the "…" says it is there.
    #expect(font.wrapped("a\nb\nc", toWidth: 80, maxLines: 2) == ["a", "b…"])
    #expect(font.wrapped("a\nb", toWidth: 80, maxLines: 2) == ["a", "b"])
    let cut = font.wrapped("see supercalifragilistic", toWidth: 40, maxLines: 2)
    #expect(cut == ["see", "superca…"])
  }

  // MARK: Golden specimen

  /// The specimen must match `Fixtures/golden/font-specimen.png` pixel for pixel. After changing
  /// a glyph on purpose, look at the new specimen and re-record it:
  ///
  ///     SNAPDIFF_UPDATE_GOLDEN=1 swift test --filter BitmapFontTests
  ///
  /// With `SNAPDIFF_UPDATE_GOLDEN=1` the test writes the file instead of comparing. On a
  /// mismatch the rendered specimen is written to the temporary directory for a look.
  @Test func specimenMatchesTheGoldenImage() throws {
    let specimen = Self.specimen(font)
    let path = Fixtures.path("golden/font-specimen.png")
    if ProcessInfo.processInfo.environment["SNAPDIFF_UPDATE_GOLDEN"] == "1" {
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try PNGEncoder().write(specimen, to: path)
      return
    }
    guard FileManager.default.fileExists(atPath: path) else {
      Issue.record("no golden image at \(path); run with SNAPDIFF_UPDATE_GOLDEN=1 to record it")
      return
    }
    let golden = try PNGDecoder().decode(contentsOf: path)
    if golden != specimen {
      let actual = FileManager.default.temporaryDirectory
        .appendingPathComponent("font-specimen.png").path
      try PNGEncoder().write(specimen, to: actual)
      let message =
        "the font specimen differs from \(path); the new one is at \(actual). If the change is "
        + "intended, re-run with SNAPDIFF_UPDATE_GOLDEN=1."
      Issue.record("\(message)")
    }
  }

  /// Every glyph at scale 1 and 2, sample texts, the box, translucent and clipped text.
  static func specimen(_ font: BitmapFont) -> RGBAImage {
    // One row per kind of glyph, in the font's order, so that every glyph is in the specimen.
    func kind(_ character: Character) -> Int {
      let base = character.isASCII ? 0 : 4
      if character.isUppercase { return base }
      if character.isLowercase { return base + 1 }
      return character.isNumber ? 2 : base + 3
    }
    var rows: [String] = []
    var previous = -1
    for character in font.characters where character != " " {
      if kind(character) != previous { rows.append("") } else { rows[rows.count - 1] += " " }
      rows[rows.count - 1].append(character)
      previous = kind(character)
    }
    let samples = [
      "The quick brown fox jumps over the lazy dog. 0123456789",
      "Il1| O0o rn m cl d  10:45  €12.99  £5  20°C  © 2025",
      "Password  ••••••••   Öffnen · Übersicht · Ça va? · Élan",
      "“Quoted” and ‘single’ — don’t – wait…  Missing: 😀 中 ✓",
      font.truncated("Truncated: this sentence is far too long for its box", toWidth: 200),
    ]
    let lines1 = rows + [""] + samples
    let lines2 = rows + [""] + samples.prefix(3)
    let widest1 = lines1.map { font.width(of: $0) }.max()!
    let widest2 = lines2.map { font.width(of: $0, scale: 2) }.max()!
    let width = max(widest1, widest2) + 16
    let bandHeight = font.lineHeight(scale: 2) + 8
    let height = 8 + lines1.count * 11 + 8 + lines2.count * 22 + 8 + bandHeight + 8 + 33 + 8
    var image = RGBAImage(width: width, height: height, filledWith: white)
    var y = 8
    for line in lines1 {
      image.drawText(line, x: 8, y: y, color: ink)
      y += font.lineHeight()
    }
    y += 8
    for line in lines2 {
      image.drawText(line, x: 8, y: y, color: ink, scale: 2)
      y += font.lineHeight(scale: 2)
    }
    y += 8
    // Translucent white on a blue band, then translucent red on white.
    for py in y..<(y + bandHeight) {
      for px in 0..<width { image[x: px, y: py] = RGBAColor(red: 30, green: 90, blue: 200) }
    }
    let onBand = "Translucent text on a band: Save changes"
    let translucentWhite = RGBAColor(red: 255, green: 255, blue: 255, alpha: 170)
    let bandText = image.drawText(onBand, x: 8, y: y + 4, color: translucentWhite, scale: 2)
    let translucentRed = RGBAColor(red: 255, green: 0, blue: 0, alpha: 153)
    image.drawText("60% red", x: bandText.maxX + 12, y: y + 4, color: translucentRed, scale: 2)
    y += bandHeight + 8
    // Clipped: the word is cut by its clip rectangle (outlined), as a child by its parent.
    let clip = PixelRect(x: 8, y: y + 6, width: 150, height: 14)
    for px in (clip.x - 1)...clip.maxX {
      image[x: px, y: clip.y - 1] = RGBAColor(red: 200, green: 200, blue: 200)
      image[x: px, y: clip.maxY] = RGBAColor(red: 200, green: 200, blue: 200)
    }
    for py in (clip.y - 1)...clip.maxY {
      image[x: clip.x - 1, y: py] = RGBAColor(red: 200, green: 200, blue: 200)
      image[x: clip.maxX, y: py] = RGBAColor(red: 200, green: 200, blue: 200)
    }
    image.drawText("Clipped Glyphs", x: 2, y: y, color: ink, scale: 3, clippedTo: clip)
    return image
  }

  // MARK: Helpers

  /// `text` drawn at scale 1 on white, for comparing two texts' pixels.
  func render(_ text: String) -> RGBAImage {
    var image = RGBAImage(width: 80, height: 14, filledWith: Self.white)
    image.drawText(text, x: 2, y: 1, color: Self.ink)
    return image
  }

  /// The smallest rectangle holding every pixel that is not `background`.
  func inkBounds(_ image: RGBAImage, background: RGBAColor) -> PixelRect? {
    var bounds: PixelRect?
    for y in 0..<image.height {
      for x in 0..<image.width where image[x: x, y: y] != background {
        let pixel = PixelRect(x: x, y: y, width: 1, height: 1)
        bounds = bounds.map { $0.union(pixel) } ?? pixel
      }
    }
    return bounds
  }
}
