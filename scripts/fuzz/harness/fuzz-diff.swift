// libFuzzer harness: the diff engine (`PixelDiff`) on two small images made from the input,
// with options from the input (threshold, includeAA, alpha, diff mask, ignore regions with
// extreme coordinates, match level exact / strict / ignore-colors / layout, tolerances), both
// counting only and drawing.
//
// Checks: counting and drawing agree; the diff image is max(width) × max(height); the tallies
// add up; `identical` means equal pixels; `exact` counts every differing pixel not ignored;
// regions lie inside the image.
import SnapdiffCore

/// Two images and diff options made from fuzz bytes. Tests/SnapdiffCoreTests/
/// FuzzRegressionTests.swift holds a copy, to replay the `diff-*` inputs there: change both.
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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = DiffFuzzInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
  let (a, b, options) = (input.baseline, input.current, input.options)
  let (width, height) = (a.width, a.height)
  let (currentWidth, currentHeight) = (b.width, b.height)
  let (baseline, current) = (a.pixels, b.pixels)

  let diff = PixelDiff(options: options)
  let counted = diff.compare(a, b)
  let (drawn, image) = diff.compareDrawingDiff(a, b)
  precondition(counted == drawn, "counting and drawing disagree")
  let fullWidth = max(width, currentWidth)
  let fullHeight = max(height, currentHeight)
  precondition(image.width == fullWidth && image.height == fullHeight)
  precondition(counted.totalPixels == fullWidth * fullHeight)
  precondition(
    counted.differentPixels + counted.antialiasedPixels + counted.ignoredPixels
      <= counted.totalPixels,
    "more tallied pixels than pixels")
  precondition(counted.identical == (a == b), "identical is wrong")
  if counted.identical { precondition(counted.differentPixels == 0 && counted.regions.isEmpty) }
  precondition(counted.regions.count <= 10)
  for region in counted.regions {
    precondition(
      region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
        && region.maxX <= fullWidth && region.maxY <= fullHeight, "region \(region) outside")
  }
  if options.matchLevel == .exact && a.size == b.size {
    var differing = 0
    for index in 0..<(width * height)
    where baseline[index * 4..<index * 4 + 4] != current[index * 4..<index * 4 + 4] {
      differing += 1
    }
    precondition(
      counted.differentPixels + counted.ignoredPixels == differing, "exact misses pixels")
    precondition(counted.antialiasedPixels == 0)
  }
  if options.ignoreRegions.isEmpty { precondition(counted.ignoredPixels == 0) }
  return 0
}
