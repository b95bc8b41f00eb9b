import SnapdiffCore

/// A small screen drawn the way a renderer does: rectangles at fractional positions, each pixel
/// coloured by how much of it a rectangle covers (box-filter anti-aliasing). Moving a rectangle
/// by a fraction of a pixel re-blends its edges, as a new OS or simulator re-rasterises glyphs.
struct RenderedScreen {
  /// A rectangle in pixels, at fractional coordinates.
  struct Shape {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var color: RGBAColor
  }

  var width = 160
  var height = 100
  var background = RGBAColor(red: 255, green: 255, blue: 255)
  var shapes: [Shape] = []

  /// A word: five 2-px strokes of glyph height `height`, 5 px apart, from (`x`, `y`).
  static func word(
    x: Double, y: Double, height: Double = 10, color: RGBAColor = RGBAColor(red: 30, green: 30, blue: 30)
  )
    -> [Shape]
  {
    (0..<5).flatMap { letter -> [Shape] in
      let left = x + Double(letter) * 7
      return [
        Shape(x: left, y: y, width: 2, height: height, color: color),
        Shape(x: left, y: y + height / 2 - 1, width: 5, height: 2, color: color),
      ]
    }
  }

  /// The screen with every shape moved by (`dx`, `dy`) pixels.
  func moved(dx: Double, dy: Double, where include: (Shape) -> Bool = { _ in true }) -> RenderedScreen {
    var copy = self
    copy.shapes = shapes.map { shape in
      guard include(shape) else { return shape }
      var moved = shape
      moved.x += dx
      moved.y += dy
      return moved
    }
    return copy
  }

  /// The screen as another OS or simulator renders the rest of it: the button's fill (the
  /// shape 40 px wide) one level darker, a shade re-blended under every threshold. A re-render
  /// leaves such traces, so a line moved with them is not the pair's only difference
  /// (`MovedElements.loneMove`).
  func reRendered() -> RenderedScreen {
    var copy = self
    copy.shapes = shapes.map { shape in
      guard shape.width == 40 else { return shape }
      var shape = shape
      shape.color = RGBAColor(
        red: shape.color.red.saturatingDecrement, green: shape.color.green.saturatingDecrement,
        blue: shape.color.blue.saturatingDecrement)
      return shape
    }
    return copy
  }

  func image() -> RGBAImage {
    var image = RGBAImage(width: width, height: height, filledWith: background)
    for shape in shapes {
      let left = max(Int(shape.x.rounded(.down)), 0)
      let right = min(Int((shape.x + shape.width).rounded(.up)), width)
      let top = max(Int(shape.y.rounded(.down)), 0)
      let bottom = min(Int((shape.y + shape.height).rounded(.up)), height)
      guard left < right, top < bottom else { continue }
      for y in top..<bottom {
        let coverY = min(Double(y + 1), shape.y + shape.height) - max(Double(y), shape.y)
        for x in left..<right {
          let coverX = min(Double(x + 1), shape.x + shape.width) - max(Double(x), shape.x)
          let cover = max(0, min(1, coverX * coverY))
          let under = image[x: x, y: y]
          func blend(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) * (1 - cover) + Double(b) * cover).rounded())
          }
          image[x: x, y: y] = RGBAColor(
            red: blend(under.red, shape.color.red), green: blend(under.green, shape.color.green),
            blue: blend(under.blue, shape.color.blue))
        }
      }
    }
    return image
  }

  /// A list screen: a title, three rows of words, a divider under each row, and a button.
  static func list() -> RenderedScreen {
    var screen = RenderedScreen()
    screen.shapes += word(x: 60, y: 6)  // the navigation title
    for row in 0..<3 {
      let y = 28 + Double(row) * 22
      screen.shapes += word(x: 16, y: y)
      screen.shapes += word(x: 60, y: y, height: 8, color: RGBAColor(red: 120, green: 120, blue: 120))
      screen.shapes.append(
        Shape(x: 16, y: y + 16, width: 144, height: 1, color: RGBAColor(red: 200, green: 200, blue: 204)))
    }
    screen.shapes.append(Shape(x: 110, y: 30, width: 40, height: 10, color: RGBAColor(red: 0, green: 122, blue: 255)))
    return screen
  }
}

extension UInt8 {
  fileprivate var saturatingDecrement: UInt8 { self == 0 ? 0 : self - 1 }
}
