// libFuzzer harness: the element-tree JSON parser (`ElementTree.decode`).
//
// Any input must either be refused with a `ConfigurationError` naming the file, or give a tree
// that honours the format's limits (scale 1–3, a screen within 0–100000 points, frames finite,
// within ±100000, no negative size, at most 200 levels and 100,000 elements), encodes, and
// decodes back to itself. Every tree is layout-compared with itself (pairing is near-linear,
// whatever the tree); small ones are also rendered.
import SnapdiffCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let tree: ElementTree
  do {
    tree = try ElementTree.decode(bytes, path: "fuzz.tree.json")
  } catch let error as ConfigurationError {
    precondition("\(error)".hasPrefix("fuzz.tree.json: not a valid element tree"), "\(error)")
    return 0
  } catch {
    preconditionFailure("not a ConfigurationError: \(error)")
  }
  checkLimits(tree)
  let encoded = try! tree.encoded()
  let again = try! ElementTree.decode(encoded, path: "encoded.tree.json")
  precondition(again == tree, "a tree does not survive encoding")

  let elements = tree.root.allElements()
  for element in elements { _ = element.frame.pixels(scale: tree.scale) }
  precondition(
    LayoutComparison().changes(from: tree, to: tree).isEmpty, "a tree differs from itself")
  // Render small screens only (a fuzzed screen may be 300000 px wide).
  if tree.pixelSize.area <= 128 * 128 && elements.count <= 64 {
    let image = ElementRenderer().render(tree)
    precondition(image.size == tree.pixelSize)
  }
  return 0
}

func checkLimits(_ tree: ElementTree) {
  precondition([1, 2, 3].contains(tree.scale))
  for value in [tree.screen.width, tree.screen.height] {
    precondition(value > 0 && value <= ElementFrame.maximumExtent, "screen \(tree.screen)")
  }
  for element in tree.root.allElements() {
    let frame = element.frame
    for value in [frame.x, frame.y, frame.width, frame.height] {
      precondition(value.isFinite && abs(value) <= ElementFrame.maximumExtent, "frame \(frame)")
    }
    precondition(frame.width >= 0 && frame.height >= 0, "frame \(frame)")
  }
  let (depth, count) = tree.measurements
  precondition(depth <= ElementTree.maximumDepth && count <= ElementTree.maximumElementCount)
}
