package io.tern.benchmark.journal;

import static io.tern.benchmark.journal.JournalBenchmark.PHASE_APPEND;
import static io.tern.benchmark.journal.JournalBenchmark.PHASE_FLUSH_EACH;
import static io.tern.benchmark.journal.JournalBenchmark.PHASE_GROUP_COMMIT;
import static io.tern.benchmark.journal.JournalBenchmark.PHASE_OPEN;
import static io.tern.benchmark.journal.JournalBenchmark.PHASE_READ;
import static io.tern.benchmark.journal.JournalBenchmark.TARGET_APPEND_ENTRY_BYTES;
import static io.tern.benchmark.journal.JournalBenchmark.TARGET_APPEND_RATIO_OF_RAW;
import static io.tern.benchmark.journal.JournalBenchmark.TARGET_APPEND_THROUGHPUT_MB_PER_S;
import static io.tern.benchmark.journal.JournalBenchmark.TARGET_FLUSH_P50_RATIO_OF_RAW;
import static io.tern.benchmark.journal.JournalBenchmark.TARGET_FLUSH_P99_RATIO_OF_RAW;
import static io.tern.benchmark.journal.JournalBenchmark.TARGET_OPEN_MS;

import io.tern.benchmark.common.GroupCommitResult;
import io.tern.benchmark.common.LatencySummary;
import io.tern.benchmark.common.Throughput;
import io.tern.benchmark.journal.Report.Row;
import io.tern.benchmark.journal.Report.Verdict;
import java.util.Locale;

/**
 * Turns measurements into report rows: each figure, its limit, and its target where there is one.
 */
final class PhaseRows {
  private static final String MB_PER_S = "MB/s";
  private static final String ENTRIES_PER_S = "entries/s";
  private static final String US = "µs";
  private static final String MS = "ms";

  private static final String RAW_BLOCKS = "raw write(2) loop, 1 MiB blocks, same bytes";
  private static final String RAW_PER_ENTRY = "raw write(2) loop, one call per entry, <= 256 MiB";
  private static final String RAW_ZEROED = "raw write+fdatasync, zero-filled file";
  private static final String RAW_FALLOCATED = "raw write+fdatasync, fallocated file";
  private static final String RAW_GROUP_COMMIT = "raw 1 MiB writes + fdatasync every 1 ms";
  private static final String RAW_READ = "raw read(2) loop, 1 MiB blocks, hot cache";

  private final Report report;

  PhaseRows(Report report) {
    this.report = report;
  }

  /**
   * Unflushed appends against their limits. {@code journalRounds[i]} was measured right after
   * {@code rawRounds[i]}; with several pairs, each pair gets a row and the target is judged on the
   * medians of each side.
   */
  void append(
      int entryBytes, Throughput[] journalRounds, Throughput[] rawRounds, Throughput rawPerEntry) {
    Throughput journal = Throughput.median(journalRounds);
    double mbPerS = journal.throughputMbPerS();
    double limitMbPerS = Throughput.median(rawRounds).throughputMbPerS();
    String metric = journalRounds.length > 1 ? "throughput, median of pairs" : "throughput";
    if (entryBytes == TARGET_APPEND_ENTRY_BYTES) {
      boolean pass =
          mbPerS >= TARGET_APPEND_THROUGHPUT_MB_PER_S
              && mbPerS >= TARGET_APPEND_RATIO_OF_RAW * limitMbPerS;
      String target =
          String.format(
              Locale.ROOT,
              ">= %.0f MB/s and >= %.2fx",
              TARGET_APPEND_THROUGHPUT_MB_PER_S,
              TARGET_APPEND_RATIO_OF_RAW);
      report.add(
          row(PHASE_APPEND, entryBytes, metric, MB_PER_S, mbPerS, limitMbPerS, RAW_BLOCKS)
              .withTarget(target, pass));
    } else {
      report.add(
          row(PHASE_APPEND, entryBytes, metric, MB_PER_S, mbPerS, limitMbPerS, RAW_BLOCKS).build());
    }
    if (journalRounds.length > 1) {
      for (int round = 0; round < journalRounds.length; round++) {
        report.add(
            row(
                    PHASE_APPEND,
                    entryBytes,
                    "throughput, pair " + (round + 1),
                    MB_PER_S,
                    journalRounds[round].throughputMbPerS(),
                    rawRounds[round].throughputMbPerS(),
                    RAW_BLOCKS)
                .build());
      }
    }
    report.add(
        row(
                PHASE_APPEND,
                entryBytes,
                "throughput",
                MB_PER_S,
                mbPerS,
                rawPerEntry.throughputMbPerS(),
                RAW_PER_ENTRY)
            .build());
    report.info(PHASE_APPEND, entryBytes, "throughput", ENTRIES_PER_S, journal.entriesPerS());
  }

