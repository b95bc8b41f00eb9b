/// The variants' part of the one verdict rule: a frame that does not match its baseline passes
/// when it matches one of the snapshot's accepted variants (`BaselineStore.variants(of:besides:)`),
/// tried in the store's order under the same comparison, the first match named in the verdict.
/// Only after the baseline did not match: a snapshot that matches its baseline (or has no
/// variants) costs what it did before variants existed.
extension SnapshotCheck {
  /// A variant the frame matched, and what comparing with it found.
  public struct VariantMatch<Found> {
    public var variant: BaselineStore.Variant
    public var found: Found
  }

  /// The first of `key`'s variants (beside `baseline`, in `store`) for which `compare` returns
  /// a passing result, or `nil` when none does (or there are none).
  ///
  /// - Parameter compare: compares the frame with one variant; returns what it found when the
  ///   frame passes against it, `nil` when it does not.
  public static func firstMatchingVariant<Found>(
    of key: SnapshotKey, besides baseline: BaselineStore.Location, in store: BaselineStore,
    compare: (BaselineStore.Variant) throws -> Found?
  ) throws -> VariantMatch<Found>? {
    for variant in try store.variants(of: key, besides: baseline) {
      if let found = try compare(variant) { return VariantMatch(variant: variant, found: found) }
    }
    return nil
  }

  /// The first variant of `key` that `frame` matches under `comparison`, loaded: what
  /// ``check(_:key:frameSettings:in:)`` tries after the baseline did not match.
  func variantMatching(
    _ frame: Frame, key: SnapshotKey, besides baseline: BaselineStore.Location, comparison: FrameComparison,
    in store: BaselineStore
  ) throws -> VariantMatch<(frame: Frame, outcome: FrameComparison.Outcome)>? {
    try Self.firstMatchingVariant(of: key, besides: baseline, in: store) {
      variant -> (frame: Frame, outcome: FrameComparison.Outcome)? in
      let variantFrame = try store.frame(at: variant.location)
      let outcome = try comparison.compare(variantFrame, frame)
      return outcome.passed ? (variantFrame, outcome) : nil
    }
  }

  /// A snapshot that matched an accepted variant: `passed`, and never recorded (the frame is
  /// already accepted; writing it over the baseline would drop the other machine's look).
  public var matchedVariant: Verdict { Verdict(status: .passed, records: false) }
}
