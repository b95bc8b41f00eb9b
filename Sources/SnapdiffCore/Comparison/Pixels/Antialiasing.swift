// Anti-aliasing detection after V. Vysniauskas, "Anti-aliased Pixel and Intensity Slope
// Detector" (2009), as pixelmatch v6 implements it.

/// Read access to one RGBA8 raster as little-endian 32-bit words.
struct PixelWords {
  let base: UnsafeRawPointer
  let width: Int
  let height: Int

  @inline(__always)
  subscript(x x: Int, y y: Int) -> UInt32 {
    base.loadUnaligned(fromByteOffset: (y &* width &+ x) &* 4, as: UInt32.self)
  }

  @inline(__always)
  subscript(index: Int) -> UInt32 {
    base.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self)
  }
}

/// Whether the pixel at (`x`, `y`) of `image` looks like anti-aliasing: among its 8 neighbours
/// there is both a darker and a brighter one, fewer than 3 are equal to it, and the darkest or
/// the brightest neighbour sits in a flat area (3+ equal neighbours) in both images.
@inline(__always)
func isAntialiased(_ image: PixelWords, x: Int, y: Int, other: PixelWords) -> Bool {
  let x0 = max(x - 1, 0)
  let y0 = max(y - 1, 0)
  let x2 = min(x + 1, image.width - 1)
  let y2 = min(y + 1, image.height - 1)
  let center = image[x: x, y: y]
  // A pixel on the border has one side that counts as equal.
  var zeroes = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
  var darkest = 0.0
  var brightest = 0.0
  var darkestX = 0
  var darkestY = 0
  var brightestX = 0
  var brightestY = 0

  // Columns outside, rows inside: pixelmatch's order, which decides ties between extremes.
  for nx in x0...x2 {
    for ny in y0...y2 {
      if nx == x && ny == y { continue }
      let delta = brightnessDelta(center, image[x: nx, y: ny])
      if delta == 0 {
        zeroes += 1
        // More than two equal neighbours: a flat area, not anti-aliasing.
        if zeroes > 2 { return false }
      } else if delta < darkest {
        darkest = delta
        darkestX = nx
        darkestY = ny
      } else if delta > brightest {
        brightest = delta
        brightestX = nx
        brightestY = ny
      }
    }
  }

  // Without both a darker and a brighter neighbour this is an edge, not a blend between two.
  if darkest == 0 || brightest == 0 { return false }

  // Anti-aliasing sits between two flat areas: the darkest or the brightest neighbour must be
  // flat in both images.
  return
    (hasManySiblings(image, x: darkestX, y: darkestY)
    && hasManySiblings(other, x: darkestX, y: darkestY))
    || (hasManySiblings(image, x: brightestX, y: brightestY)
      && hasManySiblings(other, x: brightestX, y: brightestY))
}

/// Whether the pixel at (`x`, `y`) has at least 3 neighbours of exactly its colour (a border
/// counting as one).
@inline(__always)
func hasManySiblings(_ image: PixelWords, x: Int, y: Int) -> Bool {
  let x0 = max(x - 1, 0)
  let y0 = max(y - 1, 0)
  let x2 = min(x + 1, image.width - 1)
  let y2 = min(y + 1, image.height - 1)
  let center = image[x: x, y: y]
  var zeroes = (x == x0 || x == x2 || y == y0 || y == y2) ? 1 : 0
  for nx in x0...x2 {
    for ny in y0...y2 {
      if nx == x && ny == y { continue }
      if image[x: nx, y: ny] == center { zeroes += 1 }
      if zeroes > 2 { return true }
    }
  }
  return false
}
