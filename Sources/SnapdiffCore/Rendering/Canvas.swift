/// Integer drawing on an opaque RGBA raster: the renderer's primitives. No floating point, so
/// the same calls give the same bytes on every machine.
struct Canvas {
  private(set) var image: RGBAImage
  var bounds: PixelRect { PixelRect(x: 0, y: 0, width: image.width, height: image.height) }

  init(width: Int, height: Int, background: RGBAColor) {
    image = RGBAImage(width: width, height: height, filledWith: background)
  }

  /// Blends `color` over the pixel at (`x`, `y`) with `coverage` sixteenths of its alpha.
  @inline(__always)
  mutating func blend(x: Int, y: Int, _ color: RGBAColor, coverage: Int = 16) {
    let alpha = Int(color.alpha) * coverage / 16
    guard alpha > 0 else { return }
    let offset = (y * image.width + x) * 4
    if alpha >= 255 {
      image.pixels[offset] = color.red
      image.pixels[offset + 1] = color.green
      image.pixels[offset + 2] = color.blue
      image.pixels[offset + 3] = 255
      return
    }
    func mix(_ source: UInt8, _ destination: UInt8) -> UInt8 {
      UInt8((Int(source) * alpha + Int(destination) * (255 - alpha) + 127) / 255)
    }
    image.pixels[offset] = mix(color.red, image.pixels[offset])
    image.pixels[offset + 1] = mix(color.green, image.pixels[offset + 1])
    image.pixels[offset + 2] = mix(color.blue, image.pixels[offset + 2])
    image.pixels[offset + 3] = 255
  }

  /// Fills `rect`, clipped to `clip`.
  mutating func fill(_ rect: PixelRect, _ color: RGBAColor, clip: PixelRect) {
    let area = intersection(rect, clip)
    guard !area.isEmpty else { return }
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX { blend(x: x, y: y, color) }
    }
  }

  /// Fills a rectangle with rounded corners of `radius` pixels; corner pixels get coverage
  /// from a 4×4 sample grid, so edges are smooth and exact.
  mutating func fillRounded(_ rect: PixelRect, radius: Int, _ color: RGBAColor, clip: PixelRect) {
    let radius = max(0, min(radius, min(rect.width, rect.height) / 2))
    guard radius > 0 else { return fill(rect, color, clip: clip) }
    let area = intersection(rect, clip)
    guard !area.isEmpty else { return }
    // Work in quarter pixels: a sample at (4x + i + 0.5) is (8x + 2i + 1) / 8.
    let r8 = radius * 8
    let left8 = (rect.x + radius) * 8
    let right8 = (rect.maxX - radius) * 8
    let top8 = (rect.y + radius) * 8
    let bottom8 = (rect.maxY - radius) * 8
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX {
        let inCorner =
          (x < rect.x + radius || x >= rect.maxX - radius) && (y < rect.y + radius || y >= rect.maxY - radius)
        guard inCorner else {
          blend(x: x, y: y, color)
          continue
        }
        var covered = 0
        for i in 0..<4 {
          for j in 0..<4 {
            let sx = x * 8 + 2 * i + 1
            let sy = y * 8 + 2 * j + 1
            let cx = min(max(sx, left8), right8)
            let cy = min(max(sy, top8), bottom8)
            let dx = sx - cx
            let dy = sy - cy
            if dx * dx + dy * dy <= r8 * r8 { covered += 1 }
          }
        }
        blend(x: x, y: y, color, coverage: covered)
      }
    }
  }

  /// Draws the outline of `rect`, `width` pixels thick, inside it.
  mutating func stroke(_ rect: PixelRect, width: Int, _ color: RGBAColor, clip: PixelRect) {
    let w = max(1, width)
    fill(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: w), color, clip: clip)
    fill(PixelRect(x: rect.x, y: rect.maxY - w, width: rect.width, height: w), color, clip: clip)
    fill(PixelRect(x: rect.x, y: rect.y + w, width: w, height: rect.height - 2 * w), color, clip: clip)
    fill(PixelRect(x: rect.maxX - w, y: rect.y + w, width: w, height: rect.height - 2 * w), color, clip: clip)
  }

  /// A rounded outline: the rounded shape minus a smaller one inside it, in two colours.
  mutating func strokeRounded(
    _ rect: PixelRect, radius: Int, width: Int, _ color: RGBAColor, fill inner: RGBAColor, clip: PixelRect
  ) {
    fillRounded(rect, radius: radius, color, clip: clip)
    let inset = PixelRect(
      x: rect.x + width, y: rect.y + width, width: rect.width - 2 * width, height: rect.height - 2 * width)
    fillRounded(inset, radius: max(0, radius - width), inner, clip: clip)
  }

  /// Diagonal hatching every `spacing` pixels: the placeholder of an image.
  mutating func hatch(_ rect: PixelRect, spacing: Int, lineWidth: Int, _ color: RGBAColor, clip: PixelRect) {
    let area = intersection(rect, clip)
    guard !area.isEmpty else { return }
    let period = max(2, spacing)
    for y in area.y..<area.maxY {
      for x in area.x..<area.maxX where ((x - rect.x) + (y - rect.y)) % period < lineWidth {
        blend(x: x, y: y, color)
      }
    }
  }

  /// Gives other drawing code (text) the raster to draw into.
  mutating func withImage(_ body: (inout RGBAImage) -> Void) {
    body(&image)
  }

  func intersection(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
    let left = max(a.x, b.x)
    let top = max(a.y, b.y)
    let right = min(a.maxX, b.maxX)
    let bottom = min(a.maxY, b.maxY)
    return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
  }
}
