// libFuzzer harness: the `perceptual` and `text-aware` match levels (`FrameComparison`) on two
// small frames made from the input: images up to 24×24, a ΔE00 threshold, and element trees
// derived from the input (static texts, buttons, fields, images, switches, containers; labels
// and values from a few strings; frames from ordinary to the decoder's extremes, ±100,000
// points; one level of nesting), the current tree a copy of the baseline's with elements
// relabelled, moved by a fraction of a point, retyped or removed.
//
// Checks, each true by construction of the levels:
// - counting and drawing agree (the same result, the same text and layout changes);
// - the tallies add up to at most the pixels, the union of both sizes;
// - identical images with identical trees (or none) pass both levels, with no change reported:
//   no byte differs, so no ΔE does, and a tree compared with itself has no change;
// - at `perceptual`, pixels counted (different or anti-aliased) are pixels whose bytes differ:
//   ΔE00 is only computed where they do (untagged images: no colour conversion);
// - `text-aware` counts at most the pixels `perceptual` counts: it is `perceptual` with the
//   text boxes added as ignore regions;
// - without both trees `text-aware` is `perceptual`, result for result;
// - at `text-aware` a reported text or layout change fails, and its box lies inside both images.
import SnapdiffCore

struct LevelsFuzzInput {
  var baseline: Frame
  var current: Frame
  var deltaE: Double
  var includeAA: Bool

  /// Coordinates in points: ordinary, fractional (half a pixel at 2×, a third at 3×), off
  /// screen and the decoder's limits.
  static let coordinates: [Double] = [
    0, 0.25, 0.5, 1, 1.5, 2, 3, 4, 5, 7.75, 8, 12, 1.0 / 3, 2.0 / 3, -1, -0.5, -12, 16, 24,
    100_000, -100_000, 99_999.5, 50_000,
  ]
  static let sizes: [Double] = [0, 0.25, 0.5, 1, 1.5, 2, 3, 4, 5, 7.75, 8, 12, 1.0 / 3, 16, 24, 100_000, 99_999.5]
  static let types: [ElementType] = [.staticText, .button, .textField, .image, .switch, .other, .link, .cell]
  static let labels = ["", "A", "AB", "Total", "Total ", "é", "ab\u{301}"]

