// libFuzzer harness: the PNG writers, fast (diff images: CRunDeflate for palettes, zlib for RGB
// and RGBA) and compact (baselines: libpng's filter heuristic with SSE2, libdeflate), on images
// made from each input.
//
// Bytes 0-1 are the width and height (1-96 each), byte 2 how the pixels are made: an even value
// draws them from a palette of (byte 3 + 1) colours, indexes from the bytes that follow (runs,
// rows like the one above and stretches of literals: what the run-and-row matcher looks for);
// an odd value takes the following bytes as RGBA, repeated to fill the image (byte 2 & 2: every
// pixel opaque, so RGB). Both writers' files must read back, with libpng and with the fast
// decode path, as exactly those pixels, and each writer must give the same bytes twice.
import SnapdiffCore

private let decoder = PNGDecoder(maxPixels: 96 * 96)
private let libpng: PNGDecoder = {
  var decoder = PNGDecoder(maxPixels: 96 * 96)
  decoder.usesFastPath = false
  return decoder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 5 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let width = 1 + Int(bytes[0]) % 96
  let height = 1 + Int(bytes[1]) % 96
  let body = Array(bytes[4...])
  var image = RGBAImage(width: width, height: height, filledWith: RGBAColor(red: 0, green: 0, blue: 0))
  if bytes[2] % 2 == 0 {
    let colours = 1 + Int(bytes[3])
    for y in 0..<height {
      for x in 0..<width {
        let index = Int(body[(y * width + x) % body.count]) % colours
        image[x: x, y: y] = RGBAColor(
          red: UInt8(index), green: UInt8(truncatingIfNeeded: index * 37), blue: UInt8(truncatingIfNeeded: index * 101),
          alpha: index % 5 == 4 ? UInt8(index) : 255)
      }
    }
  } else {
    let opaque = bytes[2] & 2 != 0
    for y in 0..<height {
      for x in 0..<width {
        let at = ((y * width + x) * 4) % body.count
        func byte(_ k: Int) -> UInt8 { body[(at + k) % body.count] }
        image[x: x, y: y] = RGBAColor(red: byte(0), green: byte(1), blue: byte(2), alpha: opaque ? 255 : byte(3))
      }
    }
  }
  for speed in [PNGEncoder.Speed.fast, .compact] {
    let file = try! PNGEncoder(speed: speed).encode(image)
    precondition(try! PNGEncoder(speed: speed).encode(image) == file, "\(speed): different bytes twice")
    precondition(try! libpng.decode(file, path: "fuzz.png") == image, "\(speed): libpng reads other pixels")
    precondition(try! decoder.decode(file, path: "fuzz.png") == image, "\(speed): the fast path reads other pixels")
  }
  return 0
}
