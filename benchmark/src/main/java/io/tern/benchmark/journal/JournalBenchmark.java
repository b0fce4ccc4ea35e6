package io.tern.benchmark.journal;

import static io.tern.benchmark.journal.JournalBenchmarkOptions.GIB;
import static io.tern.benchmark.journal.JournalBenchmarkOptions.MIB;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.DurableWrites;
import io.tern.benchmark.common.GroupCommitResult;
import io.tern.benchmark.common.LatencySummary;
import io.tern.benchmark.common.Payload;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.common.Throughput;
import io.tern.benchmark.machine.MachineLoad;
import io.tern.benchmark.machine.NativeFiles;
import io.tern.benchmark.machine.RawDiskLimits;
import io.tern.journal.JournalConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Measures the journal and, on the same directory and with the same bytes, the machine's limits
 * ({@link RawDiskLimits}), then prints each figure next to its limit. Phases run one after the
 * other, each in its own directory that is deleted before the next starts, so the disk never holds
 * more than one phase's data.
 *
 * <p>Execution order differs from the numbering in the report: the fsync latency phase runs first,
 * on a quiet disk, before the phases that leave gigabytes of writeback and discards behind them.
 */
public final class JournalBenchmark {
  static final int[] ENTRY_SIZES_BYTES = {128, 1024, 16 * 1024};
  static final long FLUSH_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(1);

  // Targets from the issue that introduced this benchmark.
  static final int TARGET_APPEND_ENTRY_BYTES = 1024;
  static final double TARGET_APPEND_THROUGHPUT_MB_PER_S = 1000;
  static final double TARGET_APPEND_RATIO_OF_RAW = 0.60;
  static final double TARGET_FLUSH_P50_RATIO_OF_RAW = 1.3;
  static final double TARGET_FLUSH_P99_RATIO_OF_RAW = 2.0;
  static final double TARGET_OPEN_MS = 1000;

  static final long PER_ENTRY_RAW_WARMUP_BYTES = 32 * MIB;
  static final long PER_ENTRY_RAW_MEASURED_BYTES = 256 * MIB;

  /** Other processes using more than this many cores make figures suspect. */
  static final double OTHER_LOAD_WARNING_CORES = 0.25;

  static final String PHASE_APPEND = "1 append, no flush";
  static final String PHASE_FLUSH_EACH = "2 append + flush each";
  static final String PHASE_GROUP_COMMIT = "3 append, flush every 1 ms";
  static final String PHASE_READ = "4 sequential read";
  static final String PHASE_OPEN = "5 open";

  private final JournalBenchmarkOptions options;
  private final Path root;
  private final Progress progress = new Progress();
  private final Report report = new Report();
  private final Payload payload = new Payload(42);
  private final RawDiskLimits raw = new RawDiskLimits(payload);
  private final JournalWorkloads journal;
  private final PhaseRows rows;

  private JournalBenchmark(JournalBenchmarkOptions options, Path root) {
    this.options = options;
    this.root = root;
    this.journal = new JournalWorkloads(payload, options, progress);
    this.rows = new PhaseRows(report);
  }

  /** Runs the benchmark; returns the process exit code. */
  public static int run(String[] args) throws Exception {
    // The journal logs recoveries at INFO; this benchmark causes them on purpose.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    JournalBenchmarkOptions options = JournalBenchmarkOptions.parse(args);
    if (options == null) {
      return 0;
    }
    return BenchmarkFiles.runInScratch(
        options.dataParentDir(),
        "journal-bench-",
        options.requiredFreeBytes(),
        root -> new JournalBenchmark(options, root).runAll());
  }

  private void runAll() throws Exception {
    JournalRunNotes.describeEnvironment(report, root, options, journalPreallocation());
    progress.log("Journal benchmark%s in %s", options.quick() ? " (quick)" : "", root);
    withLoadWatch("phase 2", this::runFlushEachEntry);
    withLoadWatch("phases 1 and 4", this::runAppendAndRead);
    withLoadWatch("phase 3", this::runGroupCommit);
    withLoadWatch("phase 5", this::runOpen);
    report.sortByPhase();
    JournalRunNotes.addNotes(report, options, journalPreallocation());
    System.out.println();
    report.printTable(System.out);
    report.writeJson(options.jsonOut());
    System.out.println();
    System.out.println("JSON results: " + options.jsonOut().toAbsolutePath());
  }

  // ---------------------------------------------------------------- phase 2

