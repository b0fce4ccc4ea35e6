package io.tern.journal;

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The first {@value #LENGTH} bytes of a segment file.
 *
 * <pre>
 *    0  version (int): 0 = preallocated, not yet in use; written last when the segment is started
 *    4  crc32c (int) over [8, 32)
 *    8  segment id (long)
 *   16  first index (long)
 *   24  segment size in bytes (int)
 *   28  reserved (int)
 *   32  hint: last index (long)          -- written when the segment is sealed (rolled), so that
 *   40  hint: end position (int)         -- open can skip scanning it
 *   44  reserved (int)
 *   48  hint: last asqn in segment (long)
 *   56  hint crc32c (int) over [32, 56); a zero or wrong crc means "no hint"
 *   60  reserved (int)
 *   64  flush slot 0 } last flushed index (long), confirmed index (long), sequence (long),
 *   96  flush slot 1 } flags (int), crc32c (int) over the slot's first 28 bytes. Written
 *                     alternately; see {@link FlushRecord}.
 * </pre>
 *
 * The flush slots live in the segment that holds the last flushed entry, so one msync over the
 * segment makes both the entries and the record of them durable: a flush costs one sync, not two.
 */
final class SegmentDescriptor {
  static final int LENGTH = 128;
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
  static final int HINT_LAST_ASQN_OFFSET = 48;
  static final int HINT_CRC_OFFSET = 56;
  static final int HINT_CRC_START = 32;
  static final int HINT_CRC_LENGTH = 24;
  static final int FLUSH_SLOT_OFFSET = 64;
  static final int FLUSH_SLOT_LENGTH = 32;
  static final int FLUSH_SLOT_CRC_LENGTH = 28;
  static final int FLAG_CLEAN_SHUTDOWN = 1;

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
      UnsafeBuffer buffer,
      ByteBuffer view,
      Crc32c crc,
      long lastIndex,
      int endPosition,
      long lastAsqn) {
    buffer.putLong(HINT_LAST_INDEX_OFFSET, lastIndex);
    buffer.putInt(HINT_END_POSITION_OFFSET, endPosition);
    buffer.putInt(HINT_END_POSITION_OFFSET + 4, 0);
    buffer.putLong(HINT_LAST_ASQN_OFFSET, lastAsqn);
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

  static long hintLastAsqn(UnsafeBuffer buffer) {
    return buffer.getLong(HINT_LAST_ASQN_OFFSET);
  }

  /** Where in the descriptor the record with this sequence goes: the slots alternate. */
  static int flushSlotOffset(long sequence) {
    return FLUSH_SLOT_OFFSET + (int) (sequence & 1) * FLUSH_SLOT_LENGTH;
  }

  /**
   * Encodes the flush record at {@code slot} of {@code buffer} (the descriptor itself, or a
   * slot-sized buffer with {@code slot} 0 that is then written to {@link #flushSlotOffset}).
   */
  static void writeFlushRecord(
      UnsafeBuffer buffer, ByteBuffer view, int slot, Crc32c crc, FlushRecord r) {
    buffer.putLong(slot, r.lastFlushedIndex());
    buffer.putLong(slot + 8, r.confirmedIndex());
    buffer.putLong(slot + 16, r.sequence());
    buffer.putInt(slot + 24, r.cleanShutdown() ? FLAG_CLEAN_SHUTDOWN : 0);
    buffer.putInt(slot + 28, crc.compute(view, slot, FLUSH_SLOT_CRC_LENGTH));
  }

  /** The valid flush record with the highest sequence, or null if neither slot is valid. */
  static FlushRecord readFlushRecord(UnsafeBuffer buffer, ByteBuffer view, Crc32c crc) {
    FlushRecord best = null;
    for (int i = 0; i < 2; i++) {
      int slot = flushSlotOffset(i);
      int stored = buffer.getInt(slot + 28);
      if (stored == 0 || stored != crc.compute(view, slot, FLUSH_SLOT_CRC_LENGTH)) {
        continue;
      }
      FlushRecord record =
          new FlushRecord(
              buffer.getLong(slot),
              buffer.getLong(slot + 8),
              buffer.getLong(slot + 16),
              (buffer.getInt(slot + 24) & FLAG_CLEAN_SHUTDOWN) != 0);
      if (best == null || record.sequence() > best.sequence()) {
        best = record;
      }
    }
    return best;
  }

  /**
   * What a flush recorded. The record is forced in the same msync as the entries it covers, and a
   * sync persists pages in no particular order, so after a crash during that sync the record may be
   * durable while some of its entries are not. Hence two indexes:
   *
   * <ul>
   *   <li>{@code confirmedIndex}: covered by an earlier, completed flush; entries up to it must be
   *       intact, anything wrong there is corruption;
   *   <li>{@code lastFlushedIndex}: covered by the flush that wrote this record; if entries between
   *       the two are damaged, that flush never returned, so they were never acknowledged and are
   *       cut like any torn tail.
   * </ul>
   *
   * {@code cleanShutdown} is set by a clean close and cleared when the journal is opened.
   */
  record FlushRecord(
      long lastFlushedIndex, long confirmedIndex, long sequence, boolean cleanShutdown) {}
}
