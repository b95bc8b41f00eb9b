/// A bitmap font whose glyphs ship in this file, so that text renders to the same pixels on
/// every machine: no system fonts, no hinting, no floating point.
///
/// Glyphs sit in a cell 11 rows tall; they are proportional (1 to 7 columns wide) and followed by
/// a one-column gap. Row by row, from the top of the cell:
///
/// | rows  | what                                                        |
/// |-------|-------------------------------------------------------------|
/// | 0–1   | accents over capitals (and the line's leading when empty)   |
/// | 2–8   | capitals and digits, 7 rows; ascenders start at row 2       |
/// | 4–8   | the x-height: 5 rows; accents over lower case in rows 1–2   |
/// | 9–10  | descenders (g j p q y, cedillas, `_`)                       |
///
/// The baseline is under row 8, so ``ascent`` is 9 and ``descent`` 2, and lines are stacked
/// ``lineHeight(scale:)`` = 11 rows apart: the empty accent rows give the space between lines.
/// At a `scale` of *n* every font pixel is drawn as an *n* × *n* block.
///
/// A ``Character`` (an extended grapheme cluster) is one glyph: `"e\u{301}"` draws as `é`, and
/// a character without a glyph (an emoji, a flag, CJK) draws as one ``missingGlyph``, a hollow
/// box, so that nothing disappears silently.
///
/// ```swift
/// let font = BitmapFont.standard
/// let white = RGBAColor(red: 255, green: 255, blue: 255)
/// var image = RGBAImage(width: 120, height: 24, filledWith: white)
/// let label = font.truncated("Continue with email", toWidth: 112, scale: 2)
/// image.drawText(label, x: 4, y: 1, color: RGBAColor(red: 0, green: 0, blue: 0), scale: 2)
/// ```
public struct BitmapFont: Sendable {
  /// One glyph: `width` columns by ``BitmapFont/cellHeight`` rows of on/off pixels.
  public struct Glyph: Sendable, Hashable {
    /// Columns with ink, without the gap that follows the glyph.
    public let width: Int
    /// How far the pen moves after this glyph: `width` plus the one-column gap, or 0 for the
    /// invisible zero-width characters.
    public let advance: Int
    /// One bit mask per row, top to bottom; bit `x` is column `x` (the least significant bit is
    /// the leftmost column).
    public let rows: [UInt8]

    init(width: Int, advance: Int, rows: [UInt8]) {
      precondition((0...8).contains(width), "a glyph is at most 8 columns wide")
      precondition(rows.count == BitmapFont.cellHeight, "a glyph has \(BitmapFont.cellHeight) rows")
      self.width = width
      self.advance = advance
      self.rows = rows
    }

    /// Whether the pixel at column `x`, row `y` of the glyph is inked.
    public func isInked(x: Int, y: Int) -> Bool {
      x >= 0 && x < width && y >= 0 && y < rows.count && rows[y] & (1 << x) != 0
    }

    /// Whether any pixel is inked (false for spaces).
    public var hasInk: Bool { rows.contains { $0 != 0 } }
  }

  /// Rows in a glyph cell, accent rows and descenders included.
  public static let cellHeight = 11
  /// Columns between two glyphs.
  public static let letterSpacing = 1

  /// The font with the glyphs of this file; every `BitmapFont()` is this one.
  public static let standard = BitmapFont()

  /// The glyph of every character the font draws itself, the box excepted.
  public let glyphs: [Character: Glyph]
  /// The characters of the glyph sheet, in its order, space first. (The no-break space and the
  /// invisible zero-width characters are in ``glyphs`` only: they have no glyph of their own.)
  public let characters: [Character]
  /// What a character without a glyph draws: a hollow box, 5 columns by 9 rows (rows 1–9),
  /// taller than any letter so that it reads as "missing", never as `0`, `O` or `D`.
  public let missingGlyph: Glyph

  public init() {
    self = Self.parsed
  }

  private init(glyphs: [Character: Glyph], characters: [Character], missingGlyph: Glyph) {
    self.glyphs = glyphs
    self.characters = characters
    self.missingGlyph = missingGlyph
  }

