// libFuzzer harness: the baseline cache's entry files (`BaselineCache`, `.snapdiff/cache/*.rgba`).
//
// A cache entry is read back instead of decoding a baseline, so a damaged or planted entry must
// never crash `check` (an entry claiming a width of 2^62 once trapped on overflow) nor stand in
// for a baseline it was not made from. Each input becomes the entry of a small real PNG, then
// `BaselineCache.image(of:)` reads it; two ways:
// - the input as the whole entry file (first byte even): the result must be the PNG's own
//   pixels, whatever the bytes (a random checksum never matches);
// - the input as the entry's fields with a true checksum (first byte odd): bytes 1-16 the width
//   and height, the rest the LZ4 block, framed with the right magic, PNG length and hash, and
//   the checksum recomputed here (an independent copy of the format), so the fuzzer reaches the
//   size checks and LZ4's decoder. The result must be the PNG's pixels or an image of exactly the
//   entry's size, which is the PNG's, within the decoder's pixel limit (a forged block with a
//   recomputed checksum is accepted: the checksum finds damage, not forgery).
// And in both, the entry left behind must read back as the same image.
//
// FUZZ_CACHE_SEEDS=DIR writes seeds (a valid entry in each form) to DIR and exits.
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let maxPixels = 4096
let decoder = PNGDecoder(maxPixels: maxPixels)
let folder: String = {
  var template = Array("/tmp/fuzz-cache-XXXXXX".utf8CString)
  return String(cString: mkdtemp(&template)!)
}()
let cache = BaselineCache(directory: folder)
let image: RGBAImage = {
  var image = RGBAImage(width: 5, height: 3, filledWith: RGBAColor(red: 10, green: 200, blue: 30, alpha: 255))
  image[x: 1, y: 2] = RGBAColor(red: 1, green: 2, blue: 3, alpha: 4)
  return image
}()
let png = try! PNGEncoder().encode(image)
/// The entry's path and the valid entry the cache writes for `png`.
let (entryPath, validEntry): (String, [UInt8]) = {
  _ = try! cache.image(of: png, path: "seed.png", decoder: decoder)
  let name = try! FileSystem.entries(of: folder).first { $0.hasSuffix(".rgba") }!
  let path = folder + "/" + name
  return (path, try! FileIO.read(path))
}()
let headerSize = 72

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
  if let seeds = getenv("FUZZ_CACHE_SEEDS").map({ String(cString: $0) }) {
    writeSeed(seeds + "/entry", [0] + validEntry)
    let fields = Array(validEntry[16..<32]) + Array(validEntry[headerSize..<(validEntry.count - 16)])
    writeSeed(seeds + "/fields", [1] + fields)
    _exit(0)  // no leak check at exit: the globals above are meant to live

  }
  return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  guard let mode = bytes.first else { return 0 }
  let body = Array(bytes.dropFirst())
  let entry: [UInt8]
  if mode & 1 == 0 {
    entry = body
  } else {
    guard body.count >= 16 else { return 0 }
    var framed = Array(validEntry[0..<16]) + Array(body[0..<16]) + Array(validEntry[32..<headerSize])
    framed += body[16...]
    let (a, b) = BaselineCache.hash128(framed, count: framed.count)
    framed += littleEndian(a) + littleEndian(b)
    entry = framed
  }
  writeSeed(entryPath, entry)
  let first = try! cache.image(of: png, path: "seed.png", decoder: decoder)
  if mode & 1 == 0 {
    precondition(first == image, "a damaged entry stood in for the baseline")
  } else if first != image {
    let width = Int(truncatingIfNeeded: field(entry, 16))
    let height = Int(truncatingIfNeeded: field(entry, 24))
    precondition(first.width == width && first.height == height, "an entry's image is not the entry's size")
    precondition(first.width == image.width && first.height == image.height, "an entry of another size was accepted")
    precondition(first.width * first.height <= maxPixels, "an entry over the pixel limit was accepted")
    precondition(first.pixels.count == first.width * first.height * 4)
  }
  // Whatever is left behind (the entry, or the fresh one that replaced it) reads back the same.
  let second = try! cache.image(of: png, path: "seed.png", decoder: decoder)
  precondition(second == first, "the entry left behind reads differently")
  return 0
}

func writeSeed(_ path: String, _ bytes: [UInt8]) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  precondition(descriptor >= 0)
  bytes.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
  close(descriptor)
}

func field(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
  (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
}

func littleEndian(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

