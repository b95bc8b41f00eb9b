#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The environment variables of this process.
///
/// Read through `ProcessInfo`, which every platform has (an iOS UI-test bundle included: Apple's
/// headers there do not declare the C global `environ`).
public enum ProcessEnvironment {
  public static var variables: [String: String] { ProcessInfo.processInfo.environment }
}
