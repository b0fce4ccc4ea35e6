package io.tern.journal;

import static io.tern.journal.FrameLayout.ASQN_OFFSET;
import static io.tern.journal.FrameLayout.CHECKSUM_OFFSET;
import static io.tern.journal.FrameLayout.CHECKSUM_START;
import static io.tern.journal.FrameLayout.DATA_OFFSET;
import static io.tern.journal.FrameLayout.HEADER_LENGTH;
import static io.tern.journal.FrameLayout.INDEX_OFFSET;
import static io.tern.journal.FrameLayout.LENGTH_OFFSET;
import static io.tern.journal.FrameLayout.MARKER_OFFSET;
import static io.tern.journal.FrameLayout.MARKER_V1;

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reading one {@link Segment}'s frames through its mapping: checking a frame, and finding entries
 * by index or by asqn with the segment's sparse {@link SegmentIndex}. Any thread; callers hold a
 * reference to the segment and read only published frames. Holds no state of its own: callers pass
 * the view and checksum they own.
 */
final class SegmentFrames {
  /** {@link #readFrame} result: no frame is published at this position. */
  static final int NO_FRAME = 0;

  /** {@link #readFrame} result: the bytes at this position are not a valid frame. */
  static final int INVALID_FRAME = -1;

  private final Segment segment;
  private final UnsafeBuffer buffer;
  private final int sizeBytes;

  SegmentFrames(Segment segment) {
    this.segment = segment;
    this.buffer = segment.buffer();
    this.sizeBytes = segment.sizeBytes();
  }

  /**
   * Reads the frame at {@code position} into {@code record}, checking marker, bounds, index and
   * checksum.
   *
   * @param view a view of the segment's mapping ({@link Segment#newView()}) the caller owns
   * @return the frame length, {@link #NO_FRAME} if nothing is published there, or {@link
   *     #INVALID_FRAME}
   */
  int readFrame(int position, long expectedIndex, ByteBuffer view, Crc32c crc, RecordView record) {
    assert segment.isRetained() : "read from released segment " + segment;
    int frameLength = readHeaderOnly(position, expectedIndex);
    if (frameLength <= 0) {
      return frameLength;
    }
    int length = buffer.getInt(position + LENGTH_OFFSET);
    int checksum = buffer.getInt(position + CHECKSUM_OFFSET);
    if (crc.compute(view, position + CHECKSUM_START, FrameLayout.checksumLength(length))
        != checksum) {
      return INVALID_FRAME;
    }
    record.wrap(
        expectedIndex,
        buffer.getLong(position + ASQN_OFFSET),
        checksum,
        segment.address() + position + DATA_OFFSET,
        length);
    return frameLength;
  }

  /** Checks marker, bounds and index without the checksum; returns as {@link #readFrame}. */
  private int readHeaderOnly(int position, long expectedIndex) {
    if (position > sizeBytes - HEADER_LENGTH) {
      return NO_FRAME;
    }
    int marker = buffer.getIntAcquire(position + MARKER_OFFSET);
    if (marker == 0) {
      return NO_FRAME;
    }
    int length = buffer.getInt(position + LENGTH_OFFSET);
    if (marker != MARKER_V1
        || length < 0
        || length > sizeBytes - position - HEADER_LENGTH
        || buffer.getLong(position + INDEX_OFFSET) != expectedIndex) {
      return INVALID_FRAME;
    }
    return FrameLayout.frameLength(length);
  }

  /** Why the frame at {@code position} is invalid; slow, only for error messages. */
  String describeInvalidFrame(int position, long expectedIndex, ByteBuffer view, Crc32c crc) {
    if (position > sizeBytes - HEADER_LENGTH) {
      return "frame header would pass the end of the segment";
    }
    int marker = buffer.getIntVolatile(position + MARKER_OFFSET);
    if (marker == 0) {
      return "no frame marker (entry " + expectedIndex + " missing)";
    }
    if (marker != MARKER_V1) {
      return "unknown frame marker 0x" + Integer.toHexString(marker);
    }
    int length = buffer.getInt(position + LENGTH_OFFSET);
    if (length < 0 || length > sizeBytes - position - HEADER_LENGTH) {
      return "frame length " + length + " out of bounds";
    }
    long actualIndex = buffer.getLong(position + INDEX_OFFSET);
    if (actualIndex != expectedIndex) {
      return "expected entry index " + expectedIndex + " but found " + actualIndex;
    }
    int actual = crc.compute(view, position + CHECKSUM_START, FrameLayout.checksumLength(length));
    return "checksum mismatch for entry "
        + expectedIndex
        + " (stored 0x"
        + Integer.toHexString(buffer.getInt(position + CHECKSUM_OFFSET))
        + ", computed 0x"
        + Integer.toHexString(actual)
        + ")";
  }