  void appendWithoutMetrics(int entryBytes, Throughput journal, Throughput rawBlocks) {
    report.add(
        row(
                PHASE_APPEND,
                entryBytes,
                "throughput, no meter registry",
                MB_PER_S,
                journal.throughputMbPerS(),
                rawBlocks.throughputMbPerS(),
                RAW_BLOCKS)
            .build());
  }

  void read(int entryBytes, Throughput journal, Throughput raw) {
    report.add(
        row(
                PHASE_READ,
                entryBytes,
                "throughput",
                MB_PER_S,
                journal.throughputMbPerS(),
                raw.throughputMbPerS(),
                RAW_READ)
            .build());
    report.info(PHASE_READ, entryBytes, "throughput", ENTRIES_PER_S, journal.entriesPerS());
  }

  void flushEach(
      int entryBytes, LatencySummary journal, LatencySummary zeroed, LatencySummary fallocated) {
    double p50Ratio = (double) journal.p50Ns() / zeroed.p50Ns();
    double p99Ratio = (double) journal.p99Ns() / zeroed.p99Ns();
    report.add(
        latencyRow(PHASE_FLUSH_EACH, entryBytes, "p50", journal.p50Ns(), zeroed.p50Ns(), RAW_ZEROED)
            .withTarget(
                String.format(Locale.ROOT, "<= %.1fx", TARGET_FLUSH_P50_RATIO_OF_RAW),
                p50Ratio <= TARGET_FLUSH_P50_RATIO_OF_RAW));
    report.add(
        latencyRow(PHASE_FLUSH_EACH, entryBytes, "p99", journal.p99Ns(), zeroed.p99Ns(), RAW_ZEROED)
            .withTarget(
                String.format(Locale.ROOT, "<= %.1fx", TARGET_FLUSH_P99_RATIO_OF_RAW),
                p99Ratio <= TARGET_FLUSH_P99_RATIO_OF_RAW));
    report.add(
        latencyRow(
                PHASE_FLUSH_EACH,
                entryBytes,
                "p99.9",
                journal.p999Ns(),
                zeroed.p999Ns(),
                RAW_ZEROED)
            .build());
    report.add(
        latencyRow(PHASE_FLUSH_EACH, entryBytes, "max", journal.maxNs(), zeroed.maxNs(), RAW_ZEROED)
            .build());
    if (fallocated != null) {
      report.add(
          latencyRow(
                  PHASE_FLUSH_EACH,
                  entryBytes,
                  "p50",
                  journal.p50Ns(),
                  fallocated.p50Ns(),
                  RAW_FALLOCATED)
              .build());
      report.add(
          latencyRow(
                  PHASE_FLUSH_EACH,
                  entryBytes,
                  "p99",
                  journal.p99Ns(),
                  fallocated.p99Ns(),
                  RAW_FALLOCATED)
              .build());
    }
    report.add(
        row(
                PHASE_FLUSH_EACH,
                entryBytes,
                "durable appends",
                ENTRIES_PER_S,
                journal.operationsPerS(),
                zeroed.operationsPerS(),
                RAW_ZEROED)
            .build());
  }

