import Dispatch

/// Told how long the stages of each comparison took: what a caller that measures them (the
/// service's `/metrics`) gives a `RunSession`. Called on the thread that compared.
public protocol CheckObserver: Sendable {
  /// A frame or a baseline was decoded (or a tree rendered) in `nanoseconds`.
  func decoded(nanoseconds: UInt64)
  /// Two images were compared in `nanoseconds` (the verdict's comparison, not the diff image).
  func compared(nanoseconds: UInt64)
}

/// The stages a `CheckObserver` is told about.
enum CheckStage {
  case decode
  case compare
}

/// Runs `body`, telling `observer` how long it took as `stage` (nothing is measured without one).
func measured<T>(_ stage: CheckStage, by observer: (any CheckObserver)?, _ body: () throws -> T) rethrows -> T {
  guard let observer else { return try body() }
  let start = DispatchTime.now().uptimeNanoseconds
  defer {
    let elapsed = DispatchTime.now().uptimeNanoseconds &- start
    switch stage {
    case .decode: observer.decoded(nanoseconds: elapsed)
    case .compare: observer.compared(nanoseconds: elapsed)
    }
  }
  return try body()
}
