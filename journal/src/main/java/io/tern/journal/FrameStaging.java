package io.tern.journal;

import static io.tern.journal.FrameLayout.ASQN_OFFSET;
import static io.tern.journal.FrameLayout.CHECKSUM_OFFSET;
import static io.tern.journal.FrameLayout.CHECKSUM_START;
import static io.tern.journal.FrameLayout.DATA_OFFSET;
import static io.tern.journal.FrameLayout.INDEX_OFFSET;
import static io.tern.journal.FrameLayout.LENGTH_OFFSET;
import static io.tern.journal.FrameLayout.MARKER_OFFSET;
import static io.tern.journal.FrameLayout.MARKER_V1;
import static io.tern.journal.FrameLayout.RESERVED_OFFSET;

import java.nio.ByteBuffer;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The writer's buffer for {@link JournalConfig.WriteMode#PWRITE}: a frame is assembled here
 * (header, data, zero padding, checksum, marker) and then written to the segment in one call. It
 * starts small and grows to the largest frame seen, so a journal whose entries are small does not
 * hold a buffer of the maximum entry size.
 */
final class FrameStaging {
  private static final int INITIAL_CAPACITY = 64 * 1024;

  private final Crc32c crc = new Crc32c();
  private final UnsafeBuffer entryView = new UnsafeBuffer(0, 0);
  private ByteBuffer bytes = ByteBuffer.allocateDirect(INITIAL_CAPACITY);
  private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

  /**
   * Assembles the frame of one entry, copied from {@code src} or written by {@code writer}.
   *
   * @return the frame, from position 0 to its length
   */
  ByteBuffer frame(
      long entryIndex,
      long asqn,
      DirectBuffer src,
      int srcOffset,
      int length,
      Journal.EntryWriter writer) {
    int frameLength = FrameLayout.frameLength(length);
    if (frameLength > bytes.capacity()) {
      bytes = ByteBuffer.allocateDirect(Math.max(frameLength, 2 * bytes.capacity()));
      buffer.wrap(bytes);
    }
    buffer.putInt(LENGTH_OFFSET, length);
    buffer.putInt(RESERVED_OFFSET, 0);
    buffer.putLong(INDEX_OFFSET, entryIndex);
    buffer.putLong(ASQN_OFFSET, asqn);
    if (writer != null) {
      entryView.wrap(BufferUtil.address(bytes) + DATA_OFFSET, length);
      writer.write(entryView, 0);
    } else {
      buffer.putBytes(DATA_OFFSET, src, srcOffset, length);
    }
    int dataEnd = DATA_OFFSET + length;
    buffer.setMemory(dataEnd, frameLength - dataEnd, (byte) 0); // padding, part of the file's zeros
    buffer.putInt(
        CHECKSUM_OFFSET, crc.compute(bytes, CHECKSUM_START, FrameLayout.checksumLength(length)));
    buffer.putInt(MARKER_OFFSET, MARKER_V1);
    bytes.clear().limit(frameLength);
    return bytes;
  }
}
