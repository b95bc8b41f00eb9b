/// A small picture of a screenshot for a card: the image scaled down to fit `maxWidth` ×
/// `maxHeight` (an average over each source block, so thin text and 1-px lines fade instead of
/// vanishing or aliasing), with changed regions outlined when asked. The review page's cards
/// (`snapdiff serve`) and an exported report's (`snapdiff report --out`) are made here. A phone
/// screenshot of 1170×2532 pixels (about 700 KiB as PNG) becomes about 15 KiB.
///
/// ```swift
/// let small = Thumbnail.make(of: image, outlining: snapshot.regions)
/// try FileIO.writeAtomically(try PNGEncoder(speed: .fast).encode(small), to: path)
/// ```
public enum Thumbnail {
  public static let maxWidth = 240
  public static let maxHeight = 480

  /// `image` scaled down (`scaledDown`), `regions` (source pixels) outlined on it.
  public static func make(of image: RGBAImage, outlining regions: [PixelRect] = []) -> RGBAImage {
    var small = scaledDown(image)
    outline(regions, in: &small, scale: Double(small.width) / Double(max(image.width, 1)))
    return small
  }

  /// `image` fitted into `maxWidth`×`maxHeight` (never enlarged): each target pixel the mean of
  /// the source pixels it covers.
  public static func scaledDown(_ image: RGBAImage) -> RGBAImage {
    let scale = max(1, Double(image.width) / Double(maxWidth), Double(image.height) / Double(maxHeight))
    if scale == 1 { return image }
    let width = max(1, Int((Double(image.width) / scale).rounded()))
    let height = max(1, Int((Double(image.height) / scale).rounded()))
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    image.pixels.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        for ty in 0..<height {
          let y0 = ty * image.height / height
          let y1 = max(y0 + 1, (ty + 1) * image.height / height)
          for tx in 0..<width {
            let x0 = tx * image.width / width
            let x1 = max(x0 + 1, (tx + 1) * image.width / width)
            var sums: (Int, Int, Int, Int) = (0, 0, 0, 0)
            for y in y0..<y1 {
              var offset = (y &* image.width &+ x0) &* 4
              for _ in x0..<x1 {
                sums.0 &+= Int(source[offset])
                sums.1 &+= Int(source[offset &+ 1])
                sums.2 &+= Int(source[offset &+ 2])
                sums.3 &+= Int(source[offset &+ 3])
                offset &+= 4
              }
            }
            let count = (y1 - y0) * (x1 - x0)
            let out = (ty &* width &+ tx) &* 4
            target[out] = UInt8(sums.0 / count)
            target[out &+ 1] = UInt8(sums.1 / count)
            target[out &+ 2] = UInt8(sums.2 / count)
            target[out &+ 3] = UInt8(sums.3 / count)
          }
        }
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }

  /// Outlines each region (scaled by `scale`) with a 2-px box, grown by a pixel so that it
  /// surrounds the change rather than covering it; the viewer's boxes have the same colour.
  public static func outline(_ regions: [PixelRect], in image: inout RGBAImage, scale: Double) {
    let color = RGBAColor(red: 255, green: 45, blue: 85)
    for region in regions {
      let left = Int((Double(region.x) * scale).rounded(.down)) - 2
      let top = Int((Double(region.y) * scale).rounded(.down)) - 2
      let right = Int((Double(region.x + region.width) * scale).rounded(.up)) + 1
      let bottom = Int((Double(region.y + region.height) * scale).rounded(.up)) + 1
      for y in top...bottom where y >= 0 && y < image.height {
        for x in left...right where x >= 0 && x < image.width {
          let edge = y < top + 2 || y > bottom - 2 || x < left + 2 || x > right - 2
          if edge { image[x: x, y: y] = color }
        }
      }
    }
  }
}
