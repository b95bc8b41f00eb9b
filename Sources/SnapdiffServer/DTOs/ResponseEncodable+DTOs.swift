import Hummingbird
import SnapdiffWire

// The API's JSON responses: the wire contract's types (SnapdiffWire), answered as Hummingbird
// responses here, the one place that knows both.
@available(macOS 14, iOS 17, tvOS 17, *) extension SnapshotVerdictResponse: ResponseEncodable {}
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
@available(macOS 14, iOS 17, tvOS 17, *) extension KnownNoiseList: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension FlakyList: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension BranchDiscardResponse: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension ApprovalList: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension ApprovalUndoResponse: ResponseEncodable {}