  void groupCommit(int entryBytes, GroupCommitResult journal, GroupCommitResult raw) {
    report.add(
        row(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "durable throughput",
                MB_PER_S,
                journal.durable().throughputMbPerS(),
                raw.durable().throughputMbPerS(),
                RAW_GROUP_COMMIT)
            .build());
    report.add(
        row(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "append throughput",
                MB_PER_S,
                journal.appended().throughputMbPerS(),
                raw.appended().throughputMbPerS(),
                RAW_GROUP_COMMIT)
            .build());
    report.info(
        PHASE_GROUP_COMMIT,
        entryBytes,
        "durable throughput",
        ENTRIES_PER_S,
        journal.durable().entriesPerS());
    LatencySummary flush = journal.flushLatency();
    LatencySummary rawFlush = raw.flushLatency();
    report.add(
        latencyRow(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "flush p50",
                flush.p50Ns(),
                rawFlush.p50Ns(),
                RAW_GROUP_COMMIT)
            .build());
    report.add(
        latencyRow(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "flush p99",
                flush.p99Ns(),
                rawFlush.p99Ns(),
                RAW_GROUP_COMMIT)
            .build());
    report.add(
        latencyRow(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "flush p99.9",
                flush.p999Ns(),
                rawFlush.p999Ns(),
                RAW_GROUP_COMMIT)
            .build());
    report.add(
        row(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "flushes",
                "count",
                flush.count(),
                rawFlush.count(),
                RAW_GROUP_COMMIT)
            .build());
    report.add(
        row(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "flush calls with nothing new",
                "count",
                journal.idleFlushCalls(),
                raw.idleFlushCalls(),
                RAW_GROUP_COMMIT)
            .build());
    report.add(
        row(
                PHASE_GROUP_COMMIT,
                entryBytes,
                "writer's longest pause",
                MS,
                journal.writerMaxPauseNs() / 1e6,
                raw.writerMaxPauseNs() / 1e6,
                RAW_GROUP_COMMIT)
            .build());
  }

  void open(JournalOpenWorkload.OpenTimes times, boolean targetApplies) {
    String phase = PHASE_OPEN + " " + times.bytes() / JournalBenchmarkOptions.MIB + " MiB journal";
    String target = String.format(Locale.ROOT, "<= %.0f ms", TARGET_OPEN_MS);
    addOpen(phase, "clean reopen, median", times.medianCleanReopenNs(), target, targetApplies);
    addOpen(phase, "reopen after crash", times.uncleanReopenNs(), target, targetApplies);
    if (times.coldReopenNs() >= 0) {
      addOpen(phase, "clean reopen, cold cache", times.coldReopenNs(), target, targetApplies);
    } else {
      report.note("Cold-cache open skipped: " + times.coldSkippedReason());
    }
    addOpen(phase, "FULL verification reopen", times.fullVerificationReopenNs(), "", false);
    report.info(phase, 0, "segments", "count", times.segments());
  }

  private void addOpen(String phase, String metric, long ns, String target, boolean targetApplies) {
    double ms = ns / 1e6;
    RowBuilder builder = row(phase, 0, metric, MS, ms, Double.NaN, "");
    report.add(targetApplies ? builder.withTarget(target, ms <= TARGET_OPEN_MS) : builder.build());
  }

  private static RowBuilder latencyRow(
      String phase, int entryBytes, String metric, long ns, long limitNs, String limitName) {
    return row(phase, entryBytes, metric, US, ns / 1e3, limitNs / 1e3, limitName);
  }

  private static RowBuilder row(
      String phase,
      int entryBytes,
      String metric,
      String unit,
      double value,
      double limitValue,
      String limitName) {
    return new RowBuilder(phase, entryBytes, metric, unit, value, limitValue, limitName);
  }

  private record RowBuilder(
      String phase,
      int entryBytes,
      String metric,
      String unit,
      double value,
      double limitValue,
      String limitName) {

    Row build() {
      return new Row(
          phase, entryBytes, metric, unit, value, limitValue, limitName, "", Verdict.INFO);
    }

    Row withTarget(String target, boolean pass) {
      return new Row(
          phase,
          entryBytes,
          metric,
          unit,
          value,
          limitValue,
          limitName,
          target,
          pass ? Verdict.PASS : Verdict.FAIL);
    }
  }
}
