package io.tern.benchmark.machine;

import io.tern.benchmark.common.DurableWrites;
import io.tern.benchmark.common.GroupCommitResult;
import io.tern.benchmark.common.LatencySummary;
import io.tern.benchmark.common.Payload;
import io.tern.benchmark.common.PeriodicFlusher;
import io.tern.benchmark.common.Throughput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The machine's own limits on the benchmark's directory, measured with plain {@link FileChannel}
 * calls (and, for context, plain copies into mapped files) on the same bytes the journal workloads
 * write: what the journal could reach if it added nothing. Every method leaves its files behind;
 * the caller deletes the phase's directory.
 */
public final class RawDiskLimits {
  /** Block of the raw sequential loops: large enough that syscall cost disappears. */
  public static final int BLOCK_BYTES = Payload.CAPACITY_BYTES;

  /** File that {@link #durableWriteLatency} overwrites over and over. */
  private static final long RAW_LATENCY_FILE_BYTES = 64L * 1024 * 1024;

  /** Keeps reads from being optimized away. */
  static volatile long sink;

  private final Payload payload;

  public RawDiskLimits(Payload payload) {
    this.payload = payload;
  }

  /**
   * Sequential {@code write(2)} loop into a new file, without force: the plain way to put bytes
   * into the page cache, which unflushed appends are measured against. Only the bytes after the
   * warm-up are timed.
   */
  public Throughput writeLoop(Path file, int chunkBytes, long warmupBytes, long measuredBytes)
      throws IOException {
    ByteBuffer view = payload.newView(chunkBytes);
    try (FileChannel channel = open(file, StandardOpenOption.CREATE_NEW)) {
      long position = 0;
      while (position < warmupBytes) {
        position = writeFully(channel, view, chunkBytes, position);
      }
      long end = position + measuredBytes;
      long writes = 0;
      long startNs = System.nanoTime();
      while (position < end) {
        position = writeFully(channel, view, chunkBytes, position);
        writes++;
      }
      long elapsedNs = System.nanoTime() - startNs;
      return new Throughput(writes, writes * chunkBytes, elapsedNs);
    }
  }

