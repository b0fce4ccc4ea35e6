package io.tern.benchmark.journal;

import io.tern.benchmark.machine.KernelSettings;
import io.tern.benchmark.machine.NativeFiles;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the journal benchmark's report says about the run itself rather than a figure: the
 * environment it ran in, its settings, and the notes on how to read the table.
 */
final class JournalRunNotes {
  private JournalRunNotes() {}

  /** The machine, the JVM, the file system and the run's settings. */
  static void describeEnvironment(
      Report report, Path root, JournalBenchmarkOptions options, String journalPreallocation)
      throws IOException {
    FileStore store = Files.getFileStore(root);
    Runtime runtime = Runtime.getRuntime();
    report.environment("javaVersion", System.getProperty("java.version"));
    report.environment("javaVm", System.getProperty("java.vm.name"));
    report.environment(
        "os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    report.environment("arch", System.getProperty("os.arch"));
    report.environment("availableProcessors", runtime.availableProcessors());
    report.environment("maxHeapBytes", runtime.maxMemory());
    report.environment("dataDirectory", root.toAbsolutePath().toString());
    report.environment("fileStore", store.name() + " (" + store.type() + ")");
    report.environment("usableDiskBytes", store.getUsableSpace());
    report.environment(
        "nativeFiles", NativeFiles.isAvailable() ? "available" : NativeFiles.unavailableReason());
    report.environment("vmDirtyRatio", KernelSettings.dirtyRatio());
    report.environment("vmDirtyBackgroundRatio", KernelSettings.dirtyBackgroundRatio());
    String reportedKib = KernelSettings.freePageReportingReportedKib();
    report.environment("freePageReportingReportedKib", reportedKib);
    if (reportedKib != null && !reportedKib.equals("0")) {
      report.note(
          "This is a VM whose kernel reports free memory to the hypervisor (free page reporting,"
              + " "
              + Long.parseLong(reportedKib) / 1024
              + " MiB so far): every page the page cache takes anew costs a hypervisor fault, so"
              + " unflushed write figures (phase 1, raw and journal alike) mostly measure that"
              + " and vary from run to run; hence the 1 KiB pairs, each journal run right after"
              + " its raw limit, judged on the medians.");
    }
    report.setting("quick", options.quick());
    report.setting(
        "entrySizesBytes", Arrays.stream(JournalBenchmark.ENTRY_SIZES_BYTES).boxed().toList());
    report.setting("segmentSizeBytes", options.segmentSizeBytes());
    report.setting("journalPreallocation", journalPreallocation);
    report.setting("appendWarmupBytes", options.appendWarmupBytes());
    report.setting("appendMeasuredBytes", options.appendMeasuredBytes());
    report.setting("appendRounds", options.appendRounds());
    report.setting("latencyWarmupNs", options.latencyWarmupNs());
    report.setting("latencyDurationNs", options.latencyDurationNs());
    report.setting("latencyMaxSamples", options.latencyMaxSamples());
    report.setting("flushPeriodNs", JournalBenchmark.FLUSH_PERIOD_NS);
    report.setting("groupCommitDurationNs", options.groupCommitDurationNs());
    report.setting("groupCommitMaxBytes", options.groupCommitMaxBytes());
    report.setting("openJournalBytes", options.openJournalBytes());
    report.setting("openRepeats", options.openRepeats());
  }

  /** How to read the table. */
  static void addNotes(
      Report report, JournalBenchmarkOptions options, String journalPreallocation) {
    report.note("MB = 10^6 bytes. MB/s and entries/s count entry payloads (frame headers not).");
    report.note(
        "Ratio = journal / limit: above 1 is better for throughput, below 1 is better for"
            + " latency.");
    report.note(
        "Phase 3: a background thread calls flush() every 1 ms (period from the start of the"
            + " previous flush, back to back when a flush takes longer) while the main thread"
            + " appends at full speed; 'durable' counts the entries over the time until the final"
            + " flush after the writer stopped returned.");
    report.note(
        "Phase 2: the journal and its limits take turns of "
            + InterleavedFlushLatency.OPERATIONS_PER_TURN
            + " operations each, on files open side by side, the turns going through every order"
            + " of the sides, so that all meet the same state of the disk.");
    report.note(
        "Phase 2 limit: write+fdatasync on a zero-filled file (pure overwrite). The 'fallocated'"
            + " rows compare against raw writes into a posix_fallocate'd file, whose first write to"
            + " each block also changes file metadata: what the journal's segments cost without"
            + " zeros written ahead (journal preallocation "
            + journalPreallocation
            + ").");
    if (options.quick()) {
      report.note(
          "Quick run: small sizes and short runs, figures are indicative only; the open-time"
              + " target applies to journals of 2 GiB or more.");
    }
  }
}
