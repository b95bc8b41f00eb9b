import CPNGCodec

/// How the process's allocator treats large buffers.
public enum ProcessMemory {
  /// Keeps freed image buffers in the process for the next image, on glibc; a no-op elsewhere.
  ///
  /// glibc gives every allocation over its threshold (a decoded iPhone screen is 12 MB) its own
  /// `mmap`, unmaps it when freed, and trims the heap above twice that: so `check`, which
  /// decodes two screens a pair, got every raster as fresh pages from the kernel, faulted in
  /// and zeroed (300,000 minor faults and 1.2 s of system time for 200 pairs, of 5.5 s CPU).
  /// With this, buffers up to 32 MB (glibc's largest threshold) come from the heap and up to
  /// 128 MB of freed heap stays for the next pair: 8,000 faults, 0.15 s, the same peak memory.
  /// For short-lived commands; a long-running server should keep the defaults.
  ///
  /// - Returns: whether the allocator took the settings.
  @discardableResult
  public static func keepFreedImages() -> Bool {
    cpng_keep_freed_buffers() == 1
  }
}
