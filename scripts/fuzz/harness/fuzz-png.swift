// libFuzzer harness: the PNG decoder, fast path and libpng, on every input.
//
// Each input is decoded as it is and, when its chunk CRCs are wrong, again with every CRC fixed
// (random bytes almost never carry a valid CRC, and without one libpng and the fast path stop at
// the first chunk). Both copies go through the fast path and through libpng alone
// (`usesFastPath = false`, what SNAPDIFF_PNG_FAST_PATH=0 does), and the two must agree exactly:
// the same pixels, or the same error kind and message (README: "same pixels, same errors").
import SnapdiffCore

/// 256×256: large enough for every seed screen but the big fixtures, small enough that inflating
/// does not dominate (over it, the limit check runs and nothing is decoded).
private let maxPixels = 1 << 16

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  check(bytes)
  let fixed = withFixedCRCs(bytes)
  if fixed != bytes { check(fixed) }
  return 0
}

private func check(_ bytes: [UInt8]) {
  let fast = PNGDecoder(maxPixels: maxPixels)
  var libpng = fast
  libpng.usesFastPath = false
  let viaFast = Result { () throws(PNGError) in try fast.decode(bytes, path: "fuzz.png") }
  let viaLibpng = Result { () throws(PNGError) in try libpng.decode(bytes, path: "fuzz.png") }
  switch (viaFast, viaLibpng) {
  case (.success(let a), .success(let b)):
    precondition(a == b, "the fast path and libpng decode different pixels")
    precondition(a.pixels.count == a.width * a.height * 4 && a.width > 0 && a.height > 0)
    // A file that decodes has a header that reads, with the same size.
    let header = try! fast.header(of: bytes, path: "fuzz.png")
    precondition(header.width == a.width && header.height == a.height)
  case (.failure(let a), .failure(let b)):
    precondition(a == b, "the fast path and libpng fail differently: '\(a)' against '\(b)'")
    precondition(a.path == "fuzz.png" && !a.message.isEmpty, "an error without a message: \(a)")
  case (.success, .failure(let error)):
    preconditionFailure("the fast path decodes what libpng refuses: \(error)")
  case (.failure(let error), .success):
    preconditionFailure("libpng decodes what the fast path refuses: \(error)")
  }
}

/// `bytes` with the CRC of every complete chunk after the signature recomputed.
private func withFixedCRCs(_ bytes: [UInt8]) -> [UInt8] {
  var result = bytes
  var offset = 8
  while offset + 12 <= result.count {
    let length =
      Int(result[offset]) << 24 | Int(result[offset + 1]) << 16 | Int(result[offset + 2]) << 8
      | Int(result[offset + 3])
    let end = offset + 8 + length
    guard length <= 0x7fff_ffff, end + 4 <= result.count else { break }
    let crc = crc32(result[(offset + 4)..<end])
    result[end] = UInt8(truncatingIfNeeded: crc >> 24)
    result[end + 1] = UInt8(truncatingIfNeeded: crc >> 16)
    result[end + 2] = UInt8(truncatingIfNeeded: crc >> 8)
    result[end + 3] = UInt8(truncatingIfNeeded: crc)
    offset = end + 4
  }
  return result
}

private let crcTable: [UInt32] = (0..<256).map { (n: UInt32) -> UInt32 in
  var c = n
  for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
  return c
}

private func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var c: UInt32 = 0xFFFF_FFFF
  for byte in bytes { c = crcTable[Int((c ^ UInt32(byte)) & 0xff)] ^ (c >> 8) }
  return c ^ 0xFFFF_FFFF
}
