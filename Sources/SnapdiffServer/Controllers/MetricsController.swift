import Hummingbird

/// `GET /metrics`: the service's figures (`ServiceMetrics`) in Prometheus' text format 0.0.4,
/// the open runs counted from the run index as it is asked.
@available(macOS 14, iOS 17, tvOS 17, *)
struct MetricsController {
  let service: RunService

  func addRoutes(to router: Router<ServerRequestContext>) {
    router.get("metrics") { [service] _, _ in
      let open = try await Blocking.run { try service.index.openRunCount() }
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: service.metrics.exposition(openRuns: open))))
    }
  }
}