  init(_ bytes: [UInt8]) {
    var position = 0
    func next() -> UInt8 {
      defer { position += 1 }
      return position < bytes.count ? bytes[position] : 0
    }
    let control = next()
    let width = Int(next() % 25)
    let height = Int(next() % 25)
    let sameSize = control & 1 == 0
    let currentWidth = sameSize ? width : Int(next() % 25)
    let currentHeight = sameSize ? height : Int(next() % 25)
    let scale = [1, 2, 3][Int(next()) % 3]
    deltaE = Double(next()) / 16
    includeAA = control & 2 != 0

    // The baseline's elements, then the current's as changed copies.
    var elements: [(element: Element, nested: Bool)] = []
    for _ in 0..<Int(next() % 7) {
      let type = Self.types[Int(next()) % Self.types.count]
      let label = Self.labels[Int(next()) % Self.labels.count]
      let value: String? = next() & 1 == 0 ? nil : Self.labels[Int(next()) % Self.labels.count]
      let frame = ElementFrame(
        x: Self.coordinates[Int(next()) % Self.coordinates.count],
        y: Self.coordinates[Int(next()) % Self.coordinates.count],
        width: Self.sizes[Int(next()) % Self.sizes.count], height: Self.sizes[Int(next()) % Self.sizes.count])
      elements.append((Element(elementType: type, label: label, value: value, frame: frame), next() & 1 == 1))
    }
    var changed: [(element: Element, nested: Bool)] = []
    for (element, nested) in elements {
      var copy = element
      let mutation = next()
      switch mutation {
      case 0..<160: break
      case 160..<192: copy.label = Self.labels[Int(next()) % Self.labels.count]
      case 192..<224:
        // A fraction of a point each way: about the text-aware level's half-pixel tolerance.
        copy.frame.x += (Double(next()) - 128) / 64
        copy.frame.y += (Double(next()) - 128) / 64
      case 224..<240: continue
      default: copy.elementType = Self.types[Int(next()) % Self.types.count]
      }
      changed.append((copy, nested))
    }
    let treeMode = (control >> 2) & 3

    var a = [UInt8]()
    for _ in 0..<(width * height) { a += [next(), next(), next(), next()] }
    // The current image copies the baseline where a control byte says so (anti-aliasing
    // detection and the text comparison's ink need mostly equal neighbourhoods).
    var b = [UInt8]()
    for y in 0..<currentHeight {
      for x in 0..<currentWidth {
        if next() < 160, x < width, y < height {
          let offset = (y * width + x) * 4
          b += a[offset..<offset + 4]
        } else {
          b += [next(), next(), next(), next()]
        }
      }
    }
    func tree(_ elements: [(element: Element, nested: Bool)], _ w: Int, _ h: Int) -> ElementTree {
      // A nested element goes inside the one before it (one level), as a button's text would.
      var children: [Element] = []
      for (element, nested) in elements {
        if nested, !children.isEmpty { children[children.count - 1].children.append(element) } else { children.append(element) }
      }
      let screen = ElementTree.Size(width: Double(w) / Double(scale), height: Double(h) / Double(scale))
      let root = Element(
        elementType: .application, frame: ElementFrame(x: 0, y: 0, width: screen.width, height: screen.height),
        children: children)
      return ElementTree(scale: scale, screen: screen, root: root)
    }
    baseline = Frame(
      image: RGBAImage(width: width, height: height, pixels: a),
      tree: treeMode == 0 ? nil : tree(elements, width, height), path: "baseline")
    current = Frame(
      image: RGBAImage(width: currentWidth, height: currentHeight, pixels: b),
      tree: treeMode < 2 ? nil : tree(treeMode == 3 ? changed : elements, currentWidth, currentHeight), path: "current")
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = LevelsFuzzInput(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
  let (a, b) = (input.baseline, input.current)
  var options = DiffOptions()
  options.deltaE = input.deltaE
  options.includeAA = input.includeAA

  var outcomes: [MatchLevel: FrameComparison.Outcome] = [:]
  for level in [MatchLevel.perceptual, .textAware] {
    let comparison = FrameComparison(options: options, matchLevel: level)
    let counted = try! comparison.compare(a, b)
    let drawn = try! comparison.compare(a, b, drawing: true)
    precondition(counted.result == drawn.result, "\(level): counting and drawing disagree")
    precondition(counted.passed == drawn.passed && counted.text == drawn.text && counted.layout == drawn.layout)
    let result = counted.result
    let total = max(a.image.width, b.image.width) * max(a.image.height, b.image.height)
    precondition(result.totalPixels == total)
    precondition(result.differentPixels + result.antialiasedPixels + result.ignoredPixels <= total, "\(level): more tallied than pixels")
    if a.image == b.image && a.tree == b.tree {
      precondition(counted.passed && result.differentPixels == 0, "\(level): identical frames fail")
      precondition((counted.text ?? []).isEmpty && (counted.layout ?? []).isEmpty, "\(level): identical frames change")
    }
    outcomes[level] = counted
  }
  let perceptual = outcomes[.perceptual]!
  let textAware = outcomes[.textAware]!
  if a.image.size == b.image.size {
    var differing = 0
    for index in 0..<a.image.pixelCount where a.image.pixels[index * 4..<index * 4 + 4] != b.image.pixels[index * 4..<index * 4 + 4] {
      differing += 1
    }
    precondition(
      perceptual.result.differentPixels + perceptual.result.antialiasedPixels <= differing,
      "perceptual counts pixels whose bytes are equal")
  }
  precondition(
    textAware.result.differentPixels <= perceptual.result.differentPixels,
    "text-aware counts more than perceptual (\(textAware.result.differentPixels) > \(perceptual.result.differentPixels))")
  if a.tree == nil || b.tree == nil {
    precondition(textAware.result == perceptual.result && textAware.passed == perceptual.passed, "text-aware without trees is not perceptual")
    precondition(textAware.text == nil)
  }
  if !(textAware.text ?? []).isEmpty || !(textAware.layout ?? []).isEmpty {
    precondition(!textAware.passed, "text-aware passes a reported change")
  }
  let overlap = (min(a.image.width, b.image.width), min(a.image.height, b.image.height))
  for change in textAware.text ?? [] {
    let box = change.box
    precondition(
      box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0 && box.maxX <= overlap.0 && box.maxY <= overlap.1,
      "text box \(box) outside the images")
  }
  return 0
}