  private void runFlushEachEntry() throws Exception {
    for (int entryBytes : ENTRY_SIZES_BYTES) {
      progress.log(
          "Phase 2, %s: journal append + flush and raw write+force, taking turns of %d",
          Report.sizeLabel(entryBytes), InterleavedFlushLatency.OPERATIONS_PER_TURN);
      List<LatencySummary> measured = inScratchDir(dir -> measureFlushEach(dir, entryBytes));
      rows.flushEach(
          entryBytes,
          measured.get(0),
          measured.get(1),
          measured.size() > 2 ? measured.get(2) : null);
    }
  }

  /**
   * The journal, write+force on a zero-filled file and, where posix_fallocate is available, on a
   * fallocated one, side by side in {@code dir}.
   */
  private List<LatencySummary> measureFlushEach(Path dir, int entryBytes) throws Exception {
    List<DurableWrites> sides = new ArrayList<>();
    try {
      sides.add(journal.openAppendFlush(dir.resolve("journal"), entryBytes));
      sides.add(
          raw.openDurableWrites(
              dir.resolve("raw-zeroed.dat"), false, entryBytes, options.rawLatencyFileBytes()));
      if (NativeFiles.isAvailable()) {
        long fileBytes = Math.min(2L * options.latencyMaxSamples() * entryBytes, 2 * GIB);
        sides.add(
            raw.openDurableWrites(dir.resolve("raw-fallocated.dat"), true, entryBytes, fileBytes));
      }
      return InterleavedFlushLatency.measure(
          sides,
          options.latencyWarmupNs(),
          options.latencyDurationNs(),
          options.latencyMaxSamples());
    } finally {
      closeAll(sides);
    }
  }

