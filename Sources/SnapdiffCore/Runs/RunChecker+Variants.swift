// A snapshot whose frame did not match its baseline, tried against the snapshot's accepted
// variants (`SnapshotCheck.firstMatchingVariant`) before it is concluded failed.
extension RunChecker {
  /// What a comparison with one variant found, when the frame passed against it.
  struct VariantPass {
    var result: DiffResult
  }

  /// The record of a frame that matched `match.variant`: passed, the variant as its baseline
  /// (kept by hash, as a baseline is, so the report shows what it matched) and named.
  func passedByVariant(
    _ match: SnapshotCheck.VariantMatch<VariantPass>, folder: RunFolder, into record: SnapshotRecord
  ) throws -> SnapshotRecord {
    var record = record
    record.fill(from: match.found.result)
    record.status = rule.matchedVariant.status
    record.variant = match.variant.name
    // run.json names the variant by its path, relative to the run folder: the record format.
    record.baseline = folder.relative(match.variant.path)
    record.baselineEnvironment = match.variant.environment
    record.baselineHash = try measured(.keep, by: observer) {
      try RunImages(folder: folder, blobs: blobs).keep(store.stampedFile(at: match.variant.location))
    }
    record.difference = nil
    record.previouslyRejected = false
    return record
  }

  /// The first variant of `key` the frame's image matches under `options` (two PNGs, no trees).
  func variantMatchingImage(
    _ key: SnapshotKey, baseline: BaselineStore.Location, current: RGBAImage, options: DiffOptions
  ) throws -> SnapshotCheck.VariantMatch<VariantPass>? {
    try SnapshotCheck.firstMatchingVariant(of: key, besides: baseline, in: store) { variant in
      let image = try measured(.decode, by: observer) { try store.image(at: variant.location, decoder: decoder) }
      let result = measured(.compare, by: observer) { PixelDiff(options: options).compare(image, current) }
      return result.passed ? VariantPass(result: result) : nil
    }
  }

  /// The first variant of `key` the frame matches under `comparison` (element trees, masks,
  /// regions, the layout and text-aware levels).
  func variantMatchingFrame(
    _ key: SnapshotKey, baseline: BaselineStore.Location, current: Frame, comparison: FrameComparison
  ) throws -> SnapshotCheck.VariantMatch<VariantPass>? {
    try SnapshotCheck.firstMatchingVariant(of: key, besides: baseline, in: store) { variant in
      let frame = try measured(.decode, by: observer) { try store.frame(at: variant.location, decoder: decoder) }
      let outcome = try measured(.compare, by: observer) { try comparison.compare(frame, current) }
      return outcome.passed ? VariantPass(result: outcome.result) : nil
    }
  }
}
