/// Tree-only frames (`<key>.tree.json` or `<key>.txt` alone in the frames folder): rendered once,
/// counted, and not rendered at all when the tree equals its baseline's and the baseline is this
/// renderer's stamped rendering of it (`RenderStamp`).
extension RunChecker {
  /// The current frame, counting renderings of tree-only frames.
  func loadCurrent(_ path: String, renders: Counter?, decoded: RGBAImage? = nil) throws -> Frame {
    if Frame.isTree(path) { _ = renders?.increment() }
    return try Frame.load(path, decoder: decoder, decoded: decoded)
  }

  /// The outcome of a tree-only frame whose tree equals its baseline's tree, when the baseline's
  /// PNG is this renderer version's rendering of that tree (its `RenderStamp` checked against
  /// the tree file's bytes and the PNG's own): then both frames would be the same pixels, and
  /// nothing is rendered, decoded or compared. The settings still apply as in a comparison
  /// (element masks, unmatched selectors, the layout level: `FrameComparison.compareUnchanged`).
  ///
  /// `nil` whenever any of it does not hold, or anything cannot be read or parsed: the ordinary
  /// comparison then decides, and reports errors in its own words.
  func unchangedTree(_ currentPath: String, baseline: BaselineStore.Location, comparison: FrameComparison)
    -> FrameComparison.Outcome?
  {
    // A contrast check reads the current frame's pixels: they are rendered.
    guard comparison.contrast == nil, Frame.isTree(currentPath),
      let baselineTree = store.treeFile(at: baseline, limit: 1 << 28)
    else { return nil }
    let baselineTreeBytes = baselineTree.bytes
    let tree: ElementTree
    if currentPath.lowercased().hasSuffix(".tree.json"),
      let currentBytes = try? FileIO.read(currentPath, limit: 1 << 28),
      currentBytes == baselineTreeBytes
    {
      // The same file: one parse (it must still be a valid tree).
      guard let parsed = try? ElementTree.decode(currentBytes, path: currentPath) else { return nil }
      tree = parsed
    } else {
      guard let current = try? ElementTree.load(anyFormat: currentPath),
        let stored = try? ElementTree.decode(baselineTreeBytes, path: baselineTree.path), current == stored
      else { return nil }
      tree = current
    }
    let size = tree.pixelSize
    // Over the limit: the ordinary path refuses to render it, and says so.
    guard size.width * size.height <= decoder.maxPixels, let png = try? store.bytes(at: baseline),
      RenderStamp.isRender(of: baselineTreeBytes, png: png, size: size)
    else { return nil }
    let outcome = comparison.compareUnchanged(tree, size: size)
    return outcome.passed ? outcome : nil
  }

  /// An unchanged tree's verdict, recorded as its comparison would be.
  func conclude(
    _ outcome: FrameComparison.Outcome, _ key: SnapshotKey, baseline: BaselineStore.Location, currentPath: String,
    folder: RunFolder, into record: SnapshotRecord
  ) throws -> SnapshotRecord {
    var record = record
    record.fill(from: outcome.result)
    record.layout = outcome.layout.map { $0.map(LayoutChange.init) }
    record.unmatchedSelectors = outcome.unmatchedSelectors.isEmpty ? nil : outcome.unmatchedSelectors
    record.current = folder.relative(currentPath)
    record.status = .passed
    return record
  }
}