  /// Rows from the top of the cell to the baseline.
  public var ascent: Int { 9 }
  /// Rows below the baseline.
  public var descent: Int { 2 }
  /// Rows of a capital letter or a digit.
  public var capHeight: Int { 7 }
  /// Rows of a lower-case letter without ascender or descender (`x`).
  public var xHeight: Int { 5 }

  /// The distance between two lines' tops, in pixels: 11 × `scale`.
  public func lineHeight(scale: Int = 1) -> Int { Self.cellHeight * scale }

  /// The baseline's distance below the top of a line, in pixels: 9 × `scale`.
  public func baseline(scale: Int = 1) -> Int { ascent * scale }

  /// The glyph that `character` draws: its own, or ``missingGlyph``.
  ///
  /// Lookup follows `Character` equality, which is canonical equivalence: `"e\u{301}"` finds
  /// `é`.
  public func glyph(for character: Character) -> Glyph {
    glyphs[character] ?? missingGlyph
  }

  /// Whether `character` has a glyph of its own (not the box).
  public func hasGlyph(for character: Character) -> Bool {
    glyphs[character] != nil
  }

  /// The integer scale for text of `pixelSize` pixels (a font size in points times the screen's
  /// scale): the font's em is taken as 10 rows, rounded half up, and never below 1.
  ///
  /// 12–14 px give 1, 15–24 px give 2, 51 px (17 pt at 3×) gives 5.
  public func scale(forPixelSize pixelSize: Int) -> Int {
    max(1, (pixelSize + 5) / 10)
  }
}

// MARK: - The glyphs

extension BitmapFont {
  /// The sheet parsed once: glyphs from ``sheet``, plus the space, the invisible characters and
  /// the box, which the sheet cannot show.
  private static let parsed: BitmapFont = {
    var glyphs: [Character: Glyph] = [:]
    var characters: [Character] = []
    let blank = [UInt8](repeating: 0, count: cellHeight)
    let space = Glyph(width: 3, advance: 3 + letterSpacing, rows: blank)
    glyphs[" "] = space
    characters.append(" ")
    for (character, glyph) in parseSheet(sheet) {
      precondition(glyphs[character] == nil, "the glyph sheet has \(character) twice")
      glyphs[character] = glyph
      characters.append(character)
    }
    // A no-break space looks like a space; these draw nothing and take no room, as on screen.
    glyphs["\u{A0}"] = space
    for scalar in ["\u{AD}", "\u{200B}", "\u{2060}", "\u{FEFF}"] as [Character] {
      glyphs[scalar] = Glyph(width: 0, advance: 0, rows: blank)
    }
    var box = [UInt8](repeating: 0, count: cellHeight)
    box[1] = 0b11111
    for row in 2...8 { box[row] = 0b10001 }
    box[9] = 0b11111
    let missing = Glyph(width: 5, advance: 5 + letterSpacing, rows: box)
    return BitmapFont(glyphs: glyphs, characters: characters, missingGlyph: missing)
  }()

  /// Reads ``sheet``: blocks separated by a blank line, each a line of characters followed by
  /// ``cellHeight`` rows of `#` (ink) and `.` (none), one space-separated piece per character.
  static func parseSheet(_ text: String) -> [(Character, Glyph)] {
    var result: [(Character, Glyph)] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var index = 0
    while index < lines.count {
      if lines[index].isEmpty {
        index += 1
        continue
      }
      precondition(index + cellHeight < lines.count, "a glyph block needs \(cellHeight) rows")
      let header = lines[index].split(separator: " ").map { Character(String($0)) }
      let rows = lines[(index + 1)...(index + cellHeight)].map { $0.split(separator: " ") }
      for (column, character) in header.enumerated() {
        let pieces = rows.map { row -> Substring in
          precondition(row.count == header.count, "a row of the \(header[0]) block is misaligned")
          return row[column]
        }
        let width = pieces[0].count
        let bits = pieces.map { piece -> UInt8 in
          precondition(piece.count == width, "the rows of \(character) differ in width")
          var mask: UInt8 = 0
          for (x, pixel) in piece.enumerated() {
            precondition(pixel == "#" || pixel == ".", "\(character) has a \(pixel) in it")
            if pixel == "#" { mask |= 1 << x }
          }
          return mask
        }
        result.append((character, Glyph(width: width, advance: width + letterSpacing, rows: bits)))
      }
      index += cellHeight + 1
    }
    return result
  }

