/// Variants: more than one accepted baseline for one snapshot (the same screen rendered one way
/// on Intel runners and another on Apple silicon, or on two simulator versions). A frame passes
/// when it matches the baseline or any variant at the snapshot's comparison; the variants are
/// tried only after the baseline did not match, so a snapshot without variants costs nothing more.
///
/// Layout, owned here and nowhere else: beside the folder that holds a key's baseline (a layer,
/// the store's root or a branch overlay, or its environment folder), a hidden `.variants` folder
/// with one folder per key and one PNG per variant, its element tree beside it:
///
/// ```
/// baselines/Home - test_search/Home.png                      the baseline
/// baselines/.variants/Home - test_search/Home/intel.png      the variant "intel"
/// baselines/.variants/Home - test_search/Home/intel.tree.json
/// baselines/.branches/feature%2Flogin/.variants/…            a variant approved on a branch
/// ```
///
/// The folder is hidden, so listings of keys, overlays' merges of baselines and stores written
/// before variants existed read as they always did. The settings and rejected changes beside
/// the baseline apply to every variant: they are the snapshot's.
extension BaselineStore {
  /// The hidden folder, in each place a baseline can be, that holds its variants.
  static let variantsFolder = ".variants"

  /// One accepted variant of a snapshot's baseline.
  public struct Variant: Sendable, Equatable {
    /// What the approval named it (`intel`, `ios17`).
    public var name: String
    /// The variant's PNG, absolute.
    public var path: String
    /// The environment folder it is in; `nil` for a layer's root.
    public var environment: String?

    /// The variant as a location, for what reads a baseline (`Frame.load`, sidecar paths).
    public var location: Location { Location(path: path, environment: environment) }
  }

  /// Checks a variant's name: one folder name a key could use (no `/`, no `..`, no hidden
  /// name), so it names one file in the key's variants folder.
  ///
  /// - Throws: `KeyError` naming the problem.
  public static func checkVariantName(_ name: String) throws(KeyError) {
    let checked = try SnapshotKey(name)
    guard !PathText.containsSeparator(checked.rawValue), !name.hasPrefix(".") else {
      throw KeyError(key: name, problem: "is not a single folder name (a variant's name names one file)")
    }
    guard !name.hasSuffix(".tree") else {
      throw KeyError(key: name, problem: "ends in .tree, which names a variant's element tree")
    }
  }

  /// The variants a frame of `key` may match, given where its baseline was found: those in the
  /// places searched before the baseline's (a branch overlay, an environment folder) and those
  /// beside it, in search order, each folder's by name. Places after the baseline's are
  /// shadowed, as their baselines are: a branch that approved its own baseline leaves the base
  /// branch's variants behind.
  ///
  /// - Complexity: one `stat` per place searched; a folder listing only where variants exist.
  /// - Throws: `FileError` when a variant is a link leading outside the store.
  public func variants(of key: SnapshotKey, besides baseline: Location) throws -> [Variant] {
    var found: [Variant] = []
    for place in places {
      found += try variants(of: key, in: place.folder, environment: place.environment)
      if place.folder + "/" + key.relativePath() == baseline.path { break }
    }
    return found
  }

  /// The variants of `key` where this store writes (its first overlay, its environment folder).
  public func writtenVariants(of key: SnapshotKey) throws -> [Variant] {
    try variants(of: key, in: environment.map(environmentRoot) ?? writeBase, environment: environment)
  }

  /// Every variant where this store writes (its first overlay, its environment folder), by key.
  public func writtenVariants() throws -> [(key: SnapshotKey, variant: Variant)] {
    let place = environment.map(environmentRoot) ?? writeBase
    let folder = place + "/" + Self.variantsFolder
    guard FileSystem.isDirectory(folder) else { return [] }
    return try FileSystem.files(under: folder).filter { $0.hasSuffix(".png") }.compactMap {
      file -> (key: SnapshotKey, variant: Variant)? in
      let stem = String(file.dropLast(4))
      let name = stem.split(separator: "/").last.map(String.init) ?? stem
      guard let key = try? SnapshotKey(PathText.parent(of: file)), (try? Self.checkVariantName(name)) != nil
      else { return nil }
      return (key, Variant(name: name, path: folder + "/" + file, environment: environment))
    }
  }

  /// Where the variant `name` of `key` is written (with `suffix`: its tree), in this store's
  /// write place.
  public func variantWritePath(for key: SnapshotKey, named name: String, suffix: String = ".png") -> String {
    variantFolder(of: key, in: environment.map(environmentRoot) ?? writeBase) + "/" + name + suffix
  }

  /// Writes `png` as the variant `name` of `key` (its tree beside it, an old tree removed),
  /// atomically under the store's lock; returns what was there before (nothing for a new
  /// variant): what an approval logs.
  ///
  /// - Throws: `KeyError` for a bad name, `StoreEscapeError` for a write out of the store.
  @discardableResult
  public func replaceVariant(_ png: [UInt8], tree: ElementTree? = nil, for key: SnapshotKey, named name: String)
    throws -> Previous
  {
    try Self.checkVariantName(name)
    return try replaceFiles(
      png, tree: tree, at: variantWritePath(for: key, named: name),
      treePath: variantWritePath(for: key, named: name, suffix: ".tree.json"))
  }

  /// Deletes a variant (and its tree), only when its bytes still hash to `hash` (when given),
  /// checked under the same hold of the lock as the removal: a variant approved again after
  /// the caller looked stays.
  ///
  /// - Returns: what it removed, or `nil` when the variant changed (or is gone) and stays.
  @discardableResult
  public func removeVariant(_ variant: Variant, ifHash hash: String? = nil) throws -> Previous? {
    let treePath = String(variant.path.dropLast(4)) + ".tree.json"
    return try withLock {
      guard FileSystem.isFile(variant.path) else { return nil }
      try confinement.check(variant.path)
      try confinement.check(treePath)
      let png = try FileIO.read(variant.path)
      if let hash, SHA256.hex(png) != hash { return nil }
      let previous = try Previous(png: png, tree: readIfFile(treePath))
      try confinement.remove(variant.path)
      try confinement.remove(treePath)
      return previous
    }
  }

  /// The places a key's baseline is looked for, in order: each layer's environment folder (when
  /// there is one), then the layer's root.
  private var places: [(folder: String, environment: String?)] {
    var places: [(folder: String, environment: String?)] = []
    for layer in layers {
      if let environment { places.append((layer + "/" + environment, environment)) }
      places.append((layer, nil))
    }
    return places
  }

  private func variantFolder(of key: SnapshotKey, in place: String) -> String {
    place + "/" + Self.variantsFolder + "/" + key.rawValue
  }

  /// The variants of `key` in one place: the PNGs directly in its folder (a deeper folder is
  /// another key's), by name.
  private func variants(of key: SnapshotKey, in place: String, environment: String?) throws -> [Variant] {
    let folder = variantFolder(of: key, in: place)
    guard FileSystem.isDirectory(folder) else { return [] }
    var found: [Variant] = []
    for entry in try FileSystem.entries(of: folder).sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    where entry.hasSuffix(".png") && !entry.hasPrefix(".") {
      let path = folder + "/" + entry
      guard FileSystem.isFile(path) else { continue }
      try checkInside(path)
      found.append(Variant(name: String(entry.dropLast(4)), path: path, environment: environment))
    }
    return found
  }
}
