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
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads a segment's frames for a whole-segment scan (open-time recovery, building the sparse index
 * of a segment opened from its hint) with {@code pread(2)} into a private buffer, a window at a
 * time, instead of touching every page of the mapping. Measured on the 2-core VM, a segment of 128
 * MiB in the page cache: one long read per KiB through a fresh mapping took 38-46 ms, {@code pread}
 * of 1 MiB blocks touching the same longs 4.5-9 ms (the kernel copies through its own huge-page
 * mapping; the process's 4 KiB mappings cost a fault and TLB misses per page).
 *
 * <p>Checks exactly what {@link Segment#readFrame} checks. Frames larger than a window are left to
 * the caller ({@link #TOO_LARGE}), which reads them through the mapping. Not thread-safe; the bytes
 * read must be published (a scan never goes past the segment's published end while a writer runs).
 */
final class ScanWindow implements AutoCloseable {
  /** Bytes read per {@code pread}: large enough that the call's cost disappears. */
  static final int WINDOW_BYTES = 1024 * 1024;

  private static final int MAX_REOPENS = 3;

  /** {@link #frameAt} result: the frame does not fit in a window; read it through the mapping. */
  static final int TOO_LARGE = -2;

  private final Path file;
  private FileChannel channel;
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
   * @return the frame's length, {@link Segment#NO_FRAME}, {@link Segment#INVALID_FRAME} or {@link
   *     #TOO_LARGE}
   */
  int frameAt(int position, long expectedIndex, boolean verifyChecksum) {
    if (position > segmentBytes - HEADER_LENGTH) {
      return Segment.NO_FRAME;
    }
    load(position, HEADER_LENGTH);
    int offset = offset(position);
    int marker = window.getInt(offset + MARKER_OFFSET);
    if (marker == 0) {
      return Segment.NO_FRAME;
    }
    int length = window.getInt(offset + LENGTH_OFFSET);
    if (marker != MARKER_V1
        || length < 0
        || length > segmentBytes - position - HEADER_LENGTH
        || window.getLong(offset + INDEX_OFFSET) != expectedIndex) {
      return Segment.INVALID_FRAME;
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
        : Segment.INVALID_FRAME;
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
    // The channel is interruptible, the mapping it replaces was not: an interrupt of the reading
    // thread (a reader, the Raft thread truncating) must not fail the scan. The flag is set aside
    // and restored, and a channel closed by an interrupt during the read is reopened.
    boolean interrupted = Thread.interrupted();
    try {
      for (int reopened = 0; ; reopened++) {
        try {
          while (bytes.hasRemaining()) {
            if (channel.read(bytes, position + bytes.position()) < 0) {
              break;
            }
          }
          break;
        } catch (ClosedChannelException e) {
          interrupted |= Thread.interrupted();
          if (reopened >= MAX_REOPENS) {
            throw e;
          }
          channel = openChannel(file);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to read journal segment " + file + " at offset " + position, e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
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

  private static FileChannel openChannel(Path file) {
    try {
      return FileChannel.open(file, StandardOpenOption.READ);
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
