package io.tern.journal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C over a range of a direct buffer, using the JDK's intrinsic. Not thread-safe: each thread
 * uses its own instance with its own duplicate of the mapped buffer (a ByteBuffer's position and
 * limit are mutable state).
 */
final class Crc32c {
  private final CRC32C crc = new CRC32C();

  int compute(ByteBuffer view, int offset, int length) {
    view.clear();
    view.limit(offset + length).position(offset);
    crc.reset();
    crc.update(view);
    return (int) crc.getValue();
  }
}
