package io.tern.journal;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Every setting of the journal, with its default. This is the one place the journal's configuration
 * is defined; the table in docs/journal.md mirrors it.
 */
public final class JournalConfig {

  /** Default segment size: big enough that rolls are rare, small enough to compact promptly. */
  public static final int DEFAULT_SEGMENT_SIZE_BYTES = 128 * 1024 * 1024;

  /** Smallest segment: a descriptor and a few small frames (tests use tiny segments). */
  public static final int MIN_SEGMENT_SIZE_BYTES = 256;

  /** Mapped buffers are addressed with ints; stay well below that. */
  public static final int MAX_SEGMENT_SIZE_BYTES = 1024 * 1024 * 1024;

  /** Default maximum entry: a 4 MiB log-stream batch plus room for Raft's entry header. */
  public static final int DEFAULT_MAX_ENTRY_SIZE_BYTES = 4 * 1024 * 1024 + 64 * 1024;

  /** Every N-th entry of a segment is in the sparse index (index -> position, asqn). */
  public static final int DEFAULT_INDEX_DENSITY = 100;

  /** Free space that must remain after a new segment is created. */
  public static final long DEFAULT_FREE_DISK_SPACE_RESERVE_BYTES = 64L * 1024 * 1024;

  /**
   * The preallocation when none is set: {@link Preallocation#ZERO_ON_FLUSH} for preallocated
   * segments, else {@link Preallocation#FALLOCATE} (zeros need blocks to write into).
   */
  public static Preallocation defaultPreallocation(boolean preallocateSegments) {
    return preallocateSegments ? Preallocation.ZERO_ON_FLUSH : Preallocation.FALLOCATE;
  }

  private final Path directory;
  private final String name;
  private final int segmentSizeBytes;
  private final int maxEntrySizeBytes;
  private final int indexDensity;
  private final Madvise madvise;
  private final boolean preallocateSegments;
  private final Preallocation preallocation;
  private final long freeDiskSpaceReserveBytes;
  private final OpenVerification openVerification;
  private final FlushRecordSync flushRecordSync;
  private final MeterRegistry meterRegistry;
  private final Tags metricTags;

  private JournalConfig(Builder b) {
    this.directory = Objects.requireNonNull(b.directory, "journal directory must be set");
    this.name = b.name;
    this.segmentSizeBytes = b.segmentSizeBytes;
    this.maxEntrySizeBytes = b.maxEntrySizeBytes;
    this.indexDensity = b.indexDensity;
    this.madvise = Objects.requireNonNull(b.madvise, "journal.madvise must be set");
    this.preallocateSegments = b.preallocateSegments;
    this.preallocation =
        b.preallocation != null ? b.preallocation : defaultPreallocation(preallocateSegments);
    this.freeDiskSpaceReserveBytes = b.freeDiskSpaceReserveBytes;
    this.openVerification =
        Objects.requireNonNull(b.openVerification, "journal.openVerification must be set");
    this.flushRecordSync =
        Objects.requireNonNull(b.flushRecordSync, "journal.flushRecordSync must be set");
    this.meterRegistry = b.meterRegistry;
    this.metricTags = b.metricTags;
    validate();
  }

  private void validate() {
    if (name == null || !name.matches("[A-Za-z0-9_.]+")) {
      throw new IllegalArgumentException(
          "journal.name must be non-empty and use only letters, digits, '_' and '.': " + name);
    }
    if (segmentSizeBytes < MIN_SEGMENT_SIZE_BYTES || segmentSizeBytes > MAX_SEGMENT_SIZE_BYTES) {
      throw new IllegalArgumentException(
          "journal.segmentSizeBytes must be within ["
              + MIN_SEGMENT_SIZE_BYTES
              + ", "
              + MAX_SEGMENT_SIZE_BYTES
              + "]: "
              + segmentSizeBytes);
    }
    // In long: the frame of an entry near Integer.MAX_VALUE bytes would overflow an int.
    long maxFrameBytes =
        (FrameLayout.HEADER_LENGTH + (long) maxEntrySizeBytes + FrameLayout.ALIGNMENT - 1)
            & -FrameLayout.ALIGNMENT;
    if (maxEntrySizeBytes < 1 || maxFrameBytes > segmentCapacity()) {
      throw new IllegalArgumentException(
          "journal.maxEntrySizeBytes must be at least 1 and fit one entry per segment ("
              + ((segmentCapacity() - FrameLayout.HEADER_LENGTH) & -FrameLayout.ALIGNMENT)
              + " bytes with segmentSizeBytes "
              + segmentSizeBytes
              + "): "
              + maxEntrySizeBytes);
    }
    if (preallocation != Preallocation.FALLOCATE && !preallocateSegments) {
      throw new IllegalArgumentException(
          "journal.preallocation "
              + preallocation
              + " needs preallocated segments (preallocateSegments is off)");
    }
    if (indexDensity < 1) {
      throw new IllegalArgumentException("journal.indexDensity must be >= 1: " + indexDensity);
    }
    if (freeDiskSpaceReserveBytes < 0) {
      throw new IllegalArgumentException(
          "journal.freeDiskSpaceReserveBytes must be >= 0: " + freeDiskSpaceReserveBytes);
    }
  }

