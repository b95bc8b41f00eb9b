#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Encoding JSON bytes (sorted keys, pretty) without each caller importing Foundation.
package enum JSONEncoderBox {
  package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value)) + [0x0A]
  }
}