  /** Header-only read of a published frame's length; the caller knows the frame exists. */
  int frameLengthAt(int position) {
    return FrameLayout.frameLength(buffer.getInt(position + LENGTH_OFFSET));
  }

  long asqnAt(int position) {
    return buffer.getLong(position + ASQN_OFFSET);
  }

  // ---------------------------------------------------------------- finding entries

  /** Position of the frame with {@code entryIndex}; it must be in this segment. */
  int positionOf(long entryIndex) {
    long firstIndex = segment.firstIndex();
    assert entryIndex >= firstIndex && entryIndex <= segment.lastIndex() + 1;
    segment.recovery().ensureIndexed();
    SegmentIndex.Point point = segment.index().floor(entryIndex);
    long current = point == null ? firstIndex : point.index();
    int position = point == null ? SegmentDescriptor.LENGTH : point.position();
    while (current < entryIndex) {
      position += frameLengthAt(position);
      current++;
    }
    return position;
  }

  /** Position just after the frame with {@code entryIndex}. */
  int positionAfter(long entryIndex) {
    int position = positionOf(entryIndex);
    return position + frameLengthAt(position);
  }

  /**
   * The last non-ignored asqn among entries up to {@code entryIndex} in this segment and its index,
   * as {@code [asqn, index]}, or {@code [NONE, NONE]}.
   */
  long[] lastAsqnUpTo(long entryIndex) {
    long firstIndex = segment.firstIndex();
    if (entryIndex < firstIndex) {
      return new long[] {SegmentIndex.NONE, SegmentIndex.NONE};
    }
    segment.recovery().ensureIndexed();
    SegmentIndex.Point point = segment.index().floor(entryIndex);
    long asqn = point == null ? SegmentIndex.NONE : point.asqnUpTo();
    long asqnIndex = point == null ? SegmentIndex.NONE : point.asqnIndexUpTo();
    long current = point == null ? firstIndex : point.index() + 1;
    int position =
        point == null
            ? SegmentDescriptor.LENGTH
            : point.position() + frameLengthAt(point.position());
    while (current <= entryIndex) {
      long frameAsqn = asqnAt(position);
      if (frameAsqn != Journal.ASQN_IGNORE) {
        asqn = frameAsqn;
        asqnIndex = current;
      }
      position += frameLengthAt(position);
      current++;
    }
    return new long[] {asqn, asqnIndex};
  }

  /** The first non-ignored asqn in this segment, or {@link SegmentIndex#NONE}. */
  long firstAsqn() {
    long last = segment.lastIndex();
    int position = SegmentDescriptor.LENGTH;
    for (long current = segment.firstIndex(); current <= last; current++) {
      long asqn = asqnAt(position);
      if (asqn != Journal.ASQN_IGNORE) {
        return asqn;
      }
      position += frameLengthAt(position);
    }
    return SegmentIndex.NONE;
  }

  /**
   * Index of the entry with the largest asqn {@code <= asqn} in this segment, or {@link
   * SegmentIndex#NONE}.
   */
  long indexOfAsqnFloor(long asqn) {
    segment.recovery().ensureIndexed();
    long last = segment.lastIndex(); // published; index points of staged entries lie beyond it
    SegmentIndex.Point point = segment.index().floorByAsqn(asqn, last);
    long best = SegmentIndex.NONE;
    long current = segment.firstIndex();
    int position = SegmentDescriptor.LENGTH;
    if (point != null) {
      best = point.asqnUpTo() == SegmentIndex.NONE ? SegmentIndex.NONE : point.asqnIndexUpTo();
      current = point.index() + 1;
      position = point.position() + frameLengthAt(point.position());
    }
    for (; current <= last; current++) {
      long frameAsqn = asqnAt(position);
      if (frameAsqn != Journal.ASQN_IGNORE) {
        if (frameAsqn > asqn) {
          break;
        }
        best = current;
      }
      position += frameLengthAt(position);
    }
    return best;
  }
}