  /** Bytes of a segment available to frames. */
  int segmentCapacity() {
    return segmentSizeBytes - SegmentDescriptor.LENGTH;
  }

  public static Builder builder(Path directory) {
    return new Builder().directory(directory);
  }

  public Path directory() {
    return directory;
  }

  /** Prefix of the segment files: {@code <name>-<id>.log}. */
  public String name() {
    return name;
  }

  public int segmentSizeBytes() {
    return segmentSizeBytes;
  }

  public int maxEntrySizeBytes() {
    return maxEntrySizeBytes;
  }

  public int indexDensity() {
    return indexDensity;
  }

  public Madvise madvise() {
    return madvise;
  }

  public boolean preallocateSegments() {
    return preallocateSegments;
  }

  public Preallocation preallocation() {
    return preallocation;
  }

  public long freeDiskSpaceReserveBytes() {
    return freeDiskSpaceReserveBytes;
  }

  public OpenVerification openVerification() {
    return openVerification;
  }

  public FlushRecordSync flushRecordSync() {
    return flushRecordSync;
  }

  /** May be null: then no metrics are recorded and the hot path does no timing. */
  public MeterRegistry meterRegistry() {
    return meterRegistry;
  }

  public Tags metricTags() {
    return metricTags;
  }

  /** Advice given to the kernel for mapped segments ({@code journal.madvise}). */
  public enum Madvise {
    /** No advice (default). */
    NONE,
    /**
     * MADV_RANDOM: no read-around on faults, so the page cache keeps small (4 KiB) pages and a
     * flush writes back less; the price is slower cold sequential reads (figures: docs/journal.md).
     */
    RANDOM
  }

  /**
   * How a new segment's blocks are reserved ({@code journal.preallocation}), when {@code
   * preallocateSegments} is on.
   */
  public enum Preallocation {
    /**
     * Default without preallocated segments (see {@link #defaultPreallocation}). posix_fallocate
     * reserves the blocks at once (zeros are written where it is not available). The blocks stay
     * "unwritten" extents, so the first write to each one also changes file metadata that a flush
     * must make durable, which makes each flush slower than a write into blocks that exist
     * (figures: docs/journal.md).
     */
    FALLOCATE,
    /**
     * Default with preallocated segments. As {@link #FALLOCATE}, and a journal whose recent flushes
     * nearly all (3 in 4) wrote at least a page of frames has its flushes keep zeros ahead of the
     * frames, beyond the writer's claim, about 512 flushes' worth of bytes (2 to 8 MiB), topped up
     * 256 KiB at a time and forced with the frames: one flush in a few dozen pays for a chunk of
     * zeros and the one metadata commit that makes its blocks written, the others overwrite written
     * blocks, so flush-each p50 comes close to a raw write into existing blocks (the flush that
     * writes a chunk is what p99 sees). Smaller flushes get no zeros: they reach a new block only
     * once in several flushes, and zeros would double the bytes written (see {@link ZeroOnFlush}).
     * Flushes that average more than 256 KiB outrun the zeros, which then stop for that segment
     * ({@code tern.journal.zero.fill.overtaken}); for flushes that large the metadata commit is a
     * small part of the flush. The price where zeros are written: about twice the bytes written to
     * disk. No background thread.
     */
    ZERO_ON_FLUSH
  }