  /// Every glyph, drawn. Each block is a line naming the characters, then their 11 rows: rows
  /// 0–1 hold capitals' accents, 2–8 capitals, 4–8 lower case, 9–10 descenders.
  ///
  /// Rules kept throughout: capitals and digits are 5 columns (tabular digits; `I` 3, `J` 5,
  /// `L` 4); lower case is 4 (`m v w x` 5, `i` 1, `l j` 2, `t` 3). Distinguished on purpose: `I`
  /// has serifs, `l` a foot, `1` a flag and a base, `|` a descender; `0` has a slash, `O` none;
  /// `m` is three stems, `rn` two glyphs with a gap. Capitals with a two-row accent are one row
  /// shorter (rows 3–8) so that the accent does not touch them.
  static let sheet = #"""
    A     B     C     D     E     F     G     H     I   J     K     L    M
    ..... ..... ..... ..... ..... ..... ..... ..... ... ..... ..... .... .....
    ..... ..... ..... ..... ..... ..... ..... ..... ... ..... ..... .... .....
    .###. ####. .###. ####. ##### ##### .###. #...# ### ..### #...# #... #...#
    #...# #...# #...# #...# #.... #.... #...# #...# .#. ...#. #..#. #... ##.##
    #...# #...# #.... #...# #.... #.... #.... #...# .#. ...#. #.#.. #... #.#.#
    ##### ####. #.... #...# ####. ####. #.### ##### .#. ...#. ##... #... #.#.#
    #...# #...# #.... #...# #.... #.... #...# #...# .#. ...#. #.#.. #... #...#
    #...# #...# #...# #...# #.... #.... #...# #...# .#. #..#. #..#. #... #...#
    #...# ####. .###. ####. ##### #.... .#### #...# ### .##.. #...# #### #...#
    ..... ..... ..... ..... ..... ..... ..... ..... ... ..... ..... .... .....
    ..... ..... ..... ..... ..... ..... ..... ..... ... ..... ..... .... .....

    N     O     P     Q     R     S     T     U     V     W     X     Y     Z
    ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....
    ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....
    #...# .###. ####. .###. ####. .#### ##### #...# #...# #...# #...# #...# #####
    #...# #...# #...# #...# #...# #.... ..#.. #...# #...# #...# #...# #...# ....#
    ##..# #...# #...# #...# #...# #.... ..#.. #...# #...# #...# .#.#. .#.#. ...#.
    #.#.# #...# ####. #...# ####. .###. ..#.. #...# .#.#. #.#.# ..#.. ..#.. ..#..
    #..## #...# #.... #.#.# #.#.. ....# ..#.. #...# .#.#. #.#.# .#.#. ..#.. .#...
    #...# #...# #.... #..#. #..#. ....# ..#.. #...# .#.#. #.#.# #...# ..#.. #....
    #...# .###. #.... .##.# #...# ####. ..#.. .###. ..#.. .#.#. #...# ..#.. #####
    ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....
    ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

    a    b    c    d    e    f    g    h    i j  k    l  m     n    o    p    q
    .... .... .... .... .... .... .... .... . .. .... .. ..... .... .... .... ....
    .... .... .... .... .... .... .... .... . .. .... .. ..... .... .... .... ....
    .... #... .... ...# .... ..## .... #... # .# #... #. ..... .... .... .... ....
    .... #... .... ...# .... .#.. .... #... . .. #... #. ..... .... .... .... ....
    .##. ###. .### .### .##. #### .### ###. # .# #..# #. ##.#. ###. .##. ###. .###
    ...# #..# #... #..# #..# .#.. #..# #..# # .# #.#. #. #.#.# #..# #..# #..# #..#
    .### #..# #... #..# #### .#.. #..# #..# # .# ##.. #. #.#.# #..# #..# #..# #..#
    #..# #..# #... #..# #... .#.. #..# #..# # .# #.#. #. #.#.# #..# #..# #..# #..#
    .### ###. .### .### .### .#.. .### #..# # .# #..# .# #.#.# #..# .##. ###. .###
    .... .... .... .... .... .... ...# .... . .# .... .. ..... .... .... #... ...#
    .... .... .... .... .... .... .##. .... . #. .... .. ..... .... .... #... ...#

