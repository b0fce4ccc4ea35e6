package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Prepares the next segment file ({@code <name>.spare}) on a background thread, so that rolling to
 * a new segment costs the writer a rename instead of allocating and zeroing a large file. Free disk
 * space is checked before each file is created.
 */
final class SegmentAllocator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentAllocator.class);

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

  private Path createSpare() {
    long startNs = metrics.nowNs();
    Path file = files.sparePath();
    try {
      if (Files.exists(file) && Files.size(file) == config.segmentSizeBytes()) {
        return file; // left by an earlier run; never written to, so still zeroed
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long required = (long) config.segmentSizeBytes() + config.freeDiskSpaceReserveBytes();
    long usable = files.usableSpace();
    if (usable < required) {
      throw new JournalException.OutOfDiskSpace(files.directory(), usable, required);
    }
    files.createPreallocated(file, config.segmentSizeBytes(), config.preallocateSegments());
    directoryDirty.set(true);
    metrics.allocated(startNs);
    LOG.debug("Prepared journal segment file {}", file);
    return file;
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
