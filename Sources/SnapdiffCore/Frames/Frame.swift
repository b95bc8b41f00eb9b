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
    stem(of: pngPath) + ".tree.json"
  }

  /// The XCUITest dump that may stand beside the PNG at `pngPath` instead of a tree:
  /// `shot.png` → `shot.txt` (`XCUIApplication().debugDescription`, as any runner can save it).
  public static func dumpPath(besidePNG pngPath: String) -> String {
    stem(of: pngPath) + ".txt"
  }

  /// The tree file beside the PNG at `pngPath`, if there is one: `shot.tree.json`, else `shot.txt`.
  public static func treeFile(besidePNG pngPath: String) -> String? {
    [treePath(besidePNG: pngPath), dumpPath(besidePNG: pngPath)].first(where: FileSystem.isFile)
  }

  private static func stem(of pngPath: String) -> String {
    pngPath.lowercased().hasSuffix(".png") ? String(pngPath.dropLast(4)) : pngPath
  }

  /// Loads a frame: a tree file is rendered; a PNG is decoded (unless the caller has its image
  /// already: `decoded`) and picks up its tree.
  ///
  /// - Throws: `FileError`, `PNGError` or `ConfigurationError` naming the file.
  public static func load(
    _ path: String, decoder: PNGDecoder = PNGDecoder(), renderer: ElementRenderer = ElementRenderer(),
    decoded: RGBAImage? = nil
  ) throws -> Frame {
    if isTree(path) {
      let tree = try ElementTree.load(anyFormat: path)
      let size = tree.pixelSize
      if size.width * size.height > decoder.maxPixels {
        throw PNGError(kind: .tooLarge, path: path, message: "the tree renders to \(size), over the pixel limit")
      }
      return Frame(image: renderer.render(tree), tree: tree, path: path)
    }
    let image = try decoded ?? decoder.decode(contentsOf: path)
    guard let treeFile = treeFile(besidePNG: path) else { return Frame(image: image, tree: nil, path: path) }
    if treeFile.hasSuffix(".tree.json") { return Frame(image: image, tree: try ElementTree.load(treeFile), path: path) }
    // A dump holds points only: its scale is the screenshot's pixels per point.
    var tree = try ElementTree.load(anyFormat: treeFile)
    let scale = Double(image.width) / tree.screen.width
    guard let whole = [1, 2, 3].first(where: { abs(Double($0) - scale) < 0.01 }) else {
      throw ConfigurationError(
        "\(treeFile): the dump's screen is \(ElementFrame.format(tree.screen.width)) points wide but \(path) is "
          + "\(image.width) pixels: not 1, 2 or 3 pixels a point")
    }
    tree.scale = whole
    return Frame(image: image, tree: tree, path: path)
  }
}
