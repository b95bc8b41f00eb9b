#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Per-snapshot comparison settings: `<key>.snapdiff.json` beside a baseline or beside a current
/// frame. Every field is optional; a present one overrides the run's default, and ignore regions
/// add up.
///
/// ```json
/// {"threshold": 0.05, "maxDiffPixels": 10,
///  "ignoreRegions": [{"x": 0, "y": 0, "width": 390, "height": 44}]}
/// ```
public struct SnapshotSettings: Sendable, Codable, Equatable {
  public var threshold: Double?
  public var includeAA: Bool?
  public var maxDiffPixels: Int?
  public var maxDiffRatio: Double?
  public var ignoreRegions: [Region]?
  /// Element selectors whose areas are ignored (`clock`, `~banner`, `@image`, `alert/ok`),
  /// resolved through the frames' element trees.
  public var ignoreElements: [String]?
  /// `exact`, `strict`, `ignore-colors`, `layout` or `perceptual`.
  public var matchLevel: MatchLevel?
  /// For the perceptual level: the largest ΔE00 that still counts as equal.
  public var deltaE: Double?
  /// For the layout level: moves and size changes up to this many points are not changes.
  public var layoutTolerance: Double?

  enum CodingKeys: String, CodingKey, CaseIterable {
    case threshold, includeAA, maxDiffPixels, maxDiffRatio, ignoreRegions, ignoreElements, matchLevel, deltaE
    case layoutTolerance
  }

  /// Decodes settings, refusing a field that is not one of them.
  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    threshold = try container.decodeIfPresent(Double.self, forKey: .threshold)
    includeAA = try container.decodeIfPresent(Bool.self, forKey: .includeAA)
    maxDiffPixels = try container.decodeIfPresent(Int.self, forKey: .maxDiffPixels)
    maxDiffRatio = try container.decodeIfPresent(Double.self, forKey: .maxDiffRatio)
    ignoreRegions = try container.decodeIfPresent([Region].self, forKey: .ignoreRegions)
    ignoreElements = try container.decodeIfPresent([String].self, forKey: .ignoreElements)
    matchLevel = try container.decodeIfPresent(MatchLevel.self, forKey: .matchLevel)
    deltaE = try container.decodeIfPresent(Double.self, forKey: .deltaE)
    layoutTolerance = try container.decodeIfPresent(Double.self, forKey: .layoutTolerance)
  }

  public init(
    threshold: Double? = nil, includeAA: Bool? = nil, maxDiffPixels: Int? = nil,
    maxDiffRatio: Double? = nil, ignoreRegions: [Region]? = nil, ignoreElements: [String]? = nil,
    matchLevel: MatchLevel? = nil, layoutTolerance: Double? = nil, deltaE: Double? = nil
  ) {
    self.threshold = threshold
    self.includeAA = includeAA
    self.maxDiffPixels = maxDiffPixels
    self.maxDiffRatio = maxDiffRatio
    self.ignoreRegions = ignoreRegions
    self.ignoreElements = ignoreElements
    self.matchLevel = matchLevel
    self.layoutTolerance = layoutTolerance
    self.deltaE = deltaE
  }

  /// A rectangle in pixels, as JSON writes it.
  public struct Region: Sendable, Codable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    enum CodingKeys: String, CodingKey, CaseIterable { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
      try decoder.refuseUnknownFields(CodingKeys.self)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      x = try container.decode(Int.self, forKey: .x)
      y = try container.decode(Int.self, forKey: .y)
      width = try container.decode(Int.self, forKey: .width)
      height = try container.decode(Int.self, forKey: .height)
    }

    public init(_ rect: PixelRect) {
      x = rect.x
      y = rect.y
      width = rect.width
      height = rect.height
    }

    public var rect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
  }

  /// `options` with these settings applied.
  public func applied(to options: DiffOptions) -> DiffOptions {
    var result = options
    if let threshold { result.threshold = threshold }
    if let includeAA { result.includeAA = includeAA }
    if let maxDiffPixels { result.maxDiffPixels = maxDiffPixels }
    if let maxDiffRatio { result.maxDiffRatio = maxDiffRatio }
    result.ignoreRegions += (ignoreRegions ?? []).map(\.rect)
    if let matchLevel { result.matchLevel = matchLevel }
    if let deltaE { result.deltaE = deltaE }
    return result
  }

  /// `comparison` with these settings applied: options, element masks, match level.
  public func applied(to comparison: FrameComparison) throws -> FrameComparison {
    var result = comparison
    result.options = applied(to: comparison.options)
    result.selectors += try (ignoreElements ?? []).map { text throws(ConfigurationError) in try ElementSelector(text) }
    if let matchLevel { result.matchLevel = matchLevel }
    if let layoutTolerance { result.layoutTolerance = layoutTolerance }
    return result
  }

  /// The most bytes a settings file (or the service's `settings` part) may hold.
  public static let maximumBytes = 1 << 20

  /// Reads a settings file, or `nil` when there is none.
  ///
  /// - Throws: `ConfigurationError` naming the file when it is not valid.
  public static func load(_ path: String) throws -> SnapshotSettings? {
    guard FileSystem.isFile(path) else { return nil }
    let bytes = try FileIO.read(path, limit: maximumBytes)
    let settings: SnapshotSettings
    do {
      settings = try JSONDecoder().decode(SnapshotSettings.self, from: Data(bytes))
    } catch {
      throw ConfigurationError("\(path): not valid snapshot settings: \(JSONProblem.describe(error))")
    }
    let options = settings.applied(to: DiffOptions())
    if let problem = options.problem { throw ConfigurationError("\(path): \(problem)") }
    do {
      _ = try settings.applied(to: FrameComparison())
    } catch {
      throw ConfigurationError("\(path): \(error)")
    }
    return settings
  }
}

/// Short, readable descriptions of `DecodingError`s: what is wrong, and where in the document.
public enum JSONProblem {
  /// The problem, named from `document` (`the settings part of 'login'`): `… is missing "name"`
  /// at the top level, `…: $.ignoreRegions[0].x should be a number` further in.
  public static func describe(_ error: any Error, in document: String) -> String {
    let problem = describe(error, document: document)
    return problem.hasPrefix(document) ? problem : "\(document): \(problem)"
  }

  /// - Parameter document: what the top level is called.
  public static func describe(_ error: any Error, document: String = "the document") -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ context: DecodingError.Context) -> String {
      let parts = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
      return parts.isEmpty ? document : "$" + parts.joined()
    }
    switch error {
    case .typeMismatch(let type, let context):
      return "\(path(context)) should be \(typeName(type))"
    case .valueNotFound(let type, let context):
      return "\(path(context)) should be \(typeName(type)), not null"
    case .keyNotFound(let key, let context):
      return "\(path(context)) is missing \"\(key.stringValue)\""
    case .dataCorrupted(let context):
      let underlying = context.underlyingError.map { ": \($0)" } ?? ""
      return "\(path(context)): \(context.debugDescription)\(underlying)"
    @unknown default:
      return String(describing: error)
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Int.Type: "a number"
    case is Bool.Type: "true or false"
    case is String.Type: "a string"
    default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
    }
  }
}
