import SnapdiffCore
import SnapdiffWire

extension ReviewRequest {
  /// The snapshots the request picks, as the engine's review reads them (absent fields: false).
  var selection: Review.Selection {
    Review.Selection(
      patterns: keys ?? [], failed: failed ?? false, new: new ?? false, all: all ?? false, sameAs: sameAs,
      difference: difference, includeRejected: includeRejected ?? false, except: except ?? [])
  }
}
