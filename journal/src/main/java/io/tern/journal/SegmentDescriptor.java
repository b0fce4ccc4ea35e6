package io.tern.journal;

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The first {@value #LENGTH} bytes of a segment file.
 *
 * <pre>
 *   0  version (int): 0 = preallocated, not yet in use; written last when the segment is started
 *   4  crc32c (int) over [8, 32)
 *   8  segment id (long)
 *  16  first index (long)
 *  24  segment size in bytes (int)
 *  28  reserved (int)
 *  32  hint: last index (long)       -- written when the segment is sealed (rolled), so that
 *  40  hint: end position (int)      -- open can skip scanning it
 *  44  hint crc32c (int) over [32, 44); a zero or wrong hint crc means "no hint"
 *  48  reserved up to 64
 * </pre>
 */
final class SegmentDescriptor {
  static final int LENGTH = 64;
  static final int VERSION_1 = 1;

  static final int VERSION_OFFSET = 0;
  static final int CRC_OFFSET = 4;
  static final int ID_OFFSET = 8;
  static final int FIRST_INDEX_OFFSET = 16;
  static final int SIZE_OFFSET = 24;
  static final int CRC_START = 8;
  static final int CRC_LENGTH = 24;
  static final int HINT_LAST_INDEX_OFFSET = 32;
  static final int HINT_END_POSITION_OFFSET = 40;
  static final int HINT_CRC_OFFSET = 44;
  static final int HINT_CRC_START = 32;
  static final int HINT_CRC_LENGTH = 12;

  /** A hint that is absent or invalid. */
  static final long NO_HINT = Long.MIN_VALUE;

  private SegmentDescriptor() {}

  static void write(
      UnsafeBuffer buffer, ByteBuffer view, Crc32c crc, long id, long firstIndex, int size) {
    buffer.setMemory(0, LENGTH, (byte) 0);
    buffer.putLong(ID_OFFSET, id);
    buffer.putLong(FIRST_INDEX_OFFSET, firstIndex);
    buffer.putInt(SIZE_OFFSET, size);
    buffer.putInt(CRC_OFFSET, crc.compute(view, CRC_START, CRC_LENGTH));
    buffer.putIntRelease(VERSION_OFFSET, VERSION_1);
  }

  static int version(UnsafeBuffer buffer) {
    return buffer.getIntVolatile(VERSION_OFFSET);
  }

  static boolean isValid(UnsafeBuffer buffer, ByteBuffer view, Crc32c crc) {
    return version(buffer) == VERSION_1
        && buffer.getInt(CRC_OFFSET) == crc.compute(view, CRC_START, CRC_LENGTH);
  }

  static long id(UnsafeBuffer buffer) {
    return buffer.getLong(ID_OFFSET);
  }

  static long firstIndex(UnsafeBuffer buffer) {
    return buffer.getLong(FIRST_INDEX_OFFSET);
  }

  static int size(UnsafeBuffer buffer) {
    return buffer.getInt(SIZE_OFFSET);
  }

  static void writeHint(
      UnsafeBuffer buffer, ByteBuffer view, Crc32c crc, long lastIndex, int endPosition) {
    buffer.putLong(HINT_LAST_INDEX_OFFSET, lastIndex);
    buffer.putInt(HINT_END_POSITION_OFFSET, endPosition);
    buffer.putInt(HINT_CRC_OFFSET, crc.compute(view, HINT_CRC_START, HINT_CRC_LENGTH));
  }

  static void clearHint(UnsafeBuffer buffer) {
    buffer.setMemory(HINT_CRC_START, HINT_CRC_LENGTH + 4, (byte) 0);
  }

  /** The hinted last index, or {@link #NO_HINT}. */
  static long hintLastIndex(UnsafeBuffer buffer, ByteBuffer view, Crc32c crc) {
    int stored = buffer.getInt(HINT_CRC_OFFSET);
    if (stored == 0 || stored != crc.compute(view, HINT_CRC_START, HINT_CRC_LENGTH)) {
      return NO_HINT;
    }
    return buffer.getLong(HINT_LAST_INDEX_OFFSET);
  }

  static int hintEndPosition(UnsafeBuffer buffer) {
    return buffer.getInt(HINT_END_POSITION_OFFSET);
  }
}
