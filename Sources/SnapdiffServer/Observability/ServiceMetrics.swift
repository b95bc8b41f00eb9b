import Metrics
import Prometheus
import SnapdiffCore

/// The service's figures, served at `GET /metrics` in Prometheus' text format: frames received,
/// verdicts by status, decode and compare times, open runs, request latency. Through
/// swift-metrics on a registry of this service's own (no process-wide bootstrap, so that
/// several servers in one process, as in the tests, count apart).
///
/// ```
/// snapdiff_frames_received_total 3
/// snapdiff_verdicts_total{status="passed"} 2
/// snapdiff_decode_seconds_bucket{le="0.005"} 1
/// ```
@available(macOS 14, iOS 17, tvOS 17, *)
final class ServiceMetrics: CheckObserver {
  let registry = PrometheusCollectorRegistry()
  private let factory: PrometheusMetricsFactory
  private let framesReceived: Metrics.Counter
  private let verdicts: [SnapshotStatus: Metrics.Counter]
  private let decodeTime: Metrics.Timer
  private let compareTime: Metrics.Timer
  private let openRuns: Metrics.Gauge

  init() {
    var factory = PrometheusMetricsFactory(registry: registry)
    // Decoding a screenshot takes milliseconds; comparing, from under one to hundreds.
    let imageBuckets: [Duration] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
      .map { .nanoseconds(Int64($0 * 1e9)) }
    factory.durationHistogramBuckets = [
      "snapdiff_decode_seconds": imageBuckets, "snapdiff_compare_seconds": imageBuckets,
    ]
    self.factory = factory
    framesReceived = Metrics.Counter(label: "snapdiff_frames_received_total", factory: factory)
    verdicts = Dictionary(
      uniqueKeysWithValues: SnapshotStatus.allCases.map { status in
        (
          status,
          Metrics.Counter(label: "snapdiff_verdicts_total", dimensions: [("status", status.rawValue)], factory: factory)
        )
      })
    decodeTime = Metrics.Timer(label: "snapdiff_decode_seconds", factory: factory)
    compareTime = Metrics.Timer(label: "snapdiff_compare_seconds", factory: factory)
    openRuns = Metrics.Gauge(label: "snapdiff_open_runs", factory: factory)
  }

  /// A frame (a PUT of a PNG, a tree or both) arrived, before it is checked.
  func frameReceived() { framesReceived.increment() }

  /// A verdict was recorded (a skip is the verdict `skipped`).
  func verdict(_ status: SnapshotStatus) { verdicts[status]?.increment() }

  func decoded(nanoseconds: UInt64) { decodeTime.recordNanoseconds(Int64(clamping: nanoseconds)) }

  func compared(nanoseconds: UInt64) { compareTime.recordNanoseconds(Int64(clamping: nanoseconds)) }

  /// One request answered: its latency by method, route (the pattern, not the path, so keys
  /// make no new series) and status.
  func request(method: String, route: String, status: Int, nanoseconds: UInt64) {
    Metrics.Timer(
      label: "snapdiff_http_request_duration_seconds",
      dimensions: [("method", method), ("route", route), ("status", String(status))], factory: factory
    ).recordNanoseconds(Int64(clamping: nanoseconds))
  }

  /// The text `/metrics` answers, with the open runs counted now (`openRuns`).
  func exposition(openRuns count: Int) -> [UInt8] {
    openRuns.record(count)
    var buffer: [UInt8] = []
    registry.emit(into: &buffer)
    return buffer
  }
}
