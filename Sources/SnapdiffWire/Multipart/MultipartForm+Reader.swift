extension MultipartForm {
  /// The multipart parser, fed the body a piece at a time as it arrives, so that a part is
  /// refused the moment it passes its limit instead of after the whole body has been received.
  /// ``MultipartForm/init(body:contentType:)`` feeds it the whole body at once: one parser.
  ///
  /// It keeps the parts read so far, the current part's bytes, and at most a delimiter's length
  /// (or a part's headers, at most 16 KiB) of bytes it cannot place yet.
  ///
  /// ```swift
  /// var reader = try MultipartForm.Reader(contentType: type) { name in name == "frame" ? 50 << 20 : 1 << 20 }
  /// for try await chunk in body { try reader.consume(chunk) }
  /// let form = try reader.finish()
  /// ```
  public struct Reader: Sendable {
    private enum State {
      /// Before the first delimiter; `atStart` while the body could still begin with it.
      case preamble(atStart: Bool)
      /// After a delimiter: `--` ends the body, a line break opens a part. `afterPart` when the
      /// delimiter closed a part (a body that ends there is an error of its own).
      case afterDelimiter(afterPart: Bool, sawByte: Bool)
      case headers
      case body
      case epilogue
    }

    private let boundary: String
    /// `--boundary`, and CRLF `--boundary`, which ends a part's body.
    private let delimiter: [UInt8]
    private let closing: [UInt8]
    /// The most bytes a part may have; `nil` refuses a part of that name.
    private let partLimit: @Sendable (String) -> Int?
    private var state = State.preamble(atStart: true)
    /// Bytes not placed yet, from `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var current: Part?
    private var currentLimit = Int.max
    private var parts: [Part] = []

    private static let crlf: [UInt8] = [13, 10]

    /// - Parameter partLimit: a part's limit from its name (`nil`: no such part).
    public init(contentType: String, partLimit: @escaping @Sendable (String) -> Int? = { _ in .max })
      throws(MultipartError)
    {
      boundary = try MultipartForm.boundary(in: contentType)
      delimiter = Array("--\(boundary)".utf8)
      closing = Self.crlf + delimiter
      self.partLimit = partLimit
    }

    /// Reads `bytes`, the next piece of the body.
    ///
    /// - Throws: `MultipartError` as soon as the body cannot be well-formed or a part passes its
    ///   limit (``MultipartError/tooLarge``) or has a name it refuses (``MultipartError/unknownPart``).
    public mutating func consume(_ bytes: some Collection<UInt8>) throws(MultipartError) {
      if case .epilogue = state { return }
      buffer.append(contentsOf: bytes)
      try advance()
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
    }

    /// The form, once the whole body has been read.
    ///
    /// - Throws: `MultipartError` for a body that ends before its closing delimiter.
    public mutating func finish() throws(MultipartError) -> MultipartForm {
      switch state {
      case .epilogue:
        return MultipartForm(parts: parts)
      case .preamble:
        throw MultipartError("no '--\(boundary)' delimiter: the body does not match its boundary")
      case .afterDelimiter(let afterPart, let sawByte):
        if afterPart && !sawByte { throw MultipartError("the body ends after a delimiter") }
        throw MultipartError("a delimiter is followed by neither a line break nor '--'")
      case .headers:
        throw MultipartError("a part's headers do not end with an empty line (or are over 16 KiB)")
      case .body:
        throw MultipartError("part '\(current?.name ?? "")' is not closed by '--\(boundary)'")
      }
    }

    private var pending: Int { buffer.count - start }

    /// Places as much of the buffer as can be placed.
    private mutating func advance() throws(MultipartError) {
      while true {
        switch state {
        case .epilogue:
          start = buffer.count
          return

        case .preamble(let atStart):
          if atStart {
            // The body may begin with the delimiter itself, without a line break before it.
            if pending < delimiter.count && delimiter.starts(with: buffer[start...]) { return }
            if buffer[start...].starts(with: delimiter) {
              start += delimiter.count
              state = .afterDelimiter(afterPart: false, sawByte: false)
              continue
            }
            state = .preamble(atStart: false)
          }
          if let found = MultipartForm.find(closing, in: buffer, from: start) {
            start = found + closing.count
            state = .afterDelimiter(afterPart: false, sawByte: false)
            continue
          }
          // A preamble is ignored: keep only what could be the start of the delimiter.
          start = max(start, buffer.count - (closing.count - 1))
          return

        case .afterDelimiter(let afterPart, var sawByte):
          // Transport padding (RFC 2046), then `--` or a line break.
          while start < buffer.count && (buffer[start] == 32 || buffer[start] == 9) {
            start += 1
            sawByte = true
          }
          state = .afterDelimiter(afterPart: afterPart, sawByte: sawByte || pending > 0)
          guard pending >= 2 else {
            if pending == 1 && buffer[start] != 45 && buffer[start] != 13 {
              throw MultipartError("a delimiter is followed by neither a line break nor '--'")
            }
            return
          }
          if buffer[start] == 45 && buffer[start + 1] == 45 {
            state = .epilogue
            continue
          }
          guard buffer[start] == 13 && buffer[start + 1] == 10 else {
            throw MultipartError("a delimiter is followed by neither a line break nor '--'")
          }
          start += 2
          state = .headers

        case .headers:
          guard
            let end = MultipartForm.find(
              Self.crlf + Self.crlf, in: buffer, from: start, within: MultipartForm.maximumHeaderLength)
          else {
            if pending >= MultipartForm.maximumHeaderLength + 4 {
              throw MultipartError("a part's headers do not end with an empty line (or are over 16 KiB)")
            }
            return
          }
          let part = try MultipartForm.headers(Array(buffer[start..<end]))
          guard let limit = partLimit(part.name) else {
            var error = MultipartError("unknown part '\(part.name)'")
            error.unknownPart = part.name
            throw error
          }
          current = part
          currentLimit = limit
          start = end + 4
          state = .body

        case .body:
          if let end = MultipartForm.find(closing, in: buffer, from: start) {
            try take(end - start)
            parts.append(current!)
            current = nil
            start = end + closing.count
            state = .afterDelimiter(afterPart: true, sawByte: false)
            continue
          }
          // All but what could be the start of the closing delimiter belongs to the part.
          try take(max(0, pending - (closing.count - 1)))
          return
        }
      }
    }

    /// Moves `count` bytes from the buffer to the current part, refusing it once over its limit.
    private mutating func take(_ count: Int) throws(MultipartError) {
      guard count > 0 else { return }
      if current!.body.count + count > currentLimit {
        let name = current!.name
        var error = MultipartError("part '\(name)' is larger than its limit of \(currentLimit) bytes")
        error.tooLarge = (name, currentLimit)
        throw error
      }
      current!.body.append(contentsOf: buffer[start..<(start + count)])
      start += count
    }
  }
}
