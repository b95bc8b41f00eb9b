#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A file status's times under one spelling: Darwin names them `st_mtimespec` and
/// `st_ctimespec`, Glibc and Musl `st_mtim` and `st_ctim`. Every reader of a modification or
/// change time goes through here, so no file needs its own platform branch (and
/// scripts/check_apple_availability.py finds none without one).
extension stat {
  /// The last modification of the file's contents.
  package var modificationTime: timespec {
    #if canImport(Darwin)
      st_mtimespec
    #else
      st_mtim
    #endif
  }

  /// The last change of the file's status (contents, owner, mode, links).
  package var statusChangeTime: timespec {
    #if canImport(Darwin)
      st_ctimespec
    #else
      st_ctim
    #endif
  }
}

extension timespec {
  /// In nanoseconds since the epoch.
  package var nanoseconds: Int64 { Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec) }
}
