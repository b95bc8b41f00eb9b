import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The test process's peak resident memory so far, in bytes: tests that must not touch a
/// declared size compare it before and after.
public func peakResidentBytes() -> Int {
  var usage = rusage()
  #if canImport(Darwin)
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)  // bytes
  #else
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024  // kilobytes
  #endif
}
