import SnapdiffCore

/// Two images and diff options made from fuzz bytes: the input of the `fuzz-diff` harness
/// (scripts/fuzz/build.sh compiles this file into it) and of `FuzzRegressionTests`, which
/// replays its saved `diff-*` inputs, so both read the bytes the same way.
struct DiffFuzzInput {
  var baseline: RGBAImage
  var current: RGBAImage
  var options = DiffOptions()

  /// Ignore-region coordinates, from ordinary to hostile (a settings file may hold any Int).
  static let coordinates = [
    0, 1, 2, 3, 5, 8, 13, 16, 17, -1, -3, -100, 1 << 20, Int.max, Int.min, Int.max / 2,
    Int.min / 2, Int.max - 1, -(1 << 40), 1 << 40,
  ]

  init(_ bytes: [UInt8]) {
    var position = 0
    func next() -> UInt8 {
      defer { position += 1 }
      return position < bytes.count ? bytes[position] : 0
    }
    func pixel() -> [UInt8] { [next(), next(), next(), next()] }
    let control = next()
    let width = Int(next() % 17)
    let height = Int(next() % 17)
    let sameSize = control & 1 == 0
    let currentWidth = sameSize ? width : Int(next() % 17)
    let currentHeight = sameSize ? height : Int(next() % 17)

    options.threshold = Double(next()) / 255
    options.includeAA = control & 2 != 0
    options.diffMask = control & 4 != 0
    options.alpha = Double(next()) / 255
    options.matchLevel = [.exact, .strict, .ignoreColors, .layout][Int(control >> 3) % 4]
    options.diffColorAlt = control & 0x20 != 0 ? RGBAColor(red: 0, green: 255, blue: 0) : nil
    options.maxDiffPixels = Int(next())
    options.maxDiffRatio = Double(next()) / 255
    for _ in 0..<Int(next() % 4) {
      let c = Self.coordinates
      options.ignoreRegions.append(
        PixelRect(
          x: c[Int(next()) % c.count], y: c[Int(next()) % c.count],
          width: c[Int(next()) % c.count], height: c[Int(next()) % c.count]))
    }

    // The current image copies the baseline where a control byte says so (anti-aliasing
    // detection needs mostly equal neighbourhoods), else takes new bytes.
    var a = [UInt8]()
    for _ in 0..<(width * height) { a += pixel() }
    var b = [UInt8]()
    for y in 0..<currentHeight {
      for x in 0..<currentWidth {
        if next() < 160, x < width, y < height {
          let offset = (y * width + x) * 4
          b += a[offset..<offset + 4]
        } else {
          b += pixel()
        }
      }
    }
    baseline = RGBAImage(width: width, height: height, pixels: a)
    current = RGBAImage(width: currentWidth, height: currentHeight, pixels: b)
  }
}
