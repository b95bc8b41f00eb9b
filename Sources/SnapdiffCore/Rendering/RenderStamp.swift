import CZlib

/// What a PNG that `check` made from an element tree says about itself, so that a later run
/// whose frame is the same tree needs neither to render it nor to compare any pixels.
///
/// The stamp is a `tEXt` chunk right after `IHDR` (PNG 3rd edition §11.3.3.3: ancillary, so
/// every decoder skips it and the pixels are unchanged), keyword `snapdiff-render`, text
/// `renderer=<ElementRenderer.version> tree=<hash> image=<hash>`:
/// - `tree`: the hash of the tree's encoding (`ElementTree.encoded()`, keys sorted: the bytes
///   written beside the baseline as `<key>.tree.json`),
/// - `image`: the hash of the PNG without the stamp chunk, so a stamp copied into another image,
///   or an image edited around its stamp, no longer vouches for anything.
///
/// Nothing in it is trusted on its word (as with the baseline cache's entries): `isRender` reads
/// the whole file and checks both hashes and the header's size. The hash is `BaselineCache`'s
/// 128-bit one, a guard against mistakes and damage, not against someone forging a stamp on
/// purpose (whoever can write the baseline store can approve anything anyway).
///
/// ```swift
/// let png = try RenderStamp.stamped(PNGEncoder().encode(image), tree: tree)
/// RenderStamp.isRender(of: treeFileBytes, png: png, size: tree.pixelSize)   // true
/// ```
enum RenderStamp {
  static let keyword = "snapdiff-render"
  /// Where the stamp goes: after the signature (8) and `IHDR` (4 + 4 + 13 + 4).
  private static let offset = 33

  /// `png` (as `PNGEncoder` wrote it: `IHDR` first) with a stamp saying it is the rendering of
  /// the tree whose encoding is `treeBytes`, by this `ElementRenderer.version`.
  static func stamped(_ png: [UInt8], treeBytes: [UInt8]) -> [UInt8] {
    precondition(png.count > offset && png[12..<16].elementsEqual("IHDR".utf8), "not a PNG from PNGEncoder")
    let text = "renderer=\(ElementRenderer.version) tree=\(hex(treeBytes)) image=\(hex(png))"
    let data = Array(keyword.utf8) + [0] + Array(text.utf8)
    var chunk = bigEndian(UInt32(data.count)) + Array("tEXt".utf8) + data
    let crc = chunk[4...].withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
    chunk += bigEndian(UInt32(truncatingIfNeeded: crc))
    return Array(png[..<offset]) + chunk + png[offset...]
  }

  /// The stamped PNG of a tree's rendering.
  static func stamped(_ png: [UInt8], tree: ElementTree) throws -> [UInt8] {
    stamped(png, treeBytes: try tree.encoded())
  }

  /// Whether `png` carries a stamp of this renderer version for the tree encoded as `treeBytes`,
  /// whose image hash is the rest of the file's, and whose header says `size`.
  static func isRender(of treeBytes: [UInt8], png: [UInt8], size: PixelSize) -> Bool {
    guard png.count > offset + 12, png[12..<16].elementsEqual("IHDR".utf8),
      Int(word(png, 16)) == size.width, Int(word(png, 20)) == size.height,
      png[offset + 4..<offset + 8].elementsEqual("tEXt".utf8)
    else { return false }
    let length = Int(word(png, offset))
    let end = offset + 8 + length + 4
    guard end <= png.count else { return false }
    let expected = "\(keyword)\0renderer=\(ElementRenderer.version) tree=\(hex(treeBytes)) image="
    let data = png[offset + 8..<offset + 8 + length]
    guard data.count == expected.utf8.count + 32, data.starts(with: expected.utf8) else { return false }
    let unstamped = Array(png[..<offset]) + png[end...]
    return data.suffix(32).elementsEqual(hex(unstamped).utf8)
  }

  private static func hex(_ bytes: [UInt8]) -> String { BaselineCache.key(of: bytes) }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
  }

  private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
  }
}
