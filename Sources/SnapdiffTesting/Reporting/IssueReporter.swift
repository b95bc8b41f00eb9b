import Foundation

#if canImport(XCTest)
  import XCTest
#endif
#if canImport(Testing)
  import Testing
#endif

/// Fails the running test, whichever framework runs it: Swift Testing when a test of it is
/// running, XCTest otherwise.
enum IssueReporter {
  static func record(_ message: String, file: StaticString, line: UInt) {
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(
          Comment(rawValue: message),
          sourceLocation: SourceLocation(
            fileID: "\(file)", filePath: "\(file)", line: Int(line), column: 1))
        return
      }
    #endif
    #if canImport(XCTest)
      XCTFail(message, file: file, line: line)
    #else
      note(message)
    #endif
  }

  /// A line on standard error.
  static func note(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}
