/// A file's bytes, read whole, and what `stat` said of it just before they were read
/// (`FileHashes.Stamp`): enough to keep it by hash (`RunImages.keep(_:)`) without reading it
/// again, and without trusting a remembered hash if the file changed while it was read.
///
/// ```swift
/// let baseline = try store.stampedFile(at: location)
/// if baseline.bytes == frame { … }                    // compared without decoding
/// let hash = try images.keep(baseline)                 // kept: no second read
/// ```
public struct StampedFile: Sendable {
  public let path: String
  public let bytes: [UInt8]
  /// The file's stamp before the read (`nil` when it was not a regular file then).
  let stamp: FileHashes.Stamp?

  /// Reads the file at `path`.
  ///
  /// - Throws: `FileError` naming the file when it cannot be read.
  public init(_ path: String) throws(FileError) {
    stamp = FileHashes.Stamp(path)
    bytes = try FileIO.read(path)
    self.path = path
  }
}
