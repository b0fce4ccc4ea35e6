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

  private final SegmentFiles files;
  private final JournalConfig config;
  private final JournalMetrics metrics;
  private final ExecutorService executor;
  private final AtomicBoolean directoryDirty;
  private CompletableFuture<Path> spare;

  SegmentAllocator(
      SegmentFiles files, JournalConfig config, JournalMetrics metrics, AtomicBoolean dirDirty) {
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
    if (spare != null && !spare.isCompletedExceptionally()) {
      return;
    }
    spare = CompletableFuture.supplyAsync(this::createSpare, executor);
  }

  /**
   * Moves the spare to {@code target}, preparing it now if needed, and starts the next spare.
   *
   * @throws JournalException.OutOfDiskSpace if there is no room for the segment
   */
  void takeSpare(Path target) {
    long startNs = metrics.nowNs();
    prepareSpare();
    Path file;
    try {
      file = spare.get();
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
    metrics.rollWaited(startNs);
    files.rename(file, target);
    directoryDirty.set(true);
    spare = null;
    prepareSpare();
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
    if (config.preallocateSegments()) {
      warmPageCache(file);
    }
    directoryDirty.set(true);
    metrics.allocated(startNs);
    LOG.debug("Prepared journal segment file {}", file);
    return file;
  }

  /**
   * Reads one byte per page so that the kernel allocates the spare's (zero) page-cache pages here,
   * off the writer's thread. Measured on the benchmark VM: about half of the writer's time for
   * unflushed 1 KiB appends went into the kernel zero-filling fresh pages on first touch.
   */
  private void warmPageCache(Path file) {
    MappedByteBuffer mapped = Segment.map(file, config.segmentSizeBytes());
    try {
      // The same advice as the writer's mapping, so that read-around does not build large folios
      // that the writer would then have to write back whole.
      NativeIo.madvise(BufferUtil.address(mapped), mapped.capacity(), config.madvise());
      long sum = 0;
      for (int position = 0; position < mapped.capacity(); position += PAGE_SIZE_BYTES) {
        sum += mapped.get(position);
      }
      assert sum == 0 : "a spare segment must be zeroed";
    } finally {
      IoUtil.unmap(mapped);
    }
  }

  /**
   * The allocator's thread, for other background work on the journal's files ({@link ZeroFiller});
   * tasks run one at a time, in order, and stop being accepted at {@link #close}.
   */
  Executor executor() {
    return executor;
  }

  @Override
  public void close() {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("Journal segment allocator did not stop within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
