package io.tern.journal;

import static io.tern.journal.FrameLayout.HEADER_LENGTH;
import static io.tern.journal.FrameLayout.MARKER_OFFSET;

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What opening a journal does to one {@link Segment} (see {@link JournalLoader}): scanning its
 * frames to find where they end, or trusting the hint a sealed segment carries; zeroing a torn
 * tail; and, for a segment opened from its hint, building its sparse index the first time something
 * looks an entry up.
 */
final class SegmentRecovery {
  private final Segment segment;

  /** Whether the segment's sparse index covers its frames; false after open from a hint. */
  private volatile boolean indexed;

  SegmentRecovery(Segment segment) {
    this.segment = segment;
  }

  /** The sparse index needs no scan (a new segment, or one scanned already). */
  void markIndexed() {
    indexed = true;
  }

  /**
   * Walks the frames from the start, building the sparse index. Stops at the first position without
   * a frame, after {@code stopAfterIndex}, or at the first invalid frame. Reads through a {@link
   * ScanWindow} ({@code pread}) rather than the mapping, which is much faster for a whole segment.
   */
  ScanResult scan(boolean verifyChecksums, long stopAfterIndex) {
    SegmentFrames frames = segment.frames();
    SegmentIndex index = segment.index();
    ByteBuffer view = segment.newView();
    Crc32c crc = new Crc32c();
    RecordView record = new RecordView();
    index.clear();
    long runningAsqn = SegmentIndex.NONE;
    long runningAsqnIndex = SegmentIndex.NONE;
    int position = SegmentDescriptor.LENGTH;
    long next = segment.firstIndex();
    String invalidReason = null;
    try (ScanWindow window = new ScanWindow(segment.file(), segment.sizeBytes())) {
      while (next <= stopAfterIndex) {
        int frameLength = window.frameAt(position, next, verifyChecksums);
        long asqn;
        if (frameLength == ScanWindow.TOO_LARGE) {
          frameLength = frames.readFrame(position, next, view, crc, record);
          asqn = frameLength > 0 ? frames.asqnAt(position) : SegmentIndex.NONE;
        } else {
          asqn = frameLength > 0 ? window.asqnAt(position) : SegmentIndex.NONE;
        }
        if (frameLength == SegmentFrames.NO_FRAME) {
          break;
        }
        if (frameLength == SegmentFrames.INVALID_FRAME) {
          invalidReason = frames.describeInvalidFrame(position, next, view, crc);
          break;
        }
        if (asqn != Journal.ASQN_IGNORE) {
          runningAsqn = asqn;
          runningAsqnIndex = next;
        }
        if (index.isPoint(next)) {
          index.add(next, position, runningAsqn, runningAsqnIndex);
        }
        position += frameLength;
        next++;
      }
    }
    indexed = true;
    return new ScanResult(next - 1, position, invalidReason, runningAsqn, runningAsqnIndex);
  }

  /** Adopts the result of an open-time scan as the segment's state. */
  void adopt(ScanResult result) {
    segment
        .writer()
        .resume(
            result.endPosition(), result.lastIndex(), result.lastAsqn(), result.lastAsqnIndex());
    segment.flushes().resumeFlushedAt(result.endPosition());
  }

  /** Accepts a sealed segment's hint without scanning; the sparse index is built on first use. */
  void trustHint(long hintLastIndex, int hintEndPosition, long hintLastAsqn) {
    // The hint does not say which entry holds the last asqn; recomputeLastAsqn() finds it if the
    // segment becomes the writer's again.
    segment.writer().resume(hintEndPosition, hintLastIndex, hintLastAsqn, SegmentIndex.NONE);
    segment.flushes().resumeFlushedAt(hintEndPosition);
  }

  /**
   * Whether a frame marker sits at {@code position}: after a correct hint's end position there is
   * none (bytes after the last frame are zero, and a sealed segment is never written again).
   */
  boolean hasMarkerAt(int position) {
    return position >= SegmentDescriptor.LENGTH
        && position <= segment.sizeBytes() - HEADER_LENGTH
        && segment.buffer().getInt(position + MARKER_OFFSET) != 0;
  }

  /** Builds the sparse index of a segment opened from its hint, on first use. */
  void ensureIndexed() {
    if (indexed) {
      return;
    }
    synchronized (this) {
      if (indexed) {
        return;
      }
      long expectedLast = segment.lastIndex();
      ScanResult result = scan(false, expectedLast);
      if (result.lastIndex() != expectedLast) {
        throw new JournalException.CorruptedJournal(
            segment.file(),
            result.endPosition(),
            "segment hint says its last entry is "
                + expectedLast
                + " but frames end at entry "
                + result.lastIndex()
                + (result.invalidReason() == null ? "" : ": " + result.invalidReason()));
      }
    }
  }

  /** Zeroes everything from {@code position} to the end of the segment that is not zero yet. */
  void zeroFrom(int position) {
    int sizeBytes = segment.sizeBytes();
    UnsafeBuffer buffer = segment.buffer();
    int chunk = 64 * 1024;
    int dirtyFrom = -1;
    int dirtyTo = -1;
    for (int start = position; start < sizeBytes; start += chunk) {
      int length = Math.min(chunk, sizeBytes - start);
      if (!isZero(buffer, start, length)) {
        buffer.setMemory(start, length, (byte) 0);
        dirtyFrom = dirtyFrom < 0 ? start : dirtyFrom;
        dirtyTo = start + length;
      }
    }
    if (dirtyFrom >= 0) {
      segment.force(dirtyFrom, dirtyTo - dirtyFrom);
    }
  }

  private static boolean isZero(UnsafeBuffer buffer, int start, int length) {
    int end = start + length;
    int i = start;
    for (; i + 8 <= end; i += 8) {
      if (buffer.getLong(i) != 0) {
        return false;
      }
    }
    for (; i < end; i++) {
      if (buffer.getByte(i) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Outcome of {@link #scan}: the last valid entry, where frames end, and why they ended. */
  record ScanResult(
      long lastIndex, int endPosition, String invalidReason, long lastAsqn, long lastAsqnIndex) {}
}
