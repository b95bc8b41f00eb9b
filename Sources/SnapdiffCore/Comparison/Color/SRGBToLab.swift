#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// sRGB (IEC 61966-2-1) to CIELAB, D65: decode the transfer curve to linear light, the sRGB
/// primaries' matrix to XYZ, then CIE 1976 L*a*b* relative to the D65 white.
public enum SRGBToLab {
  /// The D65 white point in XYZ (Y = 1), as sRGB defines it.
  static let white = (x: 0.950_47, y: 1.0, z: 1.088_83)

  /// Linear light (0...1) of each 8-bit sRGB value: the hot loop looks these up instead of
  /// calling `pow`.
  static let linearTable: [Double] = (0..<256).map { linear(Double($0) / 255) }

  /// The sRGB transfer function inverted: a value in 0...1 to linear light.
  @inline(__always)
  static func linear(_ value: Double) -> Double {
    value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
  }

  /// The Lab colour of sRGB `red`, `green`, `blue` given as linear light in 0...1.
  @inline(__always)
  static func lab(linearRed r: Double, green g: Double, blue b: Double) -> LabColor {
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / white.x
    let y = (0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b) / white.y
    let z = (0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b) / white.z
    let fx = labCurve(x)
    let fy = labCurve(y)
    let fz = labCurve(z)
    return LabColor(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
  }

  /// The Lab colour of an 8-bit sRGB colour.
  public static func lab(red: UInt8, green: UInt8, blue: UInt8) -> LabColor {
    lab(
      linearRed: linearTable[Int(red)], green: linearTable[Int(green)],
      blue: linearTable[Int(blue)])
  }

  /// CIE's f(t): a cube root, linear near black (below (6/29)³) so its slope stays finite.
  @inline(__always)
  private static func labCurve(_ t: Double) -> Double {
    let epsilon = 216.0 / 24_389.0  // (6/29)³
    return t > epsilon ? cbrt(t) : t * (841.0 / 108.0) + 4.0 / 29.0
  }
}
