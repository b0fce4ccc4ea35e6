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
import static io.tern.journal.FrameLayout.RESERVED_OFFSET;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One memory-mapped segment file: a {@link SegmentDescriptor} followed by frames ({@link
 * FrameLayout}). The writer thread appends; readers read published frames concurrently.
 *
 * <p>Lifetime: the journal holds one reference; each reader holds one on the segment it is
 * positioned in. A deleted segment is unmapped when its last reference is released, so a reader
 * never touches unmapped memory.
 */
final class Segment {
  private static final Logger LOG = LoggerFactory.getLogger(Segment.class);

  /** {@link #readFrame} result: no frame is published at this position. */
  static final int NO_FRAME = 0;

  /** {@link #readFrame} result: the bytes at this position are not a valid frame. */
  static final int INVALID_FRAME = -1;

  /** Reopens of the write channel per write after it was closed under us (by an interrupt). */
  private static final int MAX_CHANNEL_REOPENS = 3;

  private final Path file;
  private final long id;
  private final long firstIndex;
  private final int sizeBytes;
  private final MappedByteBuffer mapped;
  private final UnsafeBuffer buffer;
  private final long address;
  private final SegmentIndex index;
  private final AtomicInteger references = new AtomicInteger(1);

  /**
   * {@link JournalConfig.WriteMode#PWRITE}: frames and flush records go through {@link #channel}.
   */
  private final boolean channelWrites;

  /**
   * Open for the segment's life in PWRITE mode (null in MMAP mode): the writer appends through it
   * and the flusher writes flush records; positional writes need no coordination between them.
   */
  private volatile FileChannel channel;

  // Writer-thread state.
  private final ByteBuffer writerView;
  private final Crc32c writerCrc = new Crc32c();
  private final UnsafeBuffer entryView = new UnsafeBuffer(0, 0);
  private long lastAsqn = SegmentIndex.NONE;
  private long lastAsqnIndex = SegmentIndex.NONE;

  /**
   * Where the writer's frames end and the last of them, including frames still held in the
   * journal's {@link FrameStaging} (PWRITE mode); {@link #endPosition} and {@link #lastIndex} trail
   * them until {@link #writeStaged} publishes those frames.
   */
  private int appendPosition = SegmentDescriptor.LENGTH;

  private long appendLastIndex;

  /** Position of the first frame in the staging buffer; meaningful while it holds frames. */
  private int stagedFrom;

  // Published state, read by readers and the flusher.
  private volatile int endPosition = SegmentDescriptor.LENGTH;
  private volatile long lastIndex;
  private volatile boolean indexed;
  private volatile boolean deleted;

  /**
   * {@link JournalConfig.Preallocation#ZERO_FILL} and {@link
   * JournalConfig.Preallocation#ZERO_ON_FLUSH}: keeps the writer and whoever writes zeros ahead of
   * it apart; null until the segment first becomes the writer's, and never replaced.
   */
  private volatile ZeroFillFence zeroFillFence;

  // Flusher state (guarded by the journal's flush lock).
  private int flushedPosition;
  private volatile boolean descriptorDirty;
  private final ByteBuffer flushView;
  private final Crc32c flushCrc = new Crc32c();
  private long flushSequence;
  private int zerosToForceEnd; // ZERO_ON_FLUSH: end of zeros written since the last flush
  private boolean zerosOvertakenReported; // ZERO_ON_FLUSH, flush lock held
  private final ByteBuffer flushRecordView =
      ByteBuffer.allocateDirect(SegmentDescriptor.FLUSH_SLOT_LENGTH);
  private final UnsafeBuffer flushRecordBuffer = new UnsafeBuffer(flushRecordView);

  private Segment(
      Path file,
      MappedByteBuffer mapped,
      long id,
      long firstIndex,
      int density,
      JournalConfig.WriteMode writeMode) {
    this.file = file;
    this.channelWrites = writeMode == JournalConfig.WriteMode.PWRITE;
    try {
      this.channel = channelWrites ? FileChannel.open(file, StandardOpenOption.WRITE) : null;
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open journal segment " + file + " for writing", e);
    }
    this.mapped = mapped;
    this.buffer = new UnsafeBuffer(mapped);
    this.address = BufferUtil.address(mapped);
    this.writerView = mapped.duplicate();
    this.flushView = mapped.duplicate();
    this.id = id;
    this.firstIndex = firstIndex;
    this.sizeBytes = mapped.capacity();
    this.index = new SegmentIndex(firstIndex, density);
    this.lastIndex = firstIndex - 1;
    this.appendLastIndex = firstIndex - 1;
  }