  /** How much of the journal is checked, frame by frame with checksums, when it is opened. */
  public enum OpenVerification {
    /**
     * Default. Sealed segments whose last-index hint is covered by the last flushed index are
     * trusted without a scan (their frames are still checked on every read); the tail is scanned.
     * Keeps open time independent of the journal size.
     */
    TAIL,
    /** Every frame of every segment is read and checked. Open time grows with the journal. */
    FULL
  }

  /**
   * How a flush makes its record (the last flushed index) durable. Either way every entry a
   * completed flush covered survives any crash; they differ in what open can tell apart after one.
   */
  public enum FlushRecordSync {
    /**
     * Default. One sync per flush: the record is forced together with the entries it covers. Since
     * a sync persists pages in no set order, the record can only vouch for the flush before it, so
     * damage found in the entries of the very last flush is treated like a torn tail (cut and
     * logged) instead of a hard error. A crash cannot cause such damage to entries whose flush
     * completed; only failing media can.
     */
    SHARED,
    /**
     * Two syncs per flush: entries first, then the record. Damage anywhere at or below the last
     * flushed index is a hard error on open. Costs a second device flush on every flush.
     */
    SEPARATE
  }

  public static final class Builder {
    private Path directory;
    private String name = "journal";
    private int segmentSizeBytes = DEFAULT_SEGMENT_SIZE_BYTES;
    private int maxEntrySizeBytes = DEFAULT_MAX_ENTRY_SIZE_BYTES;
    private int indexDensity = DEFAULT_INDEX_DENSITY;
    private Madvise madvise = Madvise.NONE;
    private boolean preallocateSegments = true;
    private Preallocation preallocation; // null: defaultPreallocation(preallocateSegments)
    private long freeDiskSpaceReserveBytes = DEFAULT_FREE_DISK_SPACE_RESERVE_BYTES;
    private OpenVerification openVerification = OpenVerification.TAIL;
    private FlushRecordSync flushRecordSync = FlushRecordSync.SHARED;
    private MeterRegistry meterRegistry;
    private Tags metricTags = Tags.empty();

    public Builder directory(Path directory) {
      this.directory = directory;
      return this;
    }

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder segmentSizeBytes(int segmentSizeBytes) {
      this.segmentSizeBytes = segmentSizeBytes;
      return this;
    }

    public Builder maxEntrySizeBytes(int maxEntrySizeBytes) {
      this.maxEntrySizeBytes = maxEntrySizeBytes;
      return this;
    }

    public Builder indexDensity(int indexDensity) {
      this.indexDensity = indexDensity;
      return this;
    }

    public Builder madvise(Madvise madvise) {
      this.madvise = madvise;
      return this;
    }

    public Builder preallocateSegments(boolean preallocateSegments) {
      this.preallocateSegments = preallocateSegments;
      return this;
    }

    public Builder preallocation(Preallocation preallocation) {
      this.preallocation = java.util.Objects.requireNonNull(preallocation, "preallocation");
      return this;
    }

    public Builder freeDiskSpaceReserveBytes(long freeDiskSpaceReserveBytes) {
      this.freeDiskSpaceReserveBytes = freeDiskSpaceReserveBytes;
      return this;
    }

    public Builder openVerification(OpenVerification openVerification) {
      this.openVerification = openVerification;
      return this;
    }

    public Builder flushRecordSync(FlushRecordSync flushRecordSync) {
      this.flushRecordSync = flushRecordSync;
      return this;
    }

    public Builder meterRegistry(MeterRegistry meterRegistry) {
      this.meterRegistry = meterRegistry;
      return this;
    }

    public Builder metricTags(Tags metricTags) {
      this.metricTags = Objects.requireNonNull(metricTags);
      return this;
    }

    /** Caps the maximum entry size to what fits a segment; handy when tests use tiny segments. */
    public Builder fitMaxEntrySizeToSegment() {
      int capacity = segmentSizeBytes - SegmentDescriptor.LENGTH - FrameLayout.HEADER_LENGTH;
      this.maxEntrySizeBytes = Math.min(maxEntrySizeBytes, capacity & ~(FrameLayout.ALIGNMENT - 1));
      return this;
    }

    public JournalConfig build() {
      return new JournalConfig(this);
    }
  }
}
