package io.tern.benchmark.journal;

import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.StandardOptions;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Command-line options of the journal benchmark and the workload sizes they imply. The full run is
 * sized to finish in minutes on a small machine; {@code --quick} is a smoke run whose figures are
 * indicative only.
 *
 * <p>{@code appendRounds} (odd): how often the unflushed appends of the target entry size and their
 * raw limit are measured, as back-to-back pairs; the report gives every pair and the medians.
 *
 * <p>{@code latencyDurationNs} is shared by the append+flush latency sides of one entry size, which
 * take turns (see {@link InterleavedFlushLatency}); {@code latencyMaxSamples} caps each side.
 */
record JournalBenchmarkOptions(
    Path dataParentDir,
    Path jsonOut,
    boolean quick,
    int segmentSizeBytes,
    long appendWarmupBytes,
    long appendMeasuredBytes,
    int appendRounds,
    long latencyWarmupNs,
    long latencyDurationNs,
    int latencyMaxSamples,
    long rawLatencyFileBytes,
    long groupCommitDurationNs,
    long groupCommitMaxBytes,
    long openJournalBytes,
    int openRepeats) {

  static final long KIB = 1024;
  static final long MIB = 1024 * KIB;
  static final long GIB = 1024 * MIB;

  /** The command line as picocli reads it: {@code journal --help} prints it. */
  @Command(
      name = "journal",
      description =
          "The segmented journal next to the disk's raw limits, measured on the same directory"
              + " and with the same bytes: appends without and with flushes, reads and opens.",
      footer = "%nUses up to ~5 GiB of disk in the full run (one phase at a time).")
  static final class Arguments {
    @Option(
        names = "--quick",
        description = "smoke run (< 30 s): small sizes, indicative figures only")
    boolean quick;

    @Mixin StandardOptions files = new StandardOptions();
  }

  /**
   * The options in {@code args}, or null after printing the usage when they ask for help.
   *
   * @throws CommandLines.UsageException naming what is wrong, with the usage
   */
  static JournalBenchmarkOptions parse(String[] args) {
    return CommandLines.parse(new Arguments(), args, JournalBenchmarkOptions::resolve);
  }

  private static JournalBenchmarkOptions resolve(Arguments arguments) {
    Path dir = arguments.files.dataParentDir();
    Path out = arguments.files.jsonOut("journal");
    return arguments.quick ? quick(dir, out) : full(dir, out);
  }

  private static JournalBenchmarkOptions full(Path dir, Path out) {
    return new JournalBenchmarkOptions(
        dir,
        out,
        false,
        // The journal's default, so that rolls happen as often as in production.
        128 * (int) MIB,
        256 * MIB,
        GIB,
        5,
        TimeUnit.MILLISECONDS.toNanos(500),
        TimeUnit.SECONDS.toNanos(15),
        50_000,
        64 * MIB,
        TimeUnit.SECONDS.toNanos(5),
        // Caps disk use when the appender outruns the disk by far.
        4 * GIB,
        2 * GIB,
        3);
  }

  private static JournalBenchmarkOptions quick(Path dir, Path out) {
    return new JournalBenchmarkOptions(
        dir,
        out,
        true,
        // Smaller segments so that the small quick workloads still roll segments.
        32 * (int) MIB,
        16 * MIB,
        64 * MIB,
        3,
        TimeUnit.MILLISECONDS.toNanos(100),
        TimeUnit.SECONDS.toNanos(1),
        5_000,
        16 * MIB,
        TimeUnit.MILLISECONDS.toNanos(300),
        64 * MIB,
        256 * MIB,
        1);
  }

  /** Minimum free space before starting, with headroom for the file system's own needs. */
  long requiredFreeBytes() {
    return Math.max(groupCommitMaxBytes, openJournalBytes) + 2L * segmentSizeBytes + GIB;
  }
}
