/// One pair of screenshots whose verdict is known: the same snapshot before and after, and whether
/// what changed between them is rendering noise (an OS, simulator or Xcode update re-rendered
/// it) or a change someone made on purpose. `snapdiff calibrate` compares every pair at every
/// setting and counts how often each setting gets the label right.
public struct LabelledPair: Sendable, Equatable {
  /// What the difference between the two images is.
  public enum Kind: String, Sendable, CaseIterable {
    /// Re-rendered by an OS, simulator, Xcode or tool update: a good setting passes it.
    case noise
    /// Changed on purpose: a good setting fails it.
    case change
    /// Neither is known (a mixed cause): compared, counted apart, never scored.
    case unknown
  }

  /// Names the pair in messages and in the JSON (`cases.json`'s `id`).
  public var id: String
  public var kind: Kind
  /// The image before, and after: absolute paths.
  public var baseline: String
  public var current: String
  /// For noise: what kind of noise (`rendering`, `appearance`, …), so that failures split by
  /// it; `nil` when not given.
  public var noiseClass: String?
  /// What the pair belongs to (a repository, a run), for tables per group; `nil` when not given.
  public var group: String?

  public init(
    id: String, kind: Kind, baseline: String, current: String, noiseClass: String? = nil, group: String? = nil
  ) {
    self.id = id
    self.kind = kind
    self.baseline = baseline
    self.current = current
    self.noiseClass = noiseClass
    self.group = group
  }
}
