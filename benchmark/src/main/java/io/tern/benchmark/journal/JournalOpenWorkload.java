package io.tern.benchmark.journal;

import io.tern.benchmark.common.Payload;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.machine.NativeFiles;
import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Open time of a large journal: written once with 1 KiB entries, then opened in the ways a node
 * restarts. Opening should not grow with the journal: with the default {@code TAIL} verification
 * only the last segment is scanned.
 */
final class JournalOpenWorkload {
  static final int ENTRY_BYTES = 1024;

  private final JournalWorkloads workloads;
  private final Payload payload;
  private final JournalBenchmarkOptions options;
  private final Progress progress;

  JournalOpenWorkload(
      JournalWorkloads workloads,
      Payload payload,
      JournalBenchmarkOptions options,
      Progress progress) {
    this.workloads = workloads;
    this.payload = payload;
    this.options = options;
    this.progress = progress;
  }

  /**
   * @param uncleanReopenNs open of a copy taken while the writer was open (its flush record says
   *     "open"), as after a crash once everything was flushed; page cache warm
   * @param cleanReopenNs one per repetition, after a clean close; page cache warm
   * @param fullVerificationReopenNs clean reopen checking every frame's checksum, cache warm
   * @param coldReopenNs clean reopen after the journal's files were evicted from the page cache, as
   *     after a reboot; -1 when that was not possible
   */
  record OpenTimes(
      long entries,
      long bytes,
      int segments,
      long uncleanReopenNs,
      long[] cleanReopenNs,
      long fullVerificationReopenNs,
      long coldReopenNs,
      String coldSkippedReason) {

    long medianCleanReopenNs() {
      long[] sorted = cleanReopenNs.clone();
      Arrays.sort(sorted);
      return sorted[sorted.length / 2];
    }
  }

  OpenTimes run(Path dir) throws IOException {
    long entries = options.openJournalBytes() / ENTRY_BYTES;
    JournalConfig config = workloads.config(dir, true).build();
    int segments;
    long uncleanReopenNs;
    try (SegmentedJournal writer = SegmentedJournal.open(config)) {
      progress.log("  writing %d MiB of 1 KiB entries", entries / 1024);
      UnsafeBuffer buffer = payload.buffer();
      for (long asqn = 1; asqn <= entries; asqn++) {
        buffer.putLong(0, asqn);
        writer.append(asqn, buffer, 0, ENTRY_BYTES);
      }
      progress.log("  flushing");
      writer.flush();
      segments = writer.segmentCount();
      // A copy taken while the writer is open is what a crash leaves: its flush record says the
      // journal was not closed cleanly. (The open journal itself is locked against a second open.)
      Path crashImage = dir.resolveSibling(dir.getFileName() + "-crash-image");
      copyDirectory(dir, crashImage);
      try {
        uncleanReopenNs = timeOpen(workloads.config(crashImage, true).build(), entries);
      } finally {
        deleteDirectory(crashImage);
      }
    }
    long[] cleanReopenNs = new long[options.openRepeats()];
    for (int i = 0; i < cleanReopenNs.length; i++) {
      cleanReopenNs[i] = timeOpen(workloads.config(dir, true).build(), entries);
    }
    long fullNs =
        timeOpen(
            workloads
                .config(dir, true)
                .openVerification(JournalConfig.OpenVerification.FULL)
                .build(),
            entries);
    long coldNs = -1;
    String coldSkippedReason = NativeFiles.unavailableReason();
    if (coldSkippedReason == null) {
      progress.log("  evicting the journal from the page cache");
      NativeFiles.evictFromPageCache(dir);
      coldNs = timeOpen(workloads.config(dir, true).build(), entries);
    }
    return new OpenTimes(
        entries,
        entries * ENTRY_BYTES,
        segments,
        uncleanReopenNs,
        cleanReopenNs,
        fullNs,
        coldNs,
        coldSkippedReason);
  }

  /**
   * Copies the journal's files and forces the copies: everything the writer flushed is on disk
   * after a crash, so the reopen must not be timed writing back a copy's dirty pages (which a crash
   * would not leave, and which the open's forcing of recovered segments would otherwise pay for).
   */
  private static void copyDirectory(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (!file.getFileName().toString().endsWith(".lock")) {
          Path copy = to.resolve(file.getFileName());
          Files.copy(file, copy);
          try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.WRITE)) {
            channel.force(true);
          }
        }
      }
    }
  }

  private static void deleteDirectory(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Files.delete(file);
      }
    }
    Files.delete(directory);
  }

  /** Times {@code SegmentedJournal.open} alone; the close after it is not timed. */
  private static long timeOpen(JournalConfig config, long expectedLastIndex) {
    long startNs = System.nanoTime();
    SegmentedJournal journal = SegmentedJournal.open(config);
    long elapsedNs = System.nanoTime() - startNs;
    try {
      if (journal.getLastIndex() != expectedLastIndex) {
        throw new IllegalStateException(
            "Reopened journal ends at "
                + journal.getLastIndex()
                + ", expected "
                + expectedLastIndex);
      }
    } finally {
      journal.close();
    }
    return elapsedNs;
  }
}
