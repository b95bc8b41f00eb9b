#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Decoding JSON bytes without each caller importing Foundation.
package enum JSONDecoderBox {
  package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
    try JSONDecoder().decode(type, from: Data(bytes))
  }
}
