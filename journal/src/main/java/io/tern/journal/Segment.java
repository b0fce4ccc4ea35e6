package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.BufferUtil;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One memory-mapped segment file: a {@link SegmentDescriptor} followed by frames ({@link
 * FrameLayout}). This class holds what every part shares (the file, its mapping, where the
 * published frames end) and the segment's lifetime; the work is done by its parts:
 *
 * <ul>
 *   <li>{@link SegmentWriter}: appends frames, seals, truncates (the journal's writer thread);
 *   <li>{@link SegmentFrames}: reads and checks frames, finds them by index or asqn (readers);
 *   <li>{@link SegmentRecovery}: the open-time scan, trusting a sealed segment's hint, building the
 *       sparse index on first use, zeroing a torn tail;
 *   <li>{@link SegmentFlushes}: forces written frames and writes flush records (the flush lock);
 *   <li>{@link SegmentZeroFill}: zeros that flushes write ahead of the writer ({@link
 *       JournalConfig.Preallocation#ZERO_ON_FLUSH}).
 * </ul>
 *
 * <p>Lifetime: the journal holds one reference; each reader holds one on the segment it is
 * positioned in. A deleted segment is unmapped when its last reference is released, so a reader
 * never touches unmapped memory.
 */
final class Segment {
  private static final Logger LOG = LoggerFactory.getLogger(Segment.class);

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
   * Open for the segment's life: the writer appends through it, the flusher writes flush records
   * and zeros. Positional writes need no coordination between them. The mapping is only read, so a
   * flush never has to write-protect mapped pages.
   */
  private final InterruptSafeChannel channel;

  private final SegmentWriter writer;
  private final SegmentFrames frames;
  private final SegmentRecovery recovery;
  private final SegmentFlushes flushes;
  private final SegmentZeroFill zeroFill;

  // Published state, read by readers and the flusher; written by the writer.
  private volatile int endPosition = SegmentDescriptor.LENGTH;
  private volatile long lastIndex;
  private volatile boolean deleted;

  private Segment(Path file, MappedByteBuffer mapped, long id, long firstIndex, int density) {
    this.file = file;
    try {
      this.channel = InterruptSafeChannel.open(file, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to open journal segment " + file + " for writing", e);
    }
    this.mapped = mapped;
    this.buffer = new UnsafeBuffer(mapped);
    this.address = BufferUtil.address(mapped);
    this.id = id;
    this.firstIndex = firstIndex;
    this.sizeBytes = mapped.capacity();
    this.index = new SegmentIndex(firstIndex, density);
    this.lastIndex = firstIndex - 1;
    this.writer = new SegmentWriter(this);
    this.frames = new SegmentFrames(this);
    this.recovery = new SegmentRecovery(this);
    this.flushes = new SegmentFlushes(this);
    this.zeroFill = new SegmentZeroFill(this);
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
      Path file, MappedByteBuffer mapped, long id, long firstIndex, int density) {
    Segment segment = new Segment(file, mapped, id, firstIndex, density);
    SegmentDescriptor.write(
        segment.buffer, segment.newView(), new Crc32c(), id, firstIndex, mapped.capacity());
    segment.flushes.startEmpty();
    segment.recovery.markIndexed(); // nothing to index yet
    return segment;
  }

  /** Wraps an existing segment whose descriptor was validated by the caller. */
  static Segment existing(Path file, MappedByteBuffer mapped, int density) {
    UnsafeBuffer descriptor = new UnsafeBuffer(mapped);
    return new Segment(
        file,
        mapped,
        SegmentDescriptor.id(descriptor),
        SegmentDescriptor.firstIndex(descriptor),
        density);
  }

  // ---------------------------------------------------------------- parts

  SegmentWriter writer() {
    return writer;
  }

  SegmentFrames frames() {
    return frames;
  }

  SegmentRecovery recovery() {
    return recovery;
  }

  SegmentFlushes flushes() {
    return flushes;
  }

  SegmentZeroFill zeroFill() {
    return zeroFill;
  }

  // ---------------------------------------------------------------- shared state

  Path file() {
    return file;
  }

  long id() {
    return id;
  }

  long firstIndex() {
    return firstIndex;
  }

  /** The last published entry; {@code firstIndex - 1} while there is none. */
  long lastIndex() {
    return lastIndex;
  }

  /** Where the published frames end. */
  int endPosition() {
    return endPosition;
  }

  int sizeBytes() {
    return sizeBytes;
  }

  UnsafeBuffer buffer() {
    return buffer;
  }

  /** A view of the mapping with its own position and limit (for checksums). */
  ByteBuffer newView() {
    return mapped.duplicate();
  }

  long address() {
    return address;
  }

  SegmentIndex index() {
    return index;
  }

  /** The segment's write channel. */
  InterruptSafeChannel channel() {
    return channel;
  }

  /** Makes frames up to {@code position} (the last being entry {@code lastIndex}) readable. */
  void publish(int position, long lastIndex) {
    endPosition = position;
    this.lastIndex = lastIndex;
  }

  /**
   * Writes {@code bytes} at {@code position} through the channel. Readers find a frame only once it
   * is published, so the order in which the kernel copies the bytes does not matter to them.
   */
  void writeThroughChannel(int position, ByteBuffer bytes) {
    try {
      channel.writeFully(bytes, position);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to write to journal segment " + file + " at offset " + position, e);
    }
  }

  /** Forces {@code length} bytes of the mapping from {@code from} to disk (msync). */
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

  /** Whether a reference is still held; only for assertions. */
  boolean isRetained() {
    return references.get() > 0;
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

  private void closeChannel() {
    try {
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to close journal segment " + file, e);
    }
  }

  void markDeleted() {
    deleted = true;
    zeroFill.stop();
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
}
