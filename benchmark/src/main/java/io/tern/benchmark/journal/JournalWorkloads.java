package io.tern.benchmark.journal;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.benchmark.common.DurableWrites;
import io.tern.benchmark.common.Experiments;
import io.tern.benchmark.common.GroupCommitResult;
import io.tern.benchmark.common.LatencySummary;
import io.tern.benchmark.common.Payload;
import io.tern.benchmark.common.PeriodicFlusher;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.common.Throughput;
import io.tern.journal.JournalConfig;
import io.tern.journal.JournalReader;
import io.tern.journal.JournalRecord;
import io.tern.journal.SegmentedJournal;
import java.nio.file.Path;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The journal workloads. Each opens a fresh journal in the directory it is given and closes it; the
 * caller deletes the directory. Entries carry their asqn in their first 8 bytes, so that reads can
 * check they got back what was written.
 */
final class JournalWorkloads {
  /** Keeps reads from being optimized away. */
  static volatile long sink;

  private final Payload payload;
  private final JournalBenchmarkOptions options;
  private final Progress progress;

  JournalWorkloads(Payload payload, JournalBenchmarkOptions options, Progress progress) {
    this.payload = payload;
    this.options = options;
    this.progress = progress;
  }

  /**
   * Default settings but the segment size of the run. A meter registry is set, as in production, so
   * the append path pays for its timing as it would there.
   */
  JournalConfig.Builder config(Path dir, boolean withMetrics) {
    JournalConfig.Builder builder =
        JournalConfig.builder(dir)
            .segmentSizeBytes(options.segmentSizeBytes())
            .meterRegistry(withMetrics ? new SimpleMeterRegistry() : null);
    JournalConfig.Preallocation preallocation = Experiments.journalPreallocation();
    return preallocation == null ? builder : builder.preallocation(preallocation);
  }

  /** Unflushed appends and a sequential read of the same journal, while it is in the page cache. */
  record AppendAndRead(Throughput append, Throughput read) {}

  AppendAndRead appendThenRead(Path dir, int entryBytes, boolean withMetrics) {
    long warmupEntries = options.appendWarmupBytes() / entryBytes;
    long measuredEntries = options.appendMeasuredBytes() / entryBytes;
    UnsafeBuffer buffer = payload.buffer();
    try (SegmentedJournal journal = SegmentedJournal.open(config(dir, withMetrics).build())) {
      appendEntries(journal, buffer, 1, warmupEntries, entryBytes);
      long firstAsqn = warmupEntries + 1;
      long startNs = System.nanoTime();
      appendEntries(journal, buffer, firstAsqn, measuredEntries, entryBytes);
      journal.publish(); // timed: the last buffered entries are written too
      long appendNs = System.nanoTime() - startNs;
      Throughput append = new Throughput(measuredEntries, measuredEntries * entryBytes, appendNs);
      // The first read pass compiles the read path; only the second, over everything, is timed.
      readAll(journal, entryBytes, warmupEntries);
      Throughput read = readAll(journal, entryBytes, Long.MAX_VALUE);
      progress.log(
          "  closing: forcing %d MiB to disk",
          (warmupEntries + measuredEntries) * entryBytes / JournalBenchmarkOptions.MIB);
      return new AppendAndRead(append, read);
    }
  }

  private static void appendEntries(
      SegmentedJournal journal, UnsafeBuffer buffer, long firstAsqn, long count, int entryBytes) {
    long endAsqn = firstAsqn + count;
    for (long asqn = firstAsqn; asqn < endAsqn; asqn++) {
      buffer.putLong(0, asqn);
      journal.append(asqn, buffer, 0, entryBytes);
    }
  }

  /**
   * Reads up to {@code maxEntries} from the first, summing the long at the start of each; checks
   * the sum when it read everything.
   */
  private static Throughput readAll(SegmentedJournal journal, int entryBytes, long maxEntries) {
    long entries = 0;
    long sum = 0;
    long startNs = System.nanoTime();
    try (JournalReader reader = journal.openReader()) {
      while (entries < maxEntries && reader.hasNext()) {
        JournalRecord record = reader.next();
        sum += record.data().getLong(0);
        entries++;
      }
    }
    long elapsedNs = System.nanoTime() - startNs;
    sink = sum;
    long expectedEntries = journal.getLastIndex() - journal.getFirstIndex() + 1;
    // asqn i was appended as entry i, starting at 1.
    long expectedSum = expectedEntries * (expectedEntries + 1) / 2;
    if (maxEntries >= expectedEntries && (entries != expectedEntries || sum != expectedSum)) {
      throw new IllegalStateException(
          "Read back "
              + entries
              + " entries summing to "
              + sum
              + ", expected "
              + expectedEntries
              + " summing to "
              + expectedSum);
    }
    return new Throughput(entries, entries * entryBytes, elapsedNs);
  }

  /** A fresh journal in {@code dir} taking one append followed by a flush per call. */
  DurableWrites openAppendFlush(Path dir, int entryBytes) {
    SegmentedJournal journal = SegmentedJournal.open(config(dir, true).build());
    UnsafeBuffer buffer = payload.buffer();
    return new DurableWrites() {
      private long asqn = 1;

      @Override
      public void writeDurably() {
        buffer.putLong(0, asqn);
        journal.append(asqn++, buffer, 0, entryBytes);
        journal.flush();
      }

      @Override
      public boolean isFull() {
        return false; // segments roll as in production
      }

      @Override
      public void close() {
        journal.close();
      }
    };
  }

  /** Appends at full speed while a background thread flushes every {@code periodNs}. */
  GroupCommitResult groupCommit(Path dir, int entryBytes, long periodNs)
      throws InterruptedException {
    UnsafeBuffer buffer = payload.buffer();
    long maxEntries = options.groupCommitMaxBytes() / entryBytes;
    try (SegmentedJournal journal = SegmentedJournal.open(config(dir, true).build())) {
      PeriodicFlusher flusher =
          new PeriodicFlusher(
              "journal-flusher",
              periodNs,
              () -> {
                long before = journal.getLastFlushedIndex();
                journal.flush();
                return journal.getLastFlushedIndex() != before;
              });
      long asqn = 1;
      long startNs = System.nanoTime();
      long deadlineNs = startNs + options.groupCommitDurationNs();
      long lastClockNs = startNs;
      long maxPauseNs = 0;
      flusher.start();
      while (asqn <= maxEntries) {
        buffer.putLong(0, asqn);
        journal.append(asqn, buffer, 0, entryBytes);
        // Reading the clock costs as much as a small append; every 64th entry is often enough.
        if ((asqn++ & 63) == 0) {
          long nowNs = System.nanoTime();
          maxPauseNs = Math.max(maxPauseNs, nowNs - lastClockNs);
          lastClockNs = nowNs;
          if (nowNs >= deadlineNs) {
            break;
          }
        }
      }
      long appendEndNs = System.nanoTime();
      long entries = asqn - 1;
      flusher.stop();
      long finalFlushStartNs = System.nanoTime();
      journal.flush();
      long endNs = System.nanoTime();
      flusher.recordFinalFlush(endNs - finalFlushStartNs);
      long bytes = entries * entryBytes;
      return new GroupCommitResult(
          new Throughput(entries, bytes, appendEndNs - startNs),
          new Throughput(entries, bytes, endNs - startNs),
          LatencySummary.of(flusher.latencyNs(), endNs - startNs),
          flusher.idleCalls(),
          maxPauseNs);
    }
  }
}
