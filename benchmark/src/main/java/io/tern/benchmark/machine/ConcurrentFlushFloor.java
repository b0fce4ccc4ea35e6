package io.tern.benchmark.machine;

import io.tern.benchmark.common.LatencySummary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The disk's own latency for the flush pattern of many journals at once: {@code files} zero-filled
 * files, each fed by its own thread at a fixed rate, every write followed by an fdatasync that
 * covers all entries due by then (the journals' group commit). Latency counts from each entry's
 * intended time (open loop), as the Raft benchmark's commit latency does.
 *
 * <p>The files are filled with zeros and forced before the measurement, so that the writes land on
 * blocks already written: no flush then commits file metadata, which is the fastest the disk can
 * make these flushes. The journal's writes do the same where its default preallocation ({@code
 * ZERO_ON_FLUSH}) writes zeros ahead, which it does for flushes of a page or more (1 partition at
 * 10,000 entries/s); at 10 and 30 partitions most flushes are smaller, get no zeros, and also
 * commit block conversions now and then, so there this floor is the disk's best case rather than
 * the journal's. (Into fallocated files, every first write to a block commits the extent's
 * conversion, which raises this floor's tail and hides the machine stalls that the hand-off probe
 * looks for.)
 *
 * <p>A sync-mode Raft cluster of {@code P} partitions with 3 members on one disk flushes {@code 3P}
 * journals, each at the offered rate over {@code P}: this is the floor under its commit latency
 * with nothing else running, a truer limit than one file flushed alone once the disk must
 * interleave tens of files.
 */
public final class ConcurrentFlushFloor implements AutoCloseable {
  /** Most entries one write takes when a thread is late; the rest wait for the next write. */
  private static final int MAX_ENTRIES_PER_WRITE = 64;

  /** Entries fed before latencies count. */
  private static final long WARMUP_NS = TimeUnit.MILLISECONDS.toNanos(500);

  /** Zeros written per call while filling the files. */
  private static final int ZERO_BLOCK_BYTES = 1 << 20;

  private final List<Path> paths;
  private final int entryBytes;
  private final long periodNs;
  private final Duration duration;

  private ConcurrentFlushFloor(List<Path> paths, int entryBytes, long periodNs, Duration duration) {
    this.paths = paths;
    this.entryBytes = entryBytes;
    this.periodNs = periodNs;
    this.duration = duration;
  }

  /**
   * Creates the {@code files} and fills them with zeros, before anything is measured (writing them
   * is heavy I/O of its own, which a stall watch started afterwards does not count).
   */
  public static ConcurrentFlushFloor prepare(
      Path dir, int files, double entriesPerSPerFile, int entryBytes, Duration duration)
      throws IOException {
    long periodNs = (long) (1e9 / entriesPerSPerFile);
    long entriesPerFile = (WARMUP_NS + duration.toNanos()) / periodNs + MAX_ENTRIES_PER_WRITE + 1;
    long fileBytes = entriesPerFile * entryBytes;
    List<Path> paths = new ArrayList<>();
    ConcurrentFlushFloor floor = new ConcurrentFlushFloor(paths, entryBytes, periodNs, duration);
    try {
      for (int i = 0; i < files; i++) {
        Path path = dir.resolve("raw-flush-floor-" + i + ".dat");
        paths.add(path);
        fillWithZeros(path, fileBytes);
      }
      return floor;
    } catch (IOException | RuntimeException e) {
      floor.close();
      throw e;
    }
  }

  /**
   * Feeds every file from its start for the duration (after a warm-up) and returns the latencies.
   * May be called again: the files' blocks stay written.
   */
  public LatencySummary measure() throws IOException, InterruptedException {
    int files = paths.size();
    Histogram total = LatencySummary.newHistogram();
    long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    long measureFromNs = startNs + WARMUP_NS;
    long endNs = measureFromNs + duration.toNanos();
    List<Thread> threads = new ArrayList<>();
    List<Histogram> histograms = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      Histogram histogram = LatencySummary.newHistogram();
      histograms.add(histogram);
      Path path = paths.get(i);
      // Staggered, as partitions receive their entries in turn.
      long firstNs = startNs + periodNs * i / files;
      Thread thread =
          new Thread(
              () -> {
                try {
                  feed(path, entryBytes, firstNs, periodNs, measureFromNs, endNs, histogram);
                } catch (IOException | RuntimeException e) {
                  synchronized (failures) {
                    failures.add(e);
                  }
                }
              },
              "flush-floor-" + i);
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    if (!failures.isEmpty()) {
      throw new IOException("measuring the flush floor failed", failures.get(0));
    }
    histograms.forEach(total::add);
    return LatencySummary.of(total, duration.toNanos());
  }

  /** Deletes the files. */
  @Override
  public void close() throws IOException {
    for (Path path : paths) {
      Files.deleteIfExists(path);
    }
  }

  /** Writes {@code bytes} of zeros to a new file and forces them, with its size. */
  private static void fillWithZeros(Path path, long bytes) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_BLOCK_BYTES);
    try (FileChannel channel =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      for (long position = 0; position < bytes; ) {
        zeros.clear().limit((int) Math.min(ZERO_BLOCK_BYTES, bytes - position));
        position += channel.write(zeros, position);
      }
      channel.force(true);
    }
  }

  private static void feed(
      Path path,
      int entryBytes,
      long firstNs,
      long periodNs,
      long measureFromNs,
      long endNs,
      Histogram histogram)
      throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(entryBytes * MAX_ENTRIES_PER_WRITE);
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
      long position = 0;
      long nextNs = firstNs;
      while (nextNs < endNs) {
        long nowNs = System.nanoTime();
        if (nowNs < nextNs) {
          LockSupport.parkNanos(nextNs - nowNs);
          continue;
        }
        long batchFirstNs = nextNs;
        int entries = 0;
        while (nextNs <= nowNs && entries < MAX_ENTRIES_PER_WRITE) {
          entries++;
          nextNs += periodNs;
        }
        block.clear().limit(entries * entryBytes);
        while (block.hasRemaining()) {
          position += channel.write(block, position);
        }
        channel.force(false);
        long doneNs = System.nanoTime();
        for (int k = 0; k < entries; k++) {
          long intendedNs = batchFirstNs + k * periodNs;
          if (intendedNs >= measureFromNs) {
            LatencySummary.record(histogram, doneNs - intendedNs);
          }
        }
      }
    }
  }
}
