package io.tern.benchmark.replay;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.Json;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.engine.SingleMemberPartition;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.processor.CommandResponseSink;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.record.RecordValue;
import io.tern.journal.JournalReader;
import io.tern.raft.server.FlushMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Replay (recovery) rate of a partition: fills a one-member partition's log with commands and their
 * events (each event stores a value in RocksDB), restarts it without a snapshot and times the
 * stream processor replaying the whole log. Prints records/s and MB/s of log next to a plain
 * sequential read of the same journal files (the page cache holds them in both cases).
 */
public final class ReplayBenchmark {
  private static final double TARGET_MEGABYTES_PER_S = 200;
  private static final Duration TIMEOUT = Duration.ofMinutes(30);
  private static final int PARTITION = 1;

  private final ReplayOptions options;
  private final Path root;
  private final Progress progress = new Progress();

  private ReplayBenchmark(ReplayOptions options, Path root) {
    this.options = options;
    this.root = root;
  }

  public static int run(String[] args) throws Exception {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    ReplayOptions options = ReplayOptions.parse(args);
    if (options == null) {
      return 0;
    }
    return BenchmarkFiles.runInScratch(
        options.dataParentDir(),
        "replay-bench-",
        options.logBytes() * 3,
        root -> new ReplayBenchmark(options, root).runAll());
  }

  private SingleMemberPartition broker(FlushMode flushMode) {
    return new SingleMemberPartition(
        root,
        flushMode,
        ProcessorConfig.defaults(),
        ReplayEngine::create,
        CommandResponseSink.NONE);
  }

  private void runAll() throws Exception {
    progress.log("Replay benchmark in %s: %s", root, options);
    long lastCommandPosition;
    try (SingleMemberPartition broker = broker(FlushMode.OFF)) {
      lastCommandPosition = fill(broker);
    }
    LogSize size = measureLog();
    progress.log(
        "Log: %d entries, %,d records, %.1f MiB",
        size.entries, size.records, size.bytes / 1048576.0);
    double rawReadMbPerS = rawReadMegabytesPerS(root.resolve("raft"));
    progress.log("Plain sequential read of the journal files: %.0f MB/s", rawReadMbPerS);

    long startNs = System.nanoTime();
    long committedNs;
    long doneNs;
    try (SingleMemberPartition broker = broker(FlushMode.SYNC)) {
      long lastIndex = size.lastIndex;
      await(
          () -> broker.partition().raft().commitIndex() >= lastIndex,
          "the restarted log to commit");
      committedNs = System.nanoTime();
      await(
          () -> broker.partition().processor().lastProcessedPosition() >= lastCommandPosition,
          "replay to reach the last command");
      doneNs = System.nanoTime();
    }
    double replayS = (doneNs - committedNs) / 1e9;
    double mbPerS = size.bytes / 1e6 / replayS;
    double recordsPerS = size.records / replayS;
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("logBytes", size.bytes);
    result.put("logEntries", size.entries);
    result.put("logRecords", size.records);
    result.put("valueBytes", options.valueBytes());
    result.put("replaySeconds", replayS);
    result.put("replayMegabytesPerS", mbPerS);
    result.put("replayRecordsPerS", recordsPerS);
    result.put("startToElectedSeconds", (committedNs - startNs) / 1e9);
    result.put("rawSequentialReadMegabytesPerS", rawReadMbPerS);
    result.put("targetMegabytesPerS", TARGET_MEGABYTES_PER_S);
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Replay of %.1f MiB (%,d records, %d-byte values): %.2f s%n",
        size.bytes / 1048576.0,
        size.records,
        options.valueBytes(),
        replayS);
    System.out.printf(
        Locale.ROOT,
        "  %.0f MB/s, %,.0f records/s; plain read of the same files %.0f MB/s (ratio %.2f)%n",
        mbPerS,
        recordsPerS,
        rawReadMbPerS,
        mbPerS / rawReadMbPerS);
    System.out.printf(
        Locale.ROOT,
        "  start to leader with the log committed: %.2f s%n",
        (committedNs - startNs) / 1e9);
    System.out.printf(
        Locale.ROOT,
        "  target >= %.0f MB/s: %s%n",
        TARGET_MEGABYTES_PER_S,
        mbPerS >= TARGET_MEGABYTES_PER_S ? "PASS" : "FAIL");
    Json.write(options.jsonOut(), result);
    System.out.println("JSON results: " + options.jsonOut().toAbsolutePath());
  }

  /**
   * Writes CREATE commands until the log holds about {@code logBytes}; returns the last position.
   */
  private long fill(SingleMemberPartition broker) {
    broker.awaitProcessing(TIMEOUT);
    byte[] bytes = new byte[options.valueBytes()];
    new Random(7).nextBytes(bytes);
    RecordValue value = RecordValue.of(new UnsafeBuffer(bytes), 0, bytes.length);
    // A command and its event each take the value plus about 100 bytes of headers.
    long perCommand = 2L * (options.valueBytes() + 100);
    long commands = Math.max(1, options.logBytes() / perCommand);
    long last = -1;
    long reportEvery = Math.max(1, commands / 10);
    for (long i = 0; i < commands; i++) {
      while (true) {
        try {
          last = broker.partition().intake().write(-1, -1, ReplayEngine.CREATE, -1, value);
          break;
        } catch (LogStreamWriter.NotWritableException e) {
          Thread.onSpinWait(); // the proposal queue is full, or processing has not started
        }
      }
      if ((i + 1) % reportEvery == 0) {
        progress.log("filled %d of %d commands", i + 1, commands);
      }
    }
    long lastPosition = last;
    await(
        () -> broker.partition().processor().lastProcessedPosition() >= lastPosition,
        "the fill's commands to be processed");
    return lastPosition;
  }

  private record LogSize(long entries, long records, long bytes, long lastIndex) {}

  private LogSize measureLog() throws IOException {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Path journal = root.resolve("raft").resolve("partition-" + PARTITION).resolve("journal");
    try (io.tern.journal.Journal log =
            io.tern.journal.SegmentedJournal.open(
                io.tern.journal.JournalConfig.builder(journal)
                    .name("raft")
                    .meterRegistry(registry)
                    .build());
        JournalReader reader = log.openReader()) {
      long entries = 0;
      long records = 0;
      long bytes = 0;
      long lastIndex = 0;
      io.tern.engine.record.RecordBatch batch = new io.tern.engine.record.RecordBatch();
      while (reader.hasNext()) {
        io.tern.journal.JournalRecord entry = reader.next();
        entries++;
        bytes += entry.data().capacity();
        lastIndex = entry.index();
        if (io.tern.raft.storage.JournalRaftLog.isApplicationEntry(entry.data())) {
          int header = io.tern.raft.storage.JournalRaftLog.HEADER_LENGTH;
          batch.wrap(entry.data(), header, entry.data().capacity() - header);
          records += batch.recordCount();
        }
      }
      return new LogSize(entries, records, bytes, lastIndex);
    }
  }

  private static double rawReadMegabytesPerS(Path directory) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(directory)) {
      files = walk.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
    }
    ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
    long bytes = 0;
    long startNs = System.nanoTime();
    for (Path file : files) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        int read;
        while ((read = channel.read(buffer.clear())) > 0) {
          bytes += read;
        }
      }
    }
    return bytes / 1e6 / ((System.nanoTime() - startNs) / 1e9);
  }

  private static void await(java.util.function.BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + TIMEOUT + " waiting for " + what);
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
