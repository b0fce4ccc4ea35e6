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
 * The writer's buffer: frames (header, data, zero padding, checksum, marker) are assembled back to
 * back here and written to the segment together, in one positional write, when the journal
 * publishes them (see {@link Journal#publish()}) or the buffer is full. One large write instead of
 * one per entry: the system call's fixed cost was most of the cost of appending small entries. A
 * frame larger than the buffer grows it.
 */
final class FrameStaging {
  /** The most bytes of frames held before they are written out, unless one frame is larger. */
  static final int WRITE_BUFFER_BYTES = 256 * 1024;

  private final Crc32c crc = new Crc32c();
  private final UnsafeBuffer entryView = new UnsafeBuffer(0, 0);
  private ByteBuffer bytes = ByteBuffer.allocateDirect(WRITE_BUFFER_BYTES);
  private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
  private int fill;

  boolean isEmpty() {
    return fill == 0;
  }

  boolean hasRoomFor(int frameLength) {
    return fill + frameLength <= bytes.capacity();
  }

  /** Makes room for one frame of {@code frameLength}; only when empty. */
  void growFor(int frameLength) {
    assert fill == 0 : "growing a buffer that still holds frames";
    if (frameLength > bytes.capacity()) {
      bytes = ByteBuffer.allocateDirect(frameLength);
      buffer.wrap(bytes);
    }
  }

  /**
   * Assembles the frame of one entry after the frames already held, copied from {@code src} or
   * written by {@code writer}. The caller checked {@link #hasRoomFor}.
   */
  void add(
      long entryIndex,
      long asqn,
      DirectBuffer src,
      int srcOffset,
      int length,
      Journal.EntryWriter writer) {
    int at = fill;
    int frameLength = FrameLayout.frameLength(length);
    assert at + frameLength <= bytes.capacity() : "no room for a frame of " + frameLength;
    buffer.putInt(at + LENGTH_OFFSET, length);
    buffer.putInt(at + RESERVED_OFFSET, 0);
    buffer.putLong(at + INDEX_OFFSET, entryIndex);
    buffer.putLong(at + ASQN_OFFSET, asqn);
    if (writer != null) {
      entryView.wrap(BufferUtil.address(bytes) + at + DATA_OFFSET, length);
      writer.write(entryView, 0);
    } else {
      buffer.putBytes(at + DATA_OFFSET, src, srcOffset, length);
    }
    int dataEnd = at + DATA_OFFSET + length;
    buffer.setMemory(dataEnd, at + frameLength - dataEnd, (byte) 0); // padding: the file's zeros
    buffer.putInt(
        at + CHECKSUM_OFFSET,
        crc.compute(bytes, at + CHECKSUM_START, FrameLayout.checksumLength(length)));
    buffer.putInt(at + MARKER_OFFSET, MARKER_V1);
    fill = at + frameLength;
  }

  /** The frames held, from position 0 to their end. */
  ByteBuffer frames() {
    bytes.clear().limit(fill);
    return bytes;
  }

  void clear() {
    fill = 0;
  }
}
