// The YIQ colour distance of Kotsarenko & Ramos, "Measuring perceived color difference using
// YIQ NTSC transmission color space in mobile applications" (2010), as pixelmatch v6 computes it:
// semi-transparent pixels are first blended over white. Operation order follows pixelmatch's
// JavaScript so that the doubles, and so the counts, are the same.

/// The largest `colorDelta` there is: black against white.
let maxYIQDelta = 35215.0

@inline(__always)
func rgb2y(_ r: Double, _ g: Double, _ b: Double) -> Double {
  r * 0.29889531 + g * 0.58662247 + b * 0.11448223
}

@inline(__always)
func rgb2i(_ r: Double, _ g: Double, _ b: Double) -> Double {
  r * 0.59597799 - g * 0.27417610 - b * 0.32180189
}

@inline(__always)
func rgb2q(_ r: Double, _ g: Double, _ b: Double) -> Double {
  r * 0.21147017 - g * 0.52261711 + b * 0.31114694
}

/// `c` blended with white at opacity `a` (0...1).
@inline(__always)
func blendWithWhite(_ c: Double, _ a: Double) -> Double {
  255 + (c - 255) * a
}

/// A pixel's channels as doubles, blended over white when it is not opaque.
@inline(__always)
func channels(_ pixel: UInt32) -> (r: Double, g: Double, b: Double) {
  var r = Double(pixel & 0xff)
  var g = Double((pixel >> 8) & 0xff)
  var b = Double((pixel >> 16) & 0xff)
  let a = pixel >> 24
  if a < 255 {
    let opacity = Double(a) / 255
    r = blendWithWhite(r, opacity)
    g = blendWithWhite(g, opacity)
    b = blendWithWhite(b, opacity)
  }
  return (r, g, b)
}

/// Squared YIQ distance between two pixels (little-endian RGBA words); negative when the second
/// is darker than the first, 0 when they are equal.
@inline(__always)
func colorDelta(_ first: UInt32, _ second: UInt32) -> Double {
  if first == second { return 0 }
  let (r1, g1, b1) = channels(first)
  let (r2, g2, b2) = channels(second)
  let y1 = rgb2y(r1, g1, b1)
  let y2 = rgb2y(r2, g2, b2)
  let y = y1 - y2
  let i = rgb2i(r1, g1, b1) - rgb2i(r2, g2, b2)
  let q = rgb2q(r1, g1, b1) - rgb2q(r2, g2, b2)
  let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
  // The sign says which way the brightness moved.
  return y1 > y2 ? -delta : delta
}

/// Brightness (Y) difference only, as the anti-aliasing detector uses it.
@inline(__always)
func brightnessDelta(_ first: UInt32, _ second: UInt32) -> Double {
  if first == second { return 0 }
  let (r1, g1, b1) = channels(first)
  let (r2, g2, b2) = channels(second)
  return rgb2y(r1, g1, b1) - rgb2y(r2, g2, b2)
}

/// The `exact` match level's delta: infinite for any differing word (so above every
/// threshold), negative when the second pixel is darker.
@inline(__always)
func exactDelta(_ first: UInt32, _ second: UInt32) -> Double {
  if first == second { return 0 }
  return brightnessDelta(first, second) > 0 ? -.infinity : .infinity
}

/// The `ignore-colors` match level's delta: the brightness term of the YIQ distance alone,
/// on the same scale (black against white is 0.5053 × 255², about 32857 of 35215).
@inline(__always)
func luminanceDelta(_ first: UInt32, _ second: UInt32) -> Double {
  let y = brightnessDelta(first, second)
  let delta = 0.5053 * y * y
  return y > 0 ? -delta : delta
}

/// The faded-gray value pixelmatch draws for an unchanged pixel: its brightness blended with
/// white at `alpha` times its own opacity, truncated as a JavaScript `Uint8Array` store truncates.
@inline(__always)
func grayValue(_ pixel: UInt32, alpha: Double) -> UInt8 {
  let r = Double(pixel & 0xff)
  let g = Double((pixel >> 8) & 0xff)
  let b = Double((pixel >> 16) & 0xff)
  let a = Double(pixel >> 24)
  let value = blendWithWhite(rgb2y(r, g, b), alpha * a / 255)
  return UInt8(truncatingIfNeeded: Int(value))
}
