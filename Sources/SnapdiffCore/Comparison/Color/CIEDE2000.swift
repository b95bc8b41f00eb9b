#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A colour in CIELAB under the D65 white point: lightness `l` (0 black … 100 white) and the
/// opponent axes `a` (green–red) and `b` (blue–yellow).
public struct LabColor: Sendable, Hashable {
  public var l: Double
  public var a: Double
  public var b: Double

  public init(l: Double, a: Double, b: Double) {
    self.l = l
    self.a = a
    self.b = b
  }
}

/// The CIEDE2000 colour difference (ΔE00), CIE 142-2001, as written out step by step in
/// G. Sharma, W. Wu and E. N. Dalal, "The CIEDE2000 Color-Difference Formula: Implementation
/// Notes, Supplementary Test Data, and Mathematical Observations", Color Research and
/// Application 30(1), 2005 (equations 1–22; the tests run the paper's 34 pairs of Table 1).
///
/// A ΔE00 of about 1 is the smallest difference an observer notices side by side; the
/// parametric factors kL, kC, kH are 1 (reference conditions).
public enum CIEDE2000 {
  /// 25⁷, the constant of the chroma compensation (G and R_C).
  private static let twentyFiveToTheSeventh = 6_103_515_625.0
  private static let degrees = 180.0 / Double.pi
  private static let radians = Double.pi / 180.0

  /// ΔE00 between `first` and `second`: symmetric, 0 for equal colours.
  public static func difference(_ first: LabColor, _ second: LabColor) -> Double {
    // Step 1: a' stretches the a axis for near-neutral colours (G), then C' and h'.
    let chromaMean = (hypot(first.a, first.b) + hypot(second.a, second.b)) / 2
    let chromaMean7 = pow(chromaMean, 7)
    let g = 0.5 * (1 - (chromaMean7 / (chromaMean7 + twentyFiveToTheSeventh)).squareRoot())
    let a1 = (1 + g) * first.a
    let a2 = (1 + g) * second.a
    let c1 = hypot(a1, first.b)
    let c2 = hypot(a2, second.b)
    let h1 = hueAngle(b: first.b, aPrime: a1)
    let h2 = hueAngle(b: second.b, aPrime: a2)

    // Step 2: ΔL', ΔC', Δh' (the shorter way round the hue circle) and ΔH'.
    let deltaL = second.l - first.l
    let deltaC = c2 - c1
    var deltaHue = 0.0
    // A hue is undefined for a neutral colour: its hue difference is 0 (eq. 10).
    if c1 * c2 != 0 {
      deltaHue = h2 - h1
      if deltaHue > 180 { deltaHue -= 360 } else if deltaHue < -180 { deltaHue += 360 }
    }
    let deltaH = 2 * (c1 * c2).squareRoot() * sin(deltaHue * radians / 2)

    // Step 3: the weights, from the means of L', C' and h'.
    let lMean = (first.l + second.l) / 2
    let cMean = (c1 + c2) / 2
    let hMean: Double
    if c1 * c2 == 0 {
      // One hue is undefined: the mean is the other one (eq. 14, the sum).
      hMean = h1 + h2
    } else if abs(h1 - h2) <= 180 {
      hMean = (h1 + h2) / 2
    } else if h1 + h2 < 360 {
      hMean = (h1 + h2 + 360) / 2
    } else {
      hMean = (h1 + h2 - 360) / 2
    }
    let t =
      1 - 0.17 * cos((hMean - 30) * radians) + 0.24 * cos(2 * hMean * radians)
      + 0.32 * cos((3 * hMean + 6) * radians) - 0.20 * cos((4 * hMean - 63) * radians)
    let hueRotation = 30 * exp(-pow((hMean - 275) / 25, 2))
    let cMean7 = pow(cMean, 7)
    let rC = 2 * (cMean7 / (cMean7 + twentyFiveToTheSeventh)).squareRoot()
    let lFromMid = (lMean - 50) * (lMean - 50)
    let sL = 1 + 0.015 * lFromMid / (20 + lFromMid).squareRoot()
    let sC = 1 + 0.045 * cMean
    let sH = 1 + 0.015 * cMean * t
    // The rotation term corrects the blue region, where chroma and hue interact.
    let rT = -sin(2 * hueRotation * radians) * rC

    let l = deltaL / sL
    let c = deltaC / sC
    let h = deltaH / sH
    return (l * l + c * c + h * h + rT * c * h).squareRoot()
  }

  /// h' in degrees, 0..<360; 0 for a neutral colour (eq. 4).
  @inline(__always)
  private static func hueAngle(b: Double, aPrime: Double) -> Double {
    if b == 0 && aPrime == 0 { return 0 }
    let angle = atan2(b, aPrime) * degrees
    return angle < 0 ? angle + 360 : angle
  }
}
