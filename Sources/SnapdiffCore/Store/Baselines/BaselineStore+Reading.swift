/// The store's front door for reads: a caller that located a baseline (`locate`, a variant's
/// `location`) asks the store for its bytes, its stamped file, its decoded image or frame, its
/// element tree, instead of opening `location.path` itself. Where the bytes live (a file beside
/// its sidecars today, an object store tomorrow) is then the store's business alone.
///
/// ```swift
/// guard let location = try store.locate(key) else { … }
/// let baseline = try store.frame(at: location, decoder: decoder)
/// ```
extension BaselineStore {
  /// Whether the baseline at `location` is there (a regular file, or a link to one).
  public func hasBaseline(at location: Location) -> Bool {
    FileSystem.isFile(location.path)
  }

  /// The baseline's bytes.
  ///
  /// - Throws: `FileError` naming the file when it cannot be read.
  public func bytes(at location: Location) throws(FileError) -> [UInt8] {
    try FileIO.read(location.path)
  }

  /// The baseline's bytes, or `nil` when it is not there (removed since it was located).
  public func bytesIfPresent(at location: Location) throws -> [UInt8]? {
    try readIfFile(location.path)
  }

  /// The baseline's bytes with its file's stamp taken before the read: what a record-mode write
  /// compares (`Compared`), and what `RunImages.keep(_:)` keeps without hashing an unchanged
  /// baseline again.
  ///
  /// - Throws: `FileError` naming the file when it cannot be read.
  public func stampedFile(at location: Location) throws(FileError) -> StampedFile {
    try StampedFile(location.path)
  }

  /// The baseline's pixels, decoded.
  ///
  /// - Throws: `FileError` or `PNGError` naming the file.
  public func image(at location: Location, decoder: PNGDecoder = PNGDecoder()) throws -> RGBAImage {
    try decoder.decode(FileIO.read(location.path), path: location.path)
  }

  /// The baseline as a frame: its pixels and the element tree beside it (`Frame.load`).
  ///
  /// - Throws: `FileError`, `PNGError` or `ConfigurationError` naming the file.
  public func frame(at location: Location, decoder: PNGDecoder = PNGDecoder()) throws -> Frame {
    try Frame.load(location.path, decoder: decoder)
  }

  /// Whether the baseline has an element tree beside it (`<key>.tree.json`, or an XCUITest dump
  /// `<key>.txt`), as `frame(at:decoder:)` would pick it up.
  public func hasElementTree(at location: Location) -> Bool {
    Frame.treeFile(besidePNG: location.path) != nil
  }

  /// The bytes of the baseline's `<key>.tree.json`, and the name to give in a message about
  /// them; `nil` when there is none or it cannot be read within `limit` bytes.
  public func treeFile(at location: Location, limit: Int) -> (bytes: [UInt8], path: String)? {
    let path = Frame.treePath(besidePNG: location.path)
    guard FileSystem.isFile(path), let bytes = try? FileIO.read(path, limit: limit) else { return nil }
    return (bytes, path)
  }

  /// The baseline's element tree (`<key>.tree.json`), or `nil` when it has none.
  ///
  /// - Throws: `FileError` or `ConfigurationError` naming the file when it cannot be read.
  public func elementTree(at location: Location) throws -> ElementTree? {
    let path = sidecarPath(of: location, suffix: ".tree.json")
    return FileSystem.isFile(path) ? try ElementTree.load(path) : nil
  }

  /// The bytes of the file beside the baseline with `suffix` (`.snapdiff.json`), or `nil` when
  /// there is none.
  public func sidecarBytes(of location: Location, suffix: String) throws -> [UInt8]? {
    try readIfFile(sidecarPath(of: location, suffix: suffix))
  }
}
