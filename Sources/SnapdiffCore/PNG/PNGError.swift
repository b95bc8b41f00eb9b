/// A PNG that cannot be read or written, naming the file and the problem.
///
/// ```swift
/// do { _ = try PNGDecoder().decode(contentsOf: "shot.png") }
/// catch let error as PNGError where error.kind == .truncated { print(error) }
/// // shot.png: truncated PNG: the file ends before the image data does
/// ```
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, as an open set of kinds.
  public struct Kind: Sendable, Hashable, CustomStringConvertible {
    private enum Base: Hashable {
      case notPNG, truncated, corrupt, tooLarge, emptyImage, outOfMemory, encodingFailed
    }
    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// The data does not start with the PNG signature.
    public static let notPNG = Kind(.notPNG)
    /// The data ends before the image does.
    public static let truncated = Kind(.truncated)
    /// A chunk, CRC, header field or compressed stream is damaged.
    public static let corrupt = Kind(.corrupt)
    /// `width × height` is over the decoder's limit (checked from the header, before allocating).
    public static let tooLarge = Kind(.tooLarge)
    /// Width or height is zero.
    public static let emptyImage = Kind(.emptyImage)
    public static let outOfMemory = Kind(.outOfMemory)
    /// libpng refused to encode the raster.
    public static let encodingFailed = Kind(.encodingFailed)

    public var description: String {
      switch base {
      case .notPNG: "not a PNG file"
      case .truncated: "truncated PNG"
      case .corrupt: "corrupt PNG"
      case .tooLarge: "image too large"
      case .emptyImage: "empty image"
      case .outOfMemory: "out of memory"
      case .encodingFailed: "cannot encode PNG"
      }
    }
  }

  public var kind: Kind
  /// The file the data came from or was going to, when there is one.
  public var path: String?
  /// What libpng (or the limit check) said.
  public var message: String

  public init(kind: Kind, path: String?, message: String) {
    self.kind = kind
    self.path = path
    self.message = message
  }

  public var description: String {
    let problem = "\(kind): \(message)"
    guard let path else { return problem }
    return "\(path): \(problem)"
  }
}
