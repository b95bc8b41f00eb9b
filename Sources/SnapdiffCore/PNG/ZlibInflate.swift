import CZlib

/// zlib's one-call `uncompress`, for small streams such as an `iCCP` chunk's profile.
enum ZlibInflate {
  /// `compressed` inflated, or `nil` when the stream is damaged or inflates to more than
  /// `limit` bytes.
  static func inflate(_ compressed: [UInt8], limit: Int) -> [UInt8]? {
    var capacity = min(limit, max(4096, compressed.count * 4))
    while true {
      var output = [UInt8](repeating: 0, count: capacity)
      var length = uLongf(capacity)
      let status = output.withUnsafeMutableBufferPointer { out in
        compressed.withUnsafeBufferPointer { input in
          uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
        }
      }
      switch status {
      case Z_OK: return Array(output.prefix(Int(length)))
      // Too small a buffer: try four times larger, up to the limit.
      case Z_BUF_ERROR where capacity < limit: capacity = min(limit, capacity * 4)
      default: return nil
      }
    }
  }
}
