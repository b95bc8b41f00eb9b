import CLCMS2

/// A LittleCMS profile for a PNG's colour-space tag, with a name for verdicts. `nil` from the
/// initialiser when the tag cannot be used: a damaged or non-RGB ICC profile (a gray or CMYK
/// one), which the comparison then treats as untagged, as libpng drops a bad `iCCP`.
final class ColorProfile {
  let handle: cmsHPROFILE
  /// How verdicts name the space: `Display P3 (iCCP)`, `gamma 1/2.2 (gAMA)`.
  let name: String

  private init(handle: cmsHPROFILE, name: String) {
    self.handle = handle
    self.name = name
  }

  deinit { cmsCloseProfile(handle) }

  /// The sRGB profile LittleCMS builds in (IEC 61966-2-1).
  static func sRGB() -> ColorProfile? {
    guard let handle = cmsCreate_sRGBProfile() else { return nil }
    return ColorProfile(handle: handle, name: "sRGB")
  }

  convenience init?(_ tag: ColorSpaceTag) {
    switch tag {
    case .sRGB:
      guard let handle = cmsCreate_sRGBProfile() else { return nil }
      self.init(handle: handle, name: "sRGB (sRGB chunk)")
    case .iccProfile(let chunkName, let data):
      guard let handle = data.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) })
      else { return nil }
      // The pixels are RGB(A): only an RGB profile describes them.
      guard cmsGetColorSpace(handle) == cmsSigRgbData else {
        cmsCloseProfile(handle)
        return nil
      }
      let description = Self.description(of: handle) ?? chunkName
      self.init(handle: handle, name: "\(description) (iCCP)")
    case .gamma(let gamma, let chromaticities):
      // The file gamma is the encoding exponent × 100000: the decoding curve is its inverse.
      guard let curve = cmsBuildGamma(nil, 100_000 / Double(gamma)) else { return nil }
      defer { cmsFreeToneCurve(curve) }
      let primaries = chromaticities ?? .sRGB
      func xyY(_ x: UInt32, _ y: UInt32) -> cmsCIExyY {
        cmsCIExyY(x: Double(x) / 100_000, y: Double(y) / 100_000, Y: 1)
      }
      var white = xyY(primaries.whiteX, primaries.whiteY)
      var triple = cmsCIExyYTRIPLE(
        Red: xyY(primaries.redX, primaries.redY), Green: xyY(primaries.greenX, primaries.greenY),
        Blue: xyY(primaries.blueX, primaries.blueY))
      var curves: [OpaquePointer?] = [curve, curve, curve]
      guard
        let handle = curves.withUnsafeMutableBufferPointer({
          cmsCreateRGBProfile(&white, &triple, $0.baseAddress)
        })
      else { return nil }
      let exponent = (100_000 / Double(gamma) * 100).rounded() / 100
      let chunks = chromaticities == nil ? "gAMA" : "gAMA, cHRM"
      self.init(handle: handle, name: "gamma \(exponent) (\(chunks))")
    }
  }

  /// The profile's description tag, in English where it has several.
  private static func description(of handle: cmsHPROFILE) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    let written = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, 256)
    guard written > 1 else { return nil }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.isEmpty ? nil : text
  }
}
