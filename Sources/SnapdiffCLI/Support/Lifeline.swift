import Dispatch
import SnapdiffCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe that ties a child's life to its parent's: the parent keeps the only write end (closed
/// in every process it starts), its children inherit the read end and watch it. Nothing is
/// ever written: when the parent ends, however it ends (SIGKILL included), the kernel closes
/// the write end and the children read end-of-file.
///
/// Why a pipe: a child started with `posix_spawn` cannot ask for `PR_SET_PDEATHSIG` (that needs
/// code between `fork` and `exec`, and on Linux it follows the thread that started the child,
/// not the process), and macOS has no such call at all. A pipe works on both.
///
/// ```swift
/// let lifeline = try Lifeline.make()              // in the parent, before starting children
/// // in a child that was given lifeline.childDescriptor:
/// Lifeline.watch(descriptor) { kill(getpid(), SIGTERM) }
/// ```
package struct Lifeline: Sendable {
  /// The read end, inherited by the children at this number.
  package let childDescriptor: Int32
  /// The write end: close-on-exec, so that only this process holds it.
  private let parentDescriptor: Int32

  /// Makes the pipe.
  ///
  /// - Throws: `FileError` when the system has no descriptor left.
  package static func make() throws -> Lifeline {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw FileError(path: "pipe", message: "cannot make one: \(String(cString: strerror(errno)))")
    }
    // The write end never reaches a child (that child would keep the line alive); the read end
    // does.
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    return Lifeline(childDescriptor: ends[0], parentDescriptor: ends[1])
  }

  /// In a child: watches `descriptor` on a thread of its own and calls `parentGone` once the
  /// parent has ended. The descriptor is made close-on-exec first, so that what this child
  /// starts does not inherit it.
  package static func watch(_ descriptor: Int32, parentGone: @escaping @Sendable () -> Void) {
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    // One thread blocked in `read` for the process's life.
    DispatchQueue.global().async {
      var byte: UInt8 = 0
      // Nothing is written: read returns 0 at end-of-file (the parent is gone), or -1 when the
      // descriptor is bad (not a parent's pipe at all), which counts as gone too.
      while true {
        let count = read(descriptor, &byte, 1)
        if count == -1 && errno == EINTR { continue }
        if count <= 0 { break }
      }
      parentGone()
    }
  }
}
