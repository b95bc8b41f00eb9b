import CZlib

/// gzip (RFC 1952) through zlib: what the service sends an HTML page or a JSON answer as when the
/// client accepts it (`Accept-Encoding: gzip`).
///
/// ```swift
/// let body = try Gzip.compress(Array(html.utf8))
/// ```
public enum Gzip {
  /// `bytes` as one gzip member, at zlib's `level` (1 fastest … 9 smallest).
  ///
  /// - Throws: `GzipError` when zlib refuses (out of memory).
  public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(GzipError) -> [UInt8] {
    var stream = z_stream()
    // 15 bits of window, +16: a gzip header and trailer rather than zlib's.
    guard
      deflateInit2_(
        &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        == Z_OK
    else { throw GzipError() }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
    let status = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { target in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = uInt(input.count)
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(target.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { throw GzipError() }
    output.removeLast(output.count - Int(stream.total_out))
    return output
  }
}

/// zlib could not compress (it ran out of memory).
public struct GzipError: Error, Sendable, CustomStringConvertible {
  public var description: String { "gzip: zlib could not compress the response" }
}