  /** Maps a file of exactly {@code sizeBytes}. */
  static MappedByteBuffer map(Path file, int sizeBytes) {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      if (channel.size() != sizeBytes) {
        throw new JournalException(
            "Segment file " + file + " has " + channel.size() + " bytes, expected " + sizeBytes);
      }
      return channel.map(FileChannel.MapMode.READ_WRITE, 0, sizeBytes);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to map journal segment " + file, e);
    }
  }

  /** Starts a preallocated (zeroed) file as a new, empty segment. */
  static Segment initialize(
      Path file,
      MappedByteBuffer mapped,
      long id,
      long firstIndex,
      int den,
      JournalConfig.WriteMode writeMode) {
    Segment segment = new Segment(file, mapped, id, firstIndex, den, writeMode);
    SegmentDescriptor.write(
        segment.buffer, segment.writerView, segment.writerCrc, id, firstIndex, mapped.capacity());
    segment.descriptorDirty = true;
    segment.flushedPosition = SegmentDescriptor.LENGTH;
    segment.indexed = true;
    return segment;
  }

  /** Wraps an existing segment whose descriptor was validated by the caller. */
  static Segment existing(
      Path file, MappedByteBuffer mapped, int density, JournalConfig.WriteMode writeMode) {
    UnsafeBuffer descriptor = new UnsafeBuffer(mapped);
    return new Segment(
        file,
        mapped,
        SegmentDescriptor.id(descriptor),
        SegmentDescriptor.firstIndex(descriptor),
        density,
        writeMode);
  }

  Path file() {
    return file;
  }

  long id() {
    return id;
  }

  long firstIndex() {
    return firstIndex;
  }

  long lastIndex() {
    return lastIndex;
  }

  int endPosition() {
    return endPosition;
  }

  boolean isEmpty() {
    return lastIndex < firstIndex;
  }

  UnsafeBuffer buffer() {
    return buffer;
  }

  ByteBuffer newView() {
    return mapped.duplicate();
  }

  MappedByteBuffer mapped() {
    return mapped;
  }

  long address() {
    return address;
  }

  // ---------------------------------------------------------------- writer

  /**
   * Appends one frame, copying from {@code src} or letting {@code writer} serialize in place.
   *
   * @return false when the frame does not fit in the rest of this segment
   */
  boolean append(
      long entryIndex,
      long asqn,
      DirectBuffer src,
      int srcOffset,
      int length,
      Journal.EntryWriter writer,
      FrameStaging staging) {
    assert entryIndex == appendLastIndex + 1
        : "expected index " + (appendLastIndex + 1) + ": " + entryIndex;
    assert references.get() > 0 && !deleted : "append to released segment " + this;
    int position = appendPosition;
    int frameLength = FrameLayout.frameLength(length);
    if ((long) position + frameLength > sizeBytes) {
      return false;
    }
    ZeroFillFence fence = zeroFillFence;
    if (fence != null) {
      fence.beforeWrite(position + frameLength);
    }
    if (channelWrites) {
      if (!staging.hasRoomFor(frameLength)) {
        writeStaged(staging);
        staging.growFor(frameLength);
      }
      if (staging.isEmpty()) {
        stagedFrom = position;
      }
      staging.add(entryIndex, asqn, src, srcOffset, length, writer);
      onFrameAppended(entryIndex, asqn, position, frameLength);
      return true;
    }
    buffer.putInt(position + LENGTH_OFFSET, length);
    buffer.putInt(position + RESERVED_OFFSET, 0);
    buffer.putLong(position + INDEX_OFFSET, entryIndex);
    buffer.putLong(position + ASQN_OFFSET, asqn);
    if (writer != null) {
      entryView.wrap(address + position + DATA_OFFSET, length);
      writer.write(entryView, 0);
    } else {
      buffer.putBytes(position + DATA_OFFSET, src, srcOffset, length);
    }
    // Padding after the data is zero: bytes after the last frame always are.
    int checksum =
        writerCrc.compute(
            writerView, position + CHECKSUM_START, FrameLayout.checksumLength(length));
    buffer.putInt(position + CHECKSUM_OFFSET, checksum);
    buffer.putIntRelease(position + MARKER_OFFSET, MARKER_V1);
    onFrameAppended(entryIndex, asqn, position, frameLength);
    publishAppended();
    return true;
  }

  /**
   * Writes the frames held in {@code staging} (all of this segment's, appended last) to the file
   * and publishes them to readers and the flusher. Writer thread only.
   */
  void writeStaged(FrameStaging staging) {
    if (!staging.isEmpty()) {
      writeThroughChannel(stagedFrom, staging.frames());
      staging.clear();
      publishAppended();
    }
  }

  private void publishAppended() {
    endPosition = appendPosition;
    lastIndex = appendLastIndex;
  }

  /**
   * Writes {@code bytes} at {@code position} with positional writes. Readers find the frame only
   * after {@link #onFrameAppended} publishes it, so the order in which the kernel copies the bytes
   * does not matter to them.
   */
  private void writeThroughChannel(int position, ByteBuffer bytes) {
    // A FileChannel is interruptible: a write by a thread whose interrupt flag is set closes it
    // for every thread that uses it. Nobody's interrupt may break the journal, so the flag is set
    // aside during the write (and restored), and a channel closed by another thread's interrupt
    // is reopened; positional writes can simply be repeated.
    boolean interrupted = Thread.interrupted();
    int start = bytes.position();
    try {
      for (int reopened = 0; ; reopened++) {
        FileChannel current = channel;
        try {
          while (bytes.hasRemaining()) {
            current.write(bytes, position + (long) (bytes.position() - start));
          }
          return;
        } catch (ClosedChannelException e) {
          interrupted |= Thread.interrupted();
          if (references.get() <= 0 || reopened >= MAX_CHANNEL_REOPENS) {
            throw e; // the segment was released, or something keeps closing it
          }
          reopenChannel(current);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to write to journal segment " + file + " at offset " + position, e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Replaces {@code closed} with a new channel unless another thread did already. */
  private synchronized void reopenChannel(FileChannel closed) throws IOException {
    if (channel == closed && references.get() > 0) {
      channel = FileChannel.open(file, StandardOpenOption.WRITE);
    }
  }

  private void onFrameAppended(long entryIndex, long asqn, int position, int frameLength) {
    if (asqn != Journal.ASQN_IGNORE) {
      lastAsqn = asqn;
      lastAsqnIndex = entryIndex;
    }
    if (index.isPoint(entryIndex)) {
      index.add(entryIndex, position, lastAsqn, lastAsqnIndex);
    }
    appendPosition = position + frameLength;
    appendLastIndex = entryIndex;
  }

  /** Sets where frames end, for the writer and readers alike (nothing is staged). */
  private void setEnd(int position, long index) {
    appendPosition = position;
    appendLastIndex = index;
    endPosition = position;
    lastIndex = index;
  }

  /** Records where the writer stopped; open uses it to skip scanning this segment. */
  void seal() {
    assert appendLastIndex == lastIndex : "sealing " + this + " with frames still staged";
    SegmentDescriptor.writeHint(buffer, writerView, writerCrc, lastIndex, endPosition, lastAsqn);
    descriptorDirty = true;
  }

  /**
   * Clears the hint of a segment that stays (or becomes again) the writer's: after a roll that
   * failed to create the next segment, or at open. A stale hint that reached the disk next to a
   * flush record vouching for later entries of this segment would make the next open trust it and
   * lose them. The next flush forces the descriptor.
   */
  void unseal() {
    if (SegmentDescriptor.hintLastIndex(buffer, writerView, writerCrc)
        != SegmentDescriptor.NO_HINT) {
      SegmentDescriptor.clearHint(buffer);
      descriptorDirty = true;
    }
  }

  /**
   * Whether a frame marker sits at {@code position}: after a correct hint's end position there is
   * none (bytes after the last frame are zero, and a sealed segment is never written again).
   */
  boolean hasMarkerAt(int position) {
    return position >= SegmentDescriptor.LENGTH
        && position <= sizeBytes - HEADER_LENGTH
        && buffer.getInt(position + MARKER_OFFSET) != 0;
  }

  /**
   * Removes the frames after {@code afterIndex}: zeroes them (keeping the invariant that bytes
   * after the last frame are zero, so no stale frame can reappear) and forces the change to disk.
   * Clears the hint: the segment becomes the writer's segment again.
   */
  void truncateAfter(long afterIndex) {
    assert afterIndex >= firstIndex - 1 && afterIndex <= lastIndex;
    assert appendLastIndex == lastIndex : "truncating " + this + " with frames still staged";
    ensureIndexed();
    if (afterIndex == lastIndex) {
      SegmentDescriptor.clearHint(buffer);
      force(0, SegmentDescriptor.LENGTH);
      return;
    }
    int from = afterIndex < firstIndex ? SegmentDescriptor.LENGTH : positionAfter(afterIndex);
    int to = endPosition;
    buffer.setMemory(from, to - from, (byte) 0);
    SegmentDescriptor.clearHint(buffer);
    force(0, to);
    index.truncateAfter(afterIndex);
    setEnd(from, afterIndex);
    flushedPosition = Math.min(flushedPosition, from);
    recomputeLastAsqn();
  }

  /**
   * Recomputes the last asqn and its index by scanning; needed when the segment becomes the
   * writer's again after it was opened from its hint.
   */
  void recomputeLastAsqn() {
    long[] asqnAndIndex = lastAsqnUpTo(lastIndex);
    lastAsqn = asqnAndIndex[0];
    lastAsqnIndex = asqnAndIndex[1];
  }

  /** The last asqn in this segment. {@link SegmentIndex#NONE} if none. */
  long lastAsqn() {
    return lastAsqn;
  }

  // ---------------------------------------------------------------- reading

  /**
   * Reads the frame at {@code position} into {@code record}, checking marker, bounds, index and
   * checksum.
   *
   * @return the frame length, {@link #NO_FRAME} if nothing is published there, or {@link
   *     #INVALID_FRAME}
   */
  int readFrame(int position, long expectedIndex, ByteBuffer view, Crc32c crc, RecordView record) {
    assert references.get() > 0 : "read from released segment " + this;
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
        address + position + DATA_OFFSET,
        length);
    return frameLength;
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

  /** Position of the frame with {@code entryIndex}; it must be in this segment. */
  int positionOf(long entryIndex) {
    assert entryIndex >= firstIndex && entryIndex <= lastIndex + 1;
    ensureIndexed();
    SegmentIndex.Point point = index.floor(entryIndex);
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
    if (entryIndex < firstIndex) {
      return new long[] {SegmentIndex.NONE, SegmentIndex.NONE};
    }
    ensureIndexed();
    SegmentIndex.Point point = index.floor(entryIndex);
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
    long last = lastIndex;
    int position = SegmentDescriptor.LENGTH;
    for (long current = firstIndex; current <= last; current++) {
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
    ensureIndexed();
    long last = lastIndex; // published; index points of staged entries lie beyond it
    SegmentIndex.Point point = index.floorByAsqn(asqn, last);
    long best = SegmentIndex.NONE;
    long current = firstIndex;
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

  // ---------------------------------------------------------------- open-time scan

  /**
   * Walks the frames from the start, building the sparse index. Stops at the first position without
   * a frame, after {@code stopAfterIndex}, or at the first invalid frame. Reads through a {@link
   * ScanWindow} (pread) rather than the mapping: several times faster for a whole segment.
   */
  ScanResult scan(boolean verifyChecksums, long stopAfterIndex) {
    ByteBuffer view = newView();
    Crc32c crc = new Crc32c();
    RecordView record = new RecordView();
    index.clear();
    long runningAsqn = SegmentIndex.NONE;
    long runningAsqnIndex = SegmentIndex.NONE;
    int position = SegmentDescriptor.LENGTH;
    long next = firstIndex;
    String invalidReason = null;
    try (ScanWindow window = new ScanWindow(file, sizeBytes)) {
      while (next <= stopAfterIndex) {
        int frameLength = window.frameAt(position, next, verifyChecksums);
        long asqn;
        if (frameLength == ScanWindow.TOO_LARGE) {
          frameLength = readFrame(position, next, view, crc, record);
          asqn = frameLength > 0 ? asqnAt(position) : SegmentIndex.NONE;
        } else {
          asqn = frameLength > 0 ? window.asqnAt(position) : SegmentIndex.NONE;
        }
        if (frameLength == NO_FRAME) {
          break;
        }
        if (frameLength == INVALID_FRAME) {
          invalidReason = describeInvalidFrame(position, next, view, crc);
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

  /** Adopts the result of an open-time scan as this segment's state (writer thread). */
  void adopt(ScanResult result) {
    lastAsqn = result.lastAsqn();
    lastAsqnIndex = result.lastAsqnIndex();
    setEnd(result.endPosition(), result.lastIndex());
    flushedPosition = result.endPosition();
  }

  /**
   * After a crash, frames found by the open-time scan may exist only in the page cache (a killed
   * process leaves its writes there): the next flush must force all of them, not only what was
   * written since the open.
   */
  void forgetFlushed() {
    flushedPosition = SegmentDescriptor.LENGTH;
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

  /** Accepts a sealed segment's hint without scanning; the sparse index is built on first use. */
  void trustHint(long hintLastIndex, int hintEndPosition, long hintLastAsqn) {
    setEnd(hintEndPosition, hintLastIndex);
    this.flushedPosition = hintEndPosition;
    this.lastAsqn = hintLastAsqn;
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
      long expectedLast = lastIndex;
      ScanResult result = scan(false, expectedLast);
      if (result.lastIndex() != expectedLast) {
        throw new JournalException.CorruptedJournal(
            file,
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
    int chunk = 64 * 1024;
    int dirtyFrom = -1;
    int dirtyTo = -1;
    for (int start = position; start < sizeBytes; start += chunk) {
      int length = Math.min(chunk, sizeBytes - start);
      if (!isZero(start, length)) {
        buffer.setMemory(start, length, (byte) 0);
        dirtyFrom = dirtyFrom < 0 ? start : dirtyFrom;
        dirtyTo = start + length;
      }
    }
    if (dirtyFrom >= 0) {
      force(dirtyFrom, dirtyTo - dirtyFrom);
    }
  }

  private boolean isZero(int start, int length) {
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

  // ---------------------------------------------------------------- flushing

  /**
   * Forces the frames written since the last flush, and the descriptor if it changed (or if {@code
   * withDescriptor}), in one msync. Called under the journal's flush lock.
   *
   * @return bytes in the forced ranges that were written since the last flush
   */
  long flush(boolean withDescriptor) {
    int end = endPosition;
    long bytes = Math.max(0, end - flushedPosition);
    // Zeros written ahead by zeroAhead() go to disk in the same sync as the frames.
    int forceEnd = Math.max(end, zerosToForceEnd);
    zerosToForceEnd = 0;
    if (withDescriptor || descriptorDirty) {
      descriptorDirty = false;
      force(0, forceEnd);
      bytes += SegmentDescriptor.LENGTH;
    } else if (forceEnd > flushedPosition) {
      force(flushedPosition, forceEnd - flushedPosition);
    }
    flushedPosition = Math.max(flushedPosition, end);
    return bytes;
  }

  /** Bytes of published frames not yet forced; flush lock held. */
  int unflushedBytes() {
    return Math.max(0, endPosition - flushedPosition);
  }

  /**
   * {@link JournalConfig.Preallocation#ZERO_ON_FLUSH}: before a flush, once the zeros beyond the
   * writer's claim fell {@code refillBytes} short of {@code leadBytes} past the frames, writes up
   * to {@code refillBytes} more; the next {@link #flush} forces them with the frames. Called under
   * the journal's flush lock, after the segment became the writer's; PWRITE mode only.
   *
   * @param zeros a direct buffer of zeros, {@link ZeroFiller#CHUNK_BYTES} long
   * @return bytes of zeros written
   */
  int zeroAhead(int leadBytes, int refillBytes, ByteBuffer zeros) {
    ZeroFillFence fence = zeroFillFence;
    if (fence == null || channel == null) {
      return 0;
    }
    int end = endPosition;
    if (fence.zeroedEnd() - end > leadBytes - refillBytes) {
      return 0;
    }
    int written = 0;
    // The channel is the writer's too: as in writeThroughChannel, the flushing thread's interrupt
    // is set aside so that it cannot close it, and a channel another thread's interrupt closed is
    // reopened. The zeros only save later flushes work, so this refill then simply stops.
    boolean interrupted = Thread.interrupted();
    FileChannel current = channel;
    try {
      while (written < refillBytes && fence.zeroedEnd() - end < leadBytes) {
        int from = fence.zeroNextChunk(current, zeros);
        if (from < 0) {
          break; // the writer overtook the zeros, the segment is full, or zeroing stopped
        }
        written += zeros.limit();
        zerosToForceEnd = Math.max(zerosToForceEnd, from + zeros.limit());
      }
    } catch (ClosedChannelException e) {
      interrupted |= Thread.interrupted();
      try {
        reopenChannel(current);
      } catch (IOException reopenFailed) {
        throw new UncheckedIOException(
            "Failed to reopen journal segment " + file + " after its channel was closed",
            reopenFailed);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to write zeros ahead of the frames of journal segment " + file, e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    return written;
  }

  /**
   * True once: the first time this segment's zeros are found overtaken by its writer, after which
   * none are written (flush lock held).
   */
  boolean zerosNewlyOvertaken() {
    ZeroFillFence fence = zeroFillFence;
    if (fence == null || zerosOvertakenReported || !fence.wasOvertaken()) {
      return false;
    }
    zerosOvertakenReported = true;
    return true;
  }

  /** Writes a flush record (not forced); called under the journal's flush lock. */
  void writeFlushRecord(long lastFlushedIndex, long confirmedIndex, boolean cleanShutdown) {
    SegmentDescriptor.FlushRecord record =
        new SegmentDescriptor.FlushRecord(
            lastFlushedIndex, confirmedIndex, ++flushSequence, cleanShutdown);
    int slot = SegmentDescriptor.flushSlotOffset(record.sequence());
    if (!channelWrites) {
      SegmentDescriptor.writeFlushRecord(buffer, flushView, slot, flushCrc, record);
      return;
    }
    // Through the channel too, or the descriptor page would be written through the mapping on
    // every flush and cost every flush the write-protection this mode avoids.
    SegmentDescriptor.writeFlushRecord(flushRecordBuffer, flushRecordView, 0, flushCrc, record);
    writeThroughChannel(slot, flushRecordView.clear()); // all 32 bytes of the slot
  }

  /** The newest valid flush record of this segment, or null; also resumes its sequence. */
  SegmentDescriptor.FlushRecord readFlushRecord() {
    SegmentDescriptor.FlushRecord record =
        SegmentDescriptor.readFlushRecord(buffer, flushView, flushCrc);
    if (record != null) {
      flushSequence = Math.max(flushSequence, record.sequence());
    }
    return record;
  }

  boolean isDescriptorDirty() {
    return descriptorDirty;
  }

  void force(int from, int length) {
    if (length > 0) {
      mapped.force(from, length);
    }
  }

  // ---------------------------------------------------------------- lifetime

  /** Takes a reference for a reader; false if the segment is already gone. */
  boolean retain() {
    while (true) {
      int count = references.get();
      if (count <= 0) {
        return false;
      }
      if (references.compareAndSet(count, count + 1)) {
        return true;
      }
    }
  }

  void release() {
    int count = references.decrementAndGet();
    assert count >= 0 : "segment " + file + " released too often";
    if (count == 0) {
      IoUtil.unmap(mapped);
      closeChannel();
    }
  }

  /** Releases, logging rather than throwing a failure (cleanup after another error). */
  void releaseQuietly() {
    try {
      release();
    } catch (RuntimeException e) {
      LOG.warn("Failed to release journal segment {}", file, e);
    }
  }

  private synchronized void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to close journal segment " + file, e);
      }
    }
  }

  void markDeleted() {
    deleted = true;
    stopZeroFill();
  }

  /**
   * The fence for zero-filling ahead of the writer, created on first use with the writer's current
   * end. Writer thread only (the journal calls it when this segment becomes the writer's).
   */
  ZeroFillFence zeroFillFence() {
    ZeroFillFence fence = zeroFillFence;
    if (fence == null) {
      fence = new ZeroFillFence(sizeBytes, appendPosition);
      zeroFillFence = fence;
    }
    return fence;
  }

  /** No more zeros are written into this segment once this returns. */
  void stopZeroFill() {
    ZeroFillFence fence = zeroFillFence;
    if (fence != null) {
      fence.stop();
    }
  }

  boolean isDeleted() {
    return deleted;
  }

  @Override
  public String toString() {
    return "Segment{id="
        + id
        + ", file="
        + file.getFileName()
        + ", firstIndex="
        + firstIndex
        + ", lastIndex="
        + lastIndex
        + "}";
  }

  /** Outcome of {@link #scan}: the last valid entry, where frames end, and why they ended. */
  record ScanResult(
      long lastIndex, int endPosition, String invalidReason, long lastAsqn, long lastAsqnIndex) {}
}
