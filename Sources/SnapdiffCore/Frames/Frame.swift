/// What a comparison compares: pixels, and optionally the element tree that describes them.
///
/// A frame comes from a PNG screenshot (with `<name>.tree.json` beside it when there is one),
/// or from a tree alone (`<name>.tree.json`), rendered.
public struct Frame: Sendable {
  public var image: RGBAImage
  public var tree: ElementTree?
  /// Where it came from, for messages.
  public var path: String

  public init(image: RGBAImage, tree: ElementTree?, path: String) {
    self.image = image
    self.tree = tree
    self.path = path
  }

  /// Whether `path` names an element tree rather than a PNG.
  public static func isTree(_ path: String) -> Bool {
    path.lowercased().hasSuffix(".json") || path.lowercased().hasSuffix(".txt")
  }

  /// The tree file that belongs to the PNG at `pngPath`: `shot.png` → `shot.tree.json`.
  public static func treePath(besidePNG pngPath: String) -> String {
    (pngPath.lowercased().hasSuffix(".png") ? String(pngPath.dropLast(4)) : pngPath) + ".tree.json"
  }

  /// Loads a frame: a tree file is rendered; a PNG is decoded and picks up its tree.
  ///
  /// - Throws: `FileError`, `PNGError` or `ConfigurationError` naming the file.
  public static func load(
    _ path: String, decoder: PNGDecoder = PNGDecoder(), renderer: ElementRenderer = ElementRenderer()
  ) throws -> Frame {
    if isTree(path) {
      let tree = try ElementTree.load(anyFormat: path)
      let size = tree.pixelSize
      if size.width * size.height > decoder.maxPixels {
        throw PNGError(kind: .tooLarge, path: path, message: "the tree renders to \(size), over the pixel limit")
      }
      return Frame(image: renderer.render(tree), tree: tree, path: path)
    }
    let image = try decoder.decode(contentsOf: path)
    let treeFile = treePath(besidePNG: path)
    let tree = FileSystem.isFile(treeFile) ? try ElementTree.load(treeFile) : nil
    return Frame(image: image, tree: tree, path: path)
  }
}
