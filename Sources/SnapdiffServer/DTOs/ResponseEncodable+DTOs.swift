import Hummingbird

// The API's JSON responses.
@available(macOS 14, iOS 17, tvOS 17, *) extension SnapshotVerdict: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension RunSummary: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension RunList: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension ReviewResult: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension Health: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension Readiness: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension VersionInfo: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension BaselineHistoryResponse: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension BaselineUndoResponse: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension BranchList: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension BranchMergeResponse: ResponseEncodable {}
