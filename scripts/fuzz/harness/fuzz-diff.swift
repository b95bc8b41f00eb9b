// libFuzzer harness: the diff engine (`PixelDiff`) on two small images made from the input,
// with options from the input (threshold, includeAA, alpha, diff mask, ignore regions with
// extreme coordinates, match level exact / strict / ignore-colors / layout, tolerances), both
// counting only and drawing.
//
// Checks: counting and drawing agree; the diff image is max(width) × max(height); the tallies
// add up; `identical` means equal pixels; `exact` counts every differing pixel not ignored;
// regions lie inside the image.
import SnapdiffCore

// `DiffFuzzInput` (the images and options made from the input) is
// Tests/SnapdiffCoreTests/Support/DiffFuzzInput.swift, shared with the regression tests.

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