    r    s    t   u    v     w     x     y    z
    .... .... ... .... ..... ..... ..... .... ....
    .... .... ... .... ..... ..... ..... .... ....
    .... .... ... .... ..... ..... ..... .... ....
    .... .... .#. .... ..... ..... ..... .... ....
    #.## .### ### #..# #...# #...# #...# #..# ####
    ##.. #... .#. #..# #...# #...# .#.#. #..# ..#.
    #... .##. .#. #..# .#.#. #.#.# ..#.. #..# .#..
    #... ...# .#. #..# .#.#. #.#.# .#.#. #..# #...
    #... ###. ..# .### ..#.. .#.#. #...# .### ####
    .... .... ... .... ..... ..... ..... ...# ....
    .... .... ... .... ..... ..... ..... .##. ....

    0     1     2     3     4     5     6     7     8     9
    ..... ..... ..... ..... ..... ..... ..... ..... ..... .....
    ..... ..... ..... ..... ..... ..... ..... ..... ..... .....
    .###. ..#.. .###. ##### ...#. ##### ..##. ##### .###. .###.
    #...# .##.. #...# ...#. ..##. #.... .#... ....# #...# #...#
    #..## ..#.. ....# ..#.. .#.#. ####. #.... ...#. #...# #...#
    #.#.# ..#.. ...#. ...#. #..#. ....# ####. ..#.. .###. .####
    ##..# ..#.. ..#.. ....# ##### ....# #...# .#... #...# ....#
    #...# ..#.. .#... #...# ...#. #...# #...# .#... #...# ...#.
    .###. .###. ##### .###. ...#. .###. .###. .#... .###. .##..
    ..... ..... ..... ..... ..... ..... ..... ..... ..... .....
    ..... ..... ..... ..... ..... ..... ..... ..... ..... .....

    ! "   #     $     %     &     ' (   )   *     +     ,  -    . /     : ;
    . ... ..... ..... ..... ..... . ... ... ..... ..... .. .... . ..... . ..
    . ... ..... ..... ..... ..... . ... ... ..... ..... .. .... . ..... . ..
    # #.# .#.#. ..#.. ##... .##.. # ..# #.. ..... ..... .. .... . ....# . ..
    # #.# .#.#. .#### ##..# #..#. # .#. .#. ..#.. ..#.. .. .... . ....# . ..
    # ... ##### #.#.. ...#. #.#.. . #.. ..# #.#.# ..#.. .. .... . ...#. . ..
    # ... .#.#. .###. ..#.. .#... . #.. ..# .###. ##### .. #### . ..#.. # .#
    # ... ##### ..#.# .#... #.#.# . #.. ..# #.#.# ..#.. .. .... . .#... . ..
    . ... .#.#. ####. #..## #..#. . .#. .#. ..#.. ..#.. .. .... . #.... . ..
    # ... .#.#. ..#.. ...## .##.# . ..# #.. ..... ..... .# .... # #.... # .#
    . ... ..... ..... ..... ..... . ... ... ..... ..... #. .... . ..... . #.
    . ... ..... ..... ..... ..... . ... ... ..... ..... .. .... . ..... . ..