  /**
   * Reads a whole file with 1 MiB {@code read(2)} calls and sums one long per {@code strideBytes},
   * as the journal read workload sums one long per entry. Meant for a file still in the page cache.
   */
  public Throughput readLoop(Path file, int strideBytes) throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(BLOCK_BYTES);
    UnsafeBuffer view = new UnsafeBuffer(block);
    long sum = 0;
    long bytes = 0;
    long startNs = System.nanoTime();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      while (true) {
        block.clear();
        int read = channel.read(block, bytes);
        if (read <= 0) {
          break;
        }
        for (int offset = 0; offset + Long.BYTES <= read; offset += strideBytes) {
          sum += view.getLong(offset);
        }
        bytes += read;
      }
    }
    long elapsedNs = System.nanoTime() - startNs;
    sink = sum;
    return new Throughput(bytes / strideBytes, bytes, elapsedNs);
  }

  /**
   * The disk's sequential write speed in {@code dir} in MB/s: {@code bytes} written in 1 MiB blocks
   * with direct I/O (through the page cache where the file system refuses it), then forced. The
   * floor under receiving a snapshot of that size. For other benchmarks; the file is deleted.
   */
  public static double sequentialWriteMegabytesPerS(Path dir, long bytes) throws IOException {
    Path file = dir.resolve("raw-sequential.dat");
    ByteBuffer block = ByteBuffer.allocateDirect(2 * BLOCK_BYTES).alignedSlice(BLOCK_BYTES);
    block.limit(BLOCK_BYTES);
    try (FileChannel channel = openDirectIfPossible(file)) {
      long startNs = System.nanoTime();
      for (long position = 0; position < bytes; position += BLOCK_BYTES) {
        block.clear().limit(BLOCK_BYTES);
        while (block.hasRemaining()) {
          channel.write(block, position + block.position());
        }
      }
      channel.force(true);
      return bytes / 1e6 / ((System.nanoTime() - startNs) / 1e9);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static FileChannel openDirectIfPossible(Path file) throws IOException {
    Files.deleteIfExists(file);
    FileChannel created =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      FileChannel direct =
          FileChannel.open(
              file, StandardOpenOption.WRITE, com.sun.nio.file.ExtendedOpenOption.DIRECT);
      created.close();
      return direct;
    } catch (IOException | UnsupportedOperationException e) {
      return created;
    }
  }

  /**
   * The cheapest durable write of {@code entryBytes} in {@code dir} ({@code write} + {@code
   * fdatasync}, overwriting a synced file), for {@code duration} after a short warm-up: the floor
   * under any commit that waits for a flush. For other benchmarks; the file is deleted afterwards.
   */
  public static LatencySummary durableWriteLatency(Path dir, int entryBytes, Duration duration)
      throws IOException {
    Path file = dir.resolve("raw-fdatasync.dat");
    try {
      return new RawDiskLimits(new Payload(7))
          .writeForceLatency(
              file,
              false,
              entryBytes,
              RAW_LATENCY_FILE_BYTES,
              TimeUnit.MILLISECONDS.toNanos(200),
              duration.toNanos(),
              Integer.MAX_VALUE);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /**
   * Latency of {@code write(entryBytes)} followed by {@code force(false)} (fdatasync) at sequential
   * offsets of a preallocated file: what one durable append costs the machine.
   *
   * @param fallocated see {@link #openDurableWrites}
   */
  public LatencySummary writeForceLatency(
      Path file,
      boolean fallocated,
      int entryBytes,
      long fileBytes,
      long warmupNs,
      long durationNs,
      int maxSamples)
      throws IOException {
    Histogram histogram = LatencySummary.newHistogram();
    try (DurableWrites writes = openDurableWrites(file, fallocated, entryBytes, fileBytes)) {
      long warmupEndNs = System.nanoTime() + warmupNs;
      while (System.nanoTime() < warmupEndNs) {
        writes.writeDurably();
      }
      long startNs = System.nanoTime();
      long endNs = startNs + durationNs;
      long nowNs = startNs;
      while (nowNs < endNs && histogram.getTotalCount() < maxSamples && !writes.isFull()) {
        writes.writeDurably();
        long doneNs = System.nanoTime();
        LatencySummary.record(histogram, doneNs - nowNs);
        nowNs = doneNs;
      }
      return LatencySummary.of(histogram, nowNs - startNs);
    }
  }

  /**
   * A file prepared for durable appends of {@code entryBytes}, one {@code write} + {@code
   * fdatasync} per {@link DurableWrites#writeDurably} at sequential offsets.
   *
   * @param fallocated true: space reserved with posix_fallocate, as the journal reserves segments
   *     (the first write to each block then also changes metadata); the file is full when the
   *     writes reach its end. false: the file is filled with zeros and synced first, so writes only
   *     overwrite data, the cheapest durable write; the writes start over at the file's start when
   *     they reach its end.
   */
  public DurableWrites openDurableWrites(
      Path file, boolean fallocated, int entryBytes, long fileBytes) throws IOException {
    if (fallocated) {
      NativeFiles.fallocate(file, fileBytes);
    } else {
      fillWithZeros(file, fileBytes);
    }
    FileChannel channel = open(file);
    try {
      channel.force(true); // the preallocation itself must not be part of the first sample
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
    return new RawDurableWrites(
        channel, payload.newView(entryBytes), entryBytes, fileBytes, !fallocated);
  }

  private static final class RawDurableWrites implements DurableWrites {
    private final FileChannel channel;
    private final ByteBuffer view;
    private final int entryBytes;
    private final long fileBytes;
    private final boolean wrap;
    private long position;

    RawDurableWrites(
        FileChannel channel, ByteBuffer view, int entryBytes, long fileBytes, boolean wrap) {
      this.channel = channel;
      this.view = view;
      this.entryBytes = entryBytes;
      this.fileBytes = fileBytes;
      this.wrap = wrap;
    }

    @Override
    public void writeDurably() throws IOException {
      if (position + entryBytes > fileBytes) {
        if (!wrap) {
          throw new IllegalStateException("Raw latency file full");
        }
        position = 0;
      }
      position = writeFully(channel, view, entryBytes, position);
      channel.force(false);
    }

    @Override
    public boolean isFull() {
      return !wrap && position + entryBytes > fileBytes;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }

  /**
   * Writes 1 MiB blocks at full speed into a new file while a {@link PeriodicFlusher} forces it
   * every {@code periodNs}: the durable bandwidth the journal's group commit can hope for.
   */
  public GroupCommitResult groupCommit(Path file, long durationNs, long maxBytes, long periodNs)
      throws IOException, InterruptedException {
    ByteBuffer view = payload.newView(BLOCK_BYTES);
    // Written by the writer, read by the flusher, which skips the force when nothing is new, as
    // Journal.flush() returns at once then.
    AtomicLong writtenBytes = new AtomicLong();
    long[] forcedBytes = new long[1]; // flusher thread only, then the caller after stop()
    try (FileChannel channel = open(file, StandardOpenOption.CREATE_NEW)) {
      PeriodicFlusher flusher =
          new PeriodicFlusher(
              "raw-flusher",
              periodNs,
              () -> {
                long target = writtenBytes.get();
                if (target == forcedBytes[0]) {
                  return false;
                }
                channel.force(false);
                forcedBytes[0] = target;
                return true;
              });
      long position = 0;
      long writes = 0;
      long startNs = System.nanoTime();
      long deadlineNs = startNs + durationNs;
      long lastClockNs = startNs;
      long maxPauseNs = 0;
      flusher.start();
      while (position < maxBytes) {
        position = writeFully(channel, view, BLOCK_BYTES, position);
        writtenBytes.set(position);
        writes++;
        long nowNs = System.nanoTime();
        maxPauseNs = Math.max(maxPauseNs, nowNs - lastClockNs);
        lastClockNs = nowNs;
        if (nowNs >= deadlineNs) {
          break;
        }
      }
      long appendEndNs = System.nanoTime();
      flusher.stop();
      long finalFlushStartNs = System.nanoTime();
      channel.force(false);
      long endNs = System.nanoTime();
      flusher.recordFinalFlush(endNs - finalFlushStartNs);
      return new GroupCommitResult(
          new Throughput(writes, position, appendEndNs - startNs),
          new Throughput(writes, position, endNs - startNs),
          LatencySummary.of(flusher.latencyNs(), endNs - startNs),
          flusher.idleCalls(),
          maxPauseNs);
    }
  }

  private void fillWithZeros(Path file, long fileBytes) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocateDirect(BLOCK_BYTES);
    try (FileChannel channel = open(file, StandardOpenOption.CREATE_NEW)) {
      long position = 0;
      while (position < fileBytes) {
        int length = (int) Math.min(BLOCK_BYTES, fileBytes - position);
        position = writeFully(channel, zeros, length, position);
      }
      channel.force(true);
    }
  }

  private static long writeFully(FileChannel channel, ByteBuffer view, int length, long position)
      throws IOException {
    Payload.rewind(view, length);
    while (view.hasRemaining()) {
      position += channel.write(view, position);
    }
    return position;
  }

  private static FileChannel open(Path file, StandardOpenOption... extra) throws IOException {
    Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.WRITE);
    options.addAll(Arrays.asList(extra));
    return FileChannel.open(file, options);
  }
}
