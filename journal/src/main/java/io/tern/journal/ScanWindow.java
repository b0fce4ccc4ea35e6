package io.tern.journal;

import static io.tern.journal.FrameLayout.ASQN_OFFSET;
import static io.tern.journal.FrameLayout.CHECKSUM_OFFSET;
import static io.tern.journal.FrameLayout.CHECKSUM_START;
import static io.tern.journal.FrameLayout.HEADER_LENGTH;
import static io.tern.journal.FrameLayout.INDEX_OFFSET;
import static io.tern.journal.FrameLayout.LENGTH_OFFSET;
import static io.tern.journal.FrameLayout.MARKER_OFFSET;
import static io.tern.journal.FrameLayout.MARKER_V1;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads a segment's frames for a whole-segment scan (open-time recovery, building the sparse index
 * of a segment opened from its hint) with {@code pread(2)} into a private buffer, a window at a
 * time, instead of touching every page of the mapping: the kernel copies through its own huge-page
 * mapping, while the process's 4 KiB mappings cost a fault and TLB misses per page. Several times
 * faster when reopening after a crash (see {@code
 * docs/experiments/2026-11-27-journal-and-raft-measurements.md}).
 *
 * <p>Checks exactly what {@link SegmentFrames#readFrame} checks. Frames larger than a window are
 * left to the caller ({@link #TOO_LARGE}), which reads them through the mapping. Not thread-safe;
 * the bytes read must be published (a scan never goes past the segment's published end while a
 * writer runs).
 */
final class ScanWindow implements AutoCloseable {
  /** Bytes read per {@code pread}: large enough that the call's cost disappears. */
  static final int WINDOW_BYTES = 1024 * 1024;

  /** {@link #frameAt} result: the frame does not fit in a window; read it through the mapping. */
  static final int TOO_LARGE = -2;

  private final Path file;
  private final InterruptSafeChannel channel;
  private final int segmentBytes;
  private final ByteBuffer bytes;
  private final UnsafeBuffer window;
  private final Crc32c crc = new Crc32c();
  private long windowStart;
  private int windowLength;

  ScanWindow(Path file, int segmentBytes) {
    this.file = file;
    this.channel = openChannel(file);
    this.segmentBytes = segmentBytes;
    this.bytes = ByteBuffer.allocateDirect(Math.min(WINDOW_BYTES, segmentBytes));
    this.window = new UnsafeBuffer(bytes);
  }

  /**
   * Checks the frame at {@code position}.
   *
   * @param verifyChecksum false: marker, bounds and index only, as {@code readHeaderOnly}
   * @return the frame's length, {@link SegmentFrames#NO_FRAME}, {@link SegmentFrames#INVALID_FRAME}
   *     or {@link #TOO_LARGE}
   */
  int frameAt(int position, long expectedIndex, boolean verifyChecksum) {
    if (position > segmentBytes - HEADER_LENGTH) {
      return SegmentFrames.NO_FRAME;
    }
    load(position, HEADER_LENGTH);
    int offset = offset(position);
    int marker = window.getInt(offset + MARKER_OFFSET);
    if (marker == 0) {
      return SegmentFrames.NO_FRAME;
    }
    int length = window.getInt(offset + LENGTH_OFFSET);
    if (marker != MARKER_V1
        || length < 0
        || length > segmentBytes - position - HEADER_LENGTH
        || window.getLong(offset + INDEX_OFFSET) != expectedIndex) {
      return SegmentFrames.INVALID_FRAME;
    }
    if (!verifyChecksum) {
      return FrameLayout.frameLength(length);
    }
    if (HEADER_LENGTH + length > bytes.capacity()) {
      return TOO_LARGE;
    }
    load(position, HEADER_LENGTH + length);
    offset = offset(position);
    int computed = crc.compute(bytes, offset + CHECKSUM_START, FrameLayout.checksumLength(length));
    return computed == window.getInt(offset + CHECKSUM_OFFSET)
        ? FrameLayout.frameLength(length)
        : SegmentFrames.INVALID_FRAME;
  }

  /** The asqn of the frame {@link #frameAt} just accepted at {@code position}. */
  long asqnAt(int position) {
    return window.getLong(offset(position) + ASQN_OFFSET);
  }

  /** Makes {@code [position, position + length)} readable; the caller keeps it within a window. */
  private void load(int position, int length) {
    if (position >= windowStart && position + length <= windowStart + windowLength) {
      return;
    }
    int wanted = (int) Math.min(bytes.capacity(), (long) segmentBytes - position);
    bytes.clear().limit(wanted);
    // Interrupt-safe: the mapping this replaces was not interruptible, and an interrupt of the
    // reading thread (a reader, the Raft thread truncating) must not fail the scan.
    try {
      channel.readFully(bytes, position);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to read journal segment " + file + " at offset " + position, e);
    }
    windowStart = position;
    windowLength = bytes.position();
    if (windowLength < length) {
      // The file is shorter than its mapping: only possible if it was truncated behind our back.
      throw new UncheckedIOException(
          new IOException(
              "Journal segment "
                  + file
                  + " ends at "
                  + (position + windowLength)
                  + " before its mapped size "
                  + segmentBytes));
    }
  }

  private static InterruptSafeChannel openChannel(Path file) {
    try {
      return InterruptSafeChannel.open(file, StandardOpenOption.READ);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open journal segment " + file + " for reading", e);
    }
  }

  private int offset(int position) {
    return (int) (position - windowStart);
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to close a journal segment's scan channel", e);
    }
  }
}