    <    =     >    ?     @     [  \     ]  ^     _     `  {   | }   ~
    .... ..... .... ..... ..... .. ..... .. ..... ..... .. ... . ... .....
    .... ..... .... ..... ..... .. ..... .. ..... ..... .. ... . ... .....
    ...# ..... #... .###. .###. ## #.... ## ..#.. ..... #. ..# # #.. .....
    ..#. ..... .#.. #...# #...# #. #.... .# .#.#. ..... .# .#. # .#. .....
    .#.. ##### ..#. ....# #.### #. .#... .# #...# ..... .. .#. # .#. .#...
    #... ..... ...# ...#. #.#.# #. ..#.. .# ..... ..... .. #.. # ..# #.#.#
    .#.. ##### ..#. ..#.. #.### #. ...#. .# ..... ..... .. .#. # .#. ...#.
    ..#. ..... .#.. ..... #.... #. ....# .# ..... ..... .. .#. # .#. .....
    ...# ..... #... ..#.. .#### ## ....# ## ..... ..... .. ..# # #.. .....
    .... ..... .... ..... ..... .. ..... .. ..... ##### .. ... # ... .....
    .... ..... .... ..... ..... .. ..... .. ..... ..... .. ... . ... .....

    •    …     ©       °   €     £     · –     —       ‘  ’  “     ”
    .... ..... ....... ... ..... ..... . ..... ....... .. .. ..... .....
    .... ..... ....... ... ..... ..... . ..... ....... .. .. ..... .....
    .... ..... ..###.. .#. ..### ..##. . ..... ....... .# ## .#..# ##.##
    .... ..... .#...#. #.# .#... .#..# . ..... ....... ## #. ##.## #..#.
    .##. ..... #..##.# .#. ####. .#... . ..... ....... .. .. ..... .....
    #### ..... #.#...# ... .#... ####. # ##### ####### .. .. ..... .....
    #### ..... #..##.# ... ####. .#... . ..... ....... .. .. ..... .....
    .##. ..... .#...#. ... .#... .#... . ..... ....... .. .. ..... .....
    .... #.#.# ..###.. ... ..### ##### . ..... ....... .. .. ..... .....
    .... ..... ....... ... ..... ..... . ..... ....... .. .. ..... .....
    .... ..... ....... ... ..... ..... . ..... ....... .. .. ..... .....

    é    è    ê    à    â    ç    ô    ü    ö    ä    ñ
    .... .... .... .... .... .... .... .... .... .... ....
    ..#. .#.. .##. .#.. .##. .... .##. .... .... .... .#.#
    .#.. ..#. #..# ..#. #..# .... #..# #..# #..# #..# #.#.
    .... .... .... .... .... .... .... .... .... .... ....
    .##. .##. .##. .##. .##. .### .##. #..# .##. .##. ###.
    #..# #..# #..# ...# ...# #... #..# #..# #..# ...# #..#
    #### #### #### .### .### #... #..# #..# #..# .### #..#
    #... #... #... #..# #..# #... #..# #..# #..# #..# #..#
    .### .### .### .### .### .### .##. .### .##. .### #..#
    .... .... .... .... .... .#.. .... .... .... .... ....
    .... .... .... .... .... ##.. .... .... .... .... ....

    É     È     Ê     À     Â     Ç     Ô     Ü     Ö     Ä     Ñ
    ...#. .#... ..#.. .#... ..#.. ..... ..#.. .#.#. .#.#. .#.#. .#..#
    ..#.. ..#.. .#.#. ..#.. .#.#. ..... .#.#. ..... ..... ..... #.##.
    ..... ..... ..... ..... ..... .###. ..... #...# .###. .###. .....
    ##### ##### ##### .###. .###. #...# .###. #...# #...# #...# #...#
    #.... #.... #.... #...# #...# #.... #...# #...# #...# #...# ##..#
    ####. ####. ####. #...# #...# #.... #...# #...# #...# ##### #.#.#
    #.... #.... #.... ##### ##### #.... #...# #...# #...# #...# #..##
    #.... #.... #.... #...# #...# #...# #...# #...# #...# #...# #...#
    ##### ##### ##### #...# #...# .###. .###. .###. .###. #...# #...#
    ..... ..... ..... ..... ..... ..#.. ..... ..... ..... ..... .....
    ..... ..... ..... ..... ..... .##.. ..... ..... ..... ..... .....
    """#
}
