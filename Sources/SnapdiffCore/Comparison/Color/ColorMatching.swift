import CLCMS2

/// Brings two images into one colour space before they are compared: when their PNG colour
/// tags differ (a screenshot tagged Display P3 against its sRGB twin), each image not in sRGB is
/// converted to sRGB with LittleCMS (relative colorimetric, as browsers display tagged images),
/// and the conversion is reported.
///
/// Untagged images, and images whose tags are equal, are compared as decoded: pixelmatch parity
/// on untagged files is unchanged. A metric that reads samples as sRGB (`perceptual`'s ΔE00)
/// is the exception: every image not in sRGB is converted, even two with the same tag.
struct ColorMatching {
  let metric: MatchLevel.PixelMetric

  /// The two images ready to compare, and the conversion made (or `nil`).
  func matched(_ baseline: RGBAImage, _ current: RGBAImage)
    -> (baseline: RGBAImage, current: RGBAImage, conversion: ColorConversion?)
  {
    let first = baseline.colorSpace
    let second = current.colorSpace
    let firstIsSRGB = first?.isSRGB ?? true
    let secondIsSRGB = second?.isSRGB ?? true
    // Both sRGB (or read as sRGB): nothing to convert.
    if firstIsSRGB && secondIsSRGB { return (baseline, current, nil) }
    // The same tag: the same bytes mean the same colours.
    if first == second && !metric.readsSRGB { return (baseline, current, nil) }
    let firstProfile = firstIsSRGB ? nil : first.flatMap(ColorProfile.init)
    let secondProfile = secondIsSRGB ? nil : second.flatMap(ColorProfile.init)
    guard let sRGB = ColorProfile.sRGB() else { return (baseline, current, nil) }
    let convertedBaseline = firstProfile.flatMap { Self.convert(baseline, from: $0, to: sRGB) }
    let convertedCurrent = secondProfile.flatMap { Self.convert(current, from: $0, to: sRGB) }
    if convertedBaseline == nil && convertedCurrent == nil { return (baseline, current, nil) }
    let conversion = ColorConversion(
      baselineSpace: Self.name(first, firstProfile), currentSpace: Self.name(second, secondProfile),
      baselineConverted: convertedBaseline != nil, currentConverted: convertedCurrent != nil)
    return (convertedBaseline ?? baseline, convertedCurrent ?? current, conversion)
  }

  /// How a verdict names an image's space.
  private static func name(_ tag: ColorSpaceTag?, _ profile: ColorProfile?) -> String {
    if let profile { return profile.name }
    switch tag {
    case nil: return "sRGB or untagged"
    case .sRGB?: return "sRGB (sRGB chunk)"
    case .gamma?: return "gamma 2.2 with sRGB primaries (gAMA), read as sRGB"
    case .iccProfile(let name, _)?: return "'\(name)' (iCCP, unusable: compared as sRGB)"
    }
  }

  /// `image`'s samples converted from `source` to `target`, alpha copied; `nil` when LittleCMS
  /// cannot build the transform.
  private static func convert(_ image: RGBAImage, from source: ColorProfile, to target: ColorProfile)
    -> RGBAImage?
  {
    guard
      let transform = cmsCreateTransform(
        source.handle, CLCMS2_TYPE_RGBA_8, target.handle, CLCMS2_TYPE_RGBA_8,
        UInt32(INTENT_RELATIVE_COLORIMETRIC), UInt32(cmsFLAGS_COPY_ALPHA))
    else { return nil }
    defer { cmsDeleteTransform(transform) }
    let count = image.pixels.count
    let pixels = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
      image.pixels.withUnsafeBytes { input in
        // Row by row keeps every count far below LittleCMS's 32-bit pixel count.
        let rowBytes = image.width * 4
        for row in 0..<image.height {
          cmsDoTransform(
            transform, input.baseAddress! + row * rowBytes, output.baseAddress! + row * rowBytes,
            UInt32(image.width))
        }
      }
      initialized = count
    }
    var converted = RGBAImage(width: image.width, height: image.height, pixels: pixels)
    converted.colorSpace = nil  // sRGB now, which decoded images also write as `nil`
    return converted
  }
}
