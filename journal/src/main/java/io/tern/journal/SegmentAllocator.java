package io.tern.journal;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.function.LongSupplier;
import org.agrona.BufferUtil;
import org.agrona.IoUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the next segment file ({@code <name>.spare}) on a background thread, so that rolling to
 * a new segment costs the writer a rename instead of allocating and zeroing a large file. Free disk
 * space is checked before each file is created.
 */
final class SegmentAllocator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentAllocator.class);
  private static final int PAGE_SIZE_BYTES = 4096;

  /**
   * A spare's pages are warmed as far as the writer, at the pace it filled its last segment, gets
   * in this long. A fast writer (the journal benchmark's unflushed appends) gets its whole spare
   * warmed; a slow one only the start, and faults the rest in itself, at its own pace. Warming
   * whole spares made every journal of a broker warm one at once whenever they rolled together,
   * which stalled flushes long enough to lose leaders (the measurements are in
   * docs/experiments/2026-11-27-journal-and-raft-measurements.md).
   */
  static final long WARM_AHEAD_NS = TimeUnit.SECONDS.toNanos(1);

  /** What a spare prepared before the writer's pace is known (at open) gets warmed. */
  static final int INITIAL_WARM_BYTES = 1024 * 1024;

  private long lastTakenNs = Long.MIN_VALUE; // the writer's thread only

  private final SegmentFiles files;
  private final JournalConfig config;
  private final JournalMetrics metrics;
  private final ExecutorService executor;
  private final AtomicBoolean directoryDirty;
  private final IntConsumer beforeWarmingPage;
  private final LongSupplier nanoClock;
  private CompletableFuture<Path> spare;
  private AtomicBoolean spareTaken = new AtomicBoolean(); // set once the writer takes the spare

  SegmentAllocator(
      SegmentFiles files, JournalConfig config, JournalMetrics metrics, AtomicBoolean dirDirty) {
    this(files, config, metrics, dirDirty, position -> {}, System::nanoTime);
  }

  /**
   * @param beforeWarmingPage called on the allocator's thread with each page's offset before it is
   *     warmed (tests pause the warming with it)
   * @param nanoClock what {@link System#nanoTime} says, read when a segment is taken to learn the
   *     writer's pace (tests move it instead of waiting for a pace)
   */
  SegmentAllocator(
      SegmentFiles files,
      JournalConfig config,
      JournalMetrics metrics,
      AtomicBoolean dirDirty,
      IntConsumer beforeWarmingPage,
      LongSupplier nanoClock) {
    this.beforeWarmingPage = beforeWarmingPage;
    this.nanoClock = nanoClock;
    this.files = files;
    this.config = config;
    this.metrics = metrics;
    this.directoryDirty = dirDirty;
    this.executor =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "journal-allocator-" + config.name());
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts preparing the spare unless one is ready or under way. */
  void prepareSpare() {
    prepareSpare(INITIAL_WARM_BYTES);
  }

  private void prepareSpare(long warmBytes) {
    if (spare != null && !spare.isCompletedExceptionally()) {
      return;
    }
    CompletableFuture<Path> created = new CompletableFuture<>();
    AtomicBoolean taken = new AtomicBoolean();
    spare = created;
    spareTaken = taken;
    executor.execute(() -> createAndWarmSpare(created, taken, warmBytes));
  }

  /**
   * Bytes of a spare to warm for a writer that filled its last segment in {@code fillNs}: what it
   * writes in {@link #WARM_AHEAD_NS} at that pace, whole pages, at least one page.
   */
  static long warmBytes(long segmentBytes, long fillNs) {
    if (fillNs <= WARM_AHEAD_NS) {
      return segmentBytes;
    }
    long bytes = segmentBytes * WARM_AHEAD_NS / fillNs; // segments are < 2^31, no overflow
    return Math.max(PAGE_SIZE_BYTES, bytes - bytes % PAGE_SIZE_BYTES);
  }

  /**
   * Moves the spare to {@code target}, preparing it now if needed, and starts the next spare. Waits
   * for the file to exist, not for its pages to be warmed: a writer that is faster than warming
   * (fresh memory on a VM costs a hypervisor fault per page) takes its pages itself instead of
   * waiting for the warming to finish them.
   *
   * @throws JournalException.OutOfDiskSpace if there is no room for the segment
   */
  void takeSpare(Path target) {
    long startNs = metrics.nowNs();
    Path file = awaitSpare();
    spareTaken.set(true); // before the writer writes to it: the warming stops reading it
    metrics.rollWaited(startNs);
    files.rename(file, target);
    directoryDirty.set(true);
    spare = null;
    long nowNs = nanoClock.getAsLong();
    // The first segment taken after open was not filled at the writer's pace (if at all).
    long warmBytes =
        lastTakenNs == Long.MIN_VALUE
            ? INITIAL_WARM_BYTES
            : warmBytes(config.segmentSizeBytes(), nowNs - lastTakenNs);
    lastTakenNs = nowNs;
    prepareSpare(warmBytes);
  }

  /**
   * Waits until the spare file exists, preparing it now if needed: a caller about to delete every
   * segment ({@link SegmentedJournal#reset}) learns that no new one can be made before it deletes.
   *
   * @throws JournalException.OutOfDiskSpace if there is no room for the segment
   */
  Path awaitSpare() {
    prepareSpare();
    try {
      return spare.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JournalException("Interrupted while waiting for the next journal segment", e);
    } catch (ExecutionException e) {
      spare = null;
      if (e.getCause() instanceof JournalException journalException) {
        throw journalException;
      }
      throw new JournalException("Failed to create the next journal segment", e.getCause());
    }
  }

  private void createAndWarmSpare(
      CompletableFuture<Path> created, AtomicBoolean taken, long warmBytes) {
    MappedByteBuffer mapped = null;
    try {
      Path file = createSpare();
      if (config.preallocateSegments()) {
        // Mapped before anyone can take the file: a rename does not move an existing mapping.
        mapped = Segment.map(file, config.segmentSizeBytes());
      }
      created.complete(file);
    } catch (Throwable e) {
      created.completeExceptionally(e);
      return;
    }
    if (mapped != null) {
      try {
        warmPageCache(mapped, taken, warmBytes);
      } finally {
        IoUtil.unmap(mapped);
      }
    }
  }

  private void requireSpaceForSegment() {
    long required = (long) config.segmentSizeBytes() + config.freeDiskSpaceReserveBytes();
    long usable = files.usableSpace();
    if (usable < required) {
      throw new JournalException.OutOfDiskSpace(files.directory(), usable, required);
    }
  }

  private Path createSpare() {
    long startNs = metrics.nowNs();
    Path file = files.sparePath();
    requireSpaceForSegment();
    files.createPreallocated(file, config.segmentSizeBytes(), config.preallocateSegments());
    directoryDirty.set(true);
    metrics.allocated(startNs);
    LOG.debug("Prepared journal segment file {}", file);
    return file;
  }

  /**
   * Reads one byte per page of the first {@code warmBytes} so that the kernel allocates the spare's
   * (zero) page-cache pages here, off the writer's thread. Measured on the benchmark VM: about half
   * of the writer's time for unflushed 1 KiB appends went into the kernel zero-filling fresh pages
   * on first touch. Stops once the writer has taken the file.
   */
  private void warmPageCache(MappedByteBuffer mapped, AtomicBoolean taken, long warmBytes) {
    // The same advice as the writer's mapping, so that read-around does not build large folios
    // that the writer would then have to write back whole.
    NativeIo.madvise(BufferUtil.address(mapped), mapped.capacity(), config.madvise());
    long sum = 0;
    long end = Math.min(mapped.capacity(), warmBytes);
    for (int position = 0; position < end; position += PAGE_SIZE_BYTES) {
      beforeWarmingPage.accept(position);
      if (taken.get()) {
        LOG.debug("Journal segment taken before its pages were all warmed");
        return;
      }
      sum += mapped.get(position);
    }
    // Once taken, the writer's bytes may be read here; before, the file must be all zeros.
    assert sum == 0 || taken.get() : "a spare segment must be zeroed";
  }

  /**
   * The allocator's thread: tasks run one at a time, in order, and stop being accepted at {@link
   * #close} (tests queue one to wait until the work before it is done).
   */
  Executor executor() {
    return executor;
  }

  @Override
  public void close() {
    spareTaken.set(true); // stops a warming under way
    executor.shutdown();
    // Waits even when the closing thread is interrupted (the flag is kept): a spare still being
    // created would otherwise appear in the directory after the journal was closed, under a
    // caller that deletes it (ScanWindowTest closes with its flag set, and its @TempDir failed).
    long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    boolean interrupted = false;
    boolean stopped = false;
    while (!stopped) {
      try {
        stopped = executor.awaitTermination(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (!stopped) {
          LOG.warn("Journal segment allocator did not stop within 30 s");
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
