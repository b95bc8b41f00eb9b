import Hummingbird

// The API's JSON responses.
@available(macOS 14, iOS 17, tvOS 17, *) extension SnapshotVerdict: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension RunSummary: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension RunList: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension ReviewResult: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension Health: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension Readiness: ResponseEncodable {}
@available(macOS 14, iOS 17, tvOS 17, *) extension VersionInfo: ResponseEncodable {}