  /** Closes every side, even when one fails; the first failure is thrown, the rest suppressed. */
  private static void closeAll(List<DurableWrites> sides) throws IOException {
    IOException failure = null;
    for (DurableWrites side : sides) {
      try {
        side.close();
      } catch (IOException | RuntimeException e) {
        IOException wrapped = e instanceof IOException io ? io : new IOException(e);
        if (failure == null) {
          failure = wrapped;
        } else {
          failure.addSuppressed(wrapped);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  // ---------------------------------------------------------------- phases 1 and 4

  private void runAppendAndRead() throws Exception {
    // Each journal figure is measured right after its limits, so that both meet the same state of
    // the page cache and of the machine's free memory.
    for (int entryBytes : ENTRY_SIZES_BYTES) {
      String size = Report.sizeLabel(entryBytes);
      progress.log("Phase 1, %s: raw write(2) loop, one call per entry", size);
      // Capped: one call per small entry makes the full amount take long for a figure that is
      // only context; the page cache absorbs either amount alike.
      Throughput rawPerEntry =
          inScratchDir(
              dir ->
                  raw.writeLoop(
                      dir.resolve("raw.dat"),
                      entryBytes,
                      Math.min(options.appendWarmupBytes(), PER_ENTRY_RAW_WARMUP_BYTES),
                      Math.min(options.appendMeasuredBytes(), PER_ENTRY_RAW_MEASURED_BYTES)));
      // How fast the page cache takes new pages varies between seconds on a VM (see the note on
      // free page reporting), so the target size is measured as several raw/journal pairs.
      int rounds = entryBytes == TARGET_APPEND_ENTRY_BYTES ? options.appendRounds() : 1;
      Throughput[] rawBlocks = new Throughput[rounds];
      Throughput[] journalAppends = new Throughput[rounds];
      Throughput rawRead = null;
      Throughput journalRead = null;
      for (int round = 0; round < rounds; round++) {
        boolean first = round == 0;
        progress.log(
            "Phase 1, %s, pair %d of %d: raw write(2) loop of %d MiB in 1 MiB blocks%s",
            size,
            round + 1,
            rounds,
            (options.appendWarmupBytes() + options.appendMeasuredBytes()) / MIB,
            first ? ", then a read(2) loop" : "");
        Throughput[] rawBlocksAndRead = new Throughput[2];
        inScratchDir(
            dir -> {
              Path file = dir.resolve("raw.dat");
              rawBlocksAndRead[0] =
                  raw.writeLoop(
                      file,
                      RawDiskLimits.BLOCK_BYTES,
                      options.appendWarmupBytes(),
                      options.appendMeasuredBytes());
              if (first) {
                rawBlocksAndRead[1] = raw.readLoop(file, entryBytes);
              }
              return null;
            });
        rawBlocks[round] = rawBlocksAndRead[0];
        progress.log(
            "Phases 1%s, %s, pair %d of %d: journal appends%s",
            first ? " and 4" : "",
            size,
            round + 1,
            rounds,
            first ? ", then a read of everything" : "");
        JournalWorkloads.AppendAndRead result =
            inScratchDir(dir -> journal.appendThenRead(dir, entryBytes, true));
        journalAppends[round] = result.append();
        if (first) {
          rawRead = rawBlocksAndRead[1];
          journalRead = result.read();
        }
      }
      rows.append(entryBytes, journalAppends, rawBlocks, rawPerEntry);
      rows.read(entryBytes, journalRead, rawRead);
      if (entryBytes == TARGET_APPEND_ENTRY_BYTES) {
        progress.log("Phase 1, %s: journal appends without a meter registry", size);
        JournalWorkloads.AppendAndRead noMetrics =
            inScratchDir(dir -> journal.appendThenRead(dir, entryBytes, false));
        rows.appendWithoutMetrics(entryBytes, noMetrics.append(), Throughput.median(rawBlocks));
      }
    }
  }

  // ---------------------------------------------------------------- phase 3

  private void runGroupCommit() throws Exception {
    long seconds = TimeUnit.NANOSECONDS.toSeconds(options.groupCommitDurationNs());
    progress.log(
        "Phase 3, raw: 1 MiB writes for %s s (at most %d MiB) with force every 1 ms",
        seconds == 0 ? "<1" : seconds, options.groupCommitMaxBytes() / MIB);
    GroupCommitResult rawResult =
        inScratchDir(
            dir ->
                raw.groupCommit(
                    dir.resolve("raw.dat"),
                    options.groupCommitDurationNs(),
                    options.groupCommitMaxBytes(),
                    FLUSH_PERIOD_NS));
    for (int entryBytes : ENTRY_SIZES_BYTES) {
      progress.log(
          "Phase 3, %s: journal appends with flush every 1 ms", Report.sizeLabel(entryBytes));
      GroupCommitResult result =
          inScratchDir(dir -> journal.groupCommit(dir, entryBytes, FLUSH_PERIOD_NS));
      rows.groupCommit(entryBytes, result, rawResult);
    }
  }

  // ---------------------------------------------------------------- phase 5

  private void runOpen() throws Exception {
    progress.log("Phase 5: open time of a %d MiB journal", options.openJournalBytes() / MIB);
    JournalOpenWorkload workload = new JournalOpenWorkload(journal, payload, options, progress);
    JournalOpenWorkload.OpenTimes times = inScratchDir(workload::run);
    rows.open(times, !options.quick());
  }

  // ---------------------------------------------------------------- support

  /**
   * Runs phases while watching how busy other processes keep the CPUs, and flags figures that
   * another workload may have skewed.
   */
  private void withLoadWatch(String phases, PhaseWork work) throws Exception {
    MachineLoad start = MachineLoad.snapshot();
    work.run();
    MachineLoad end = MachineLoad.snapshot();
    double otherCores = MachineLoad.otherProcessesCores(start, end);
    double stealCores = MachineLoad.stealCores(start, end);
    if (Double.isNaN(otherCores)) {
      return;
    }
    report.machineLoad(phases, otherCores, stealCores);
    progress.log(
        "  CPU used by other processes during %s: %.2f cores (steal %.2f)",
        phases, otherCores, stealCores);
    if (otherCores > OTHER_LOAD_WARNING_CORES) {
      report.note(
          String.format(
              Locale.ROOT,
              "Other processes kept %.2f of %d cores busy during %s: those figures are likely"
                  + " skewed (this counts the kernel's writeback threads too).",
              otherCores,
              Runtime.getRuntime().availableProcessors(),
              phases));
    }
  }

  /** The journal configuration the workloads use, resolved (the directory is never opened). */
  private JournalConfig journalConfig() {
    return journal.config(root.resolve("unused"), false).build();
  }

  private String journalPreallocation() {
    return journalConfig().preallocation().name();
  }

  @FunctionalInterface
  private interface PhaseWork {
    void run() throws Exception;
  }

  /** Work in a fresh directory under the run's root, deleted afterwards whatever happens. */
  private <T> T inScratchDir(ScratchWork<T> work) throws Exception {
    Path dir = Files.createTempDirectory(root, "phase-");
    try {
      return work.run(dir);
    } finally {
      BenchmarkFiles.deleteQuietly(dir);
    }
  }

  @FunctionalInterface
  private interface ScratchWork<T> {
    T run(Path dir) throws Exception;
  }
}
