package io.tern.benchmark.raft;

import static io.tern.benchmark.raft.RaftBenchmark.ENTRY_BYTES;
import static io.tern.benchmark.raft.RaftBenchmark.MEMBERS;

import io.tern.benchmark.common.LatencySummary;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.machine.ConcurrentFlushFloor;
import io.tern.benchmark.machine.HandOffLoad;
import io.tern.benchmark.machine.RawDiskLimits;
import io.tern.benchmark.machine.StallWatch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The machine's own limits under the Raft benchmark's figures, measured in the same run and data
 * directory: one durable write, the flushes a safe-mode cluster makes (with the opt-in hand-off
 * probe beside them) and a sequential write as large as the snapshot. Each is printed and noted in
 * the report next to the figures it bounds, so that a figure is read against what this machine can
 * do at all; the flush floors also feed the verdicts ({@link RaftTargets}).
 */
final class PhysicalLimits {
  private final RaftBenchmarkOptions options;
  private final Path root;
  private final Progress progress;
  private final RaftReport report;
  private final Set<Integer> flushFloorsMeasured = new HashSet<>();
  private final Map<Integer, RaftTargets.Floor> flushFloors = new HashMap<>();
  private boolean diskSequentialMeasured;
  private boolean handOffsProbed;

  PhysicalLimits(RaftBenchmarkOptions options, Path root, Progress progress, RaftReport report) {
    this.options = options;
    this.root = root;
    this.progress = progress;
    this.report = report;
  }

  /** The flush floors measured so far, by partition count. */
  Map<Integer, RaftTargets.Floor> flushFloors() {
    return flushFloors;
  }

  /**
   * The physical limit under sync-mode commit latency, measured in the same run and directory: one
   * entry written and fdatasynced. A sync commit waits for at least one such flush on the leader
   * and one on a follower (in parallel), plus the network.
   */
  void measureDiskFloor() {
    Duration duration = Duration.ofSeconds(options.quick() ? 2 : 5);
    try {
      LatencySummary raw = RawDiskLimits.durableWriteLatency(root, ENTRY_BYTES, duration);
      String line =
          String.format(
              Locale.ROOT,
              "Physical limit in this run: %d-byte write + fdatasync p50 %.0f µs, p99 %.0f µs,"
                  + " p99.9 %.0f µs, max %.0f µs (%d samples in %s)",
              ENTRY_BYTES,
              raw.p50Ns() / 1e3,
              raw.p99Ns() / 1e3,
              raw.p999Ns() / 1e3,
              raw.maxNs() / 1e3,
              raw.count(),
              duration);
      progress.log("%s", line);
      report.note(line + ".");
    } catch (IOException e) {
      progress.log("raw fdatasync latency not measured: %s", e);
    }
  }

  /**
   * The disk's own latency for the flushes a safe-mode cluster of {@code partitions} makes: every
   * member's journal (3 per partition) flushed after each write by its own thread at the offered
   * rate over the partitions, with nothing else running. Once per partition count and run.
   */
  void measureFlushFloor(int partitions) {
    if (!flushFloorsMeasured.add(partitions)) {
      return;
    }
    int journals = MEMBERS * partitions;
    double perJournal = (double) options.ratePerS() / partitions;
    Duration duration = Duration.ofSeconds(options.quick() ? 1 : 5);
    try (ConcurrentFlushFloor files =
        ConcurrentFlushFloor.prepare(root, journals, perJournal, ENTRY_BYTES, duration)) {
      StallWatch watch = StallWatch.enabled() ? StallWatch.start() : null;
      LatencySummary floor;
      StallWatch.Stalls stalls = StallWatch.Stalls.NONE;
      try {
        floor = files.measure();
      } finally {
        if (watch != null) {
          stalls = watch.stop();
        }
      }
      String line =
          String.format(
              Locale.ROOT,
              "Physical limit for %d partition(s) in this run: %d zero-filled files (every member's"
                  + " journal),"
                  + " each written at %.0f entries/s of %d bytes by its own thread with an"
                  + " fdatasync after every write, latency from each entry's intended time: p50"
                  + " %.0f µs, p99 %.0f µs, p99.9 %.0f µs, max %.0f µs; %s",
              partitions,
              journals,
              perJournal,
              ENTRY_BYTES,
              floor.p50Ns() / 1e3,
              floor.p99Ns() / 1e3,
              floor.p999Ns() / 1e3,
              floor.maxNs() / 1e3,
              watch == null
                  ? "machine stalls not watched"
                  : String.format(
                      Locale.ROOT,
                      "machine stalls %d, %.0f ms in all",
                      stalls.count(),
                      stalls.totalNs() / 1e6));
      progress.log("%s", line);
      report.note(line + ".");
      RaftTargets.HandOffProbe probe = null;
      if (watch != null) {
        try {
          probe = probeHandOffs(files, stalls.count());
        } catch (IOException | RuntimeException e) {
          progress.log("hand-off probe not measured: %s", e); // the floor itself still counts
        }
      } else if (options.handOffProbeRoundTripsPerS() > 0 && !handOffsProbed) {
        handOffsProbed = true;
        progress.log(
            "hand-off probe not measured: it counts machine stalls, and -D%s=false turned the"
                + " stall watch off",
            StallWatch.ENABLED_PROPERTY);
      }
      flushFloors.put(
          partitions,
          new RaftTargets.Floor(floor.p99Ns() / 1e6, floor.p999Ns() / 1e6, stalls.count(), probe));
    } catch (IOException e) {
      progress.log("flush floor for %d partition(s) not measured: %s", partitions, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while measuring the flush floor", e);
    }
  }

  /**
   * The same flushes again, with two threads beside them waking each other {@code --hand-off-probe}
   * times a second: whether this machine freezes when thread wake-ups come with fsyncs, with no
   * Raft code running. Once per run (the first partition count), and only when asked for: it is
   * about the machine, not the clusters.
   */
  private RaftTargets.HandOffProbe probeHandOffs(ConcurrentFlushFloor files, long floorStalls)
      throws IOException, InterruptedException {
    int roundTripsPerS = options.handOffProbeRoundTripsPerS();
    if (roundTripsPerS == 0 || handOffsProbed) {
      return null;
    }
    handOffsProbed = true;
    LatencySummary floor;
    StallWatch.Stalls stalls;
    long roundTrips;
    StallWatch watch = StallWatch.start();
    try (HandOffLoad load = HandOffLoad.start(roundTripsPerS)) {
      try {
        floor = files.measure();
      } finally {
        stalls = watch.stop();
      }
      roundTrips = load.roundTrips();
    }
    String line =
        String.format(
            Locale.ROOT,
            "The same flushes with two threads beside them waking each other %d times a second"
                + " (%d round trips done; no Raft code): p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs;"
                + " machine stalls %d, %.0f ms in all (the flushes alone: %d): %s",
            roundTripsPerS,
            roundTrips,
            floor.p50Ns() / 1e3,
            floor.p99Ns() / 1e3,
            floor.p999Ns() / 1e3,
            stalls.count(),
            stalls.totalNs() / 1e6,
            floorStalls,
            RaftTargets.HandOffProbe.freezes(stalls.count(), floorStalls)
                ? "this machine freezes when wake-ups and fsyncs come together, so a cluster's"
                    + " hand-offs between threads are likely to stall it too"
                : "too few stalls here to tell whether wake-ups beside fsyncs freeze this machine (the"
                    + " probe's count varies from run to run: few stalls do not clear it)");
    progress.log("%s", line);
    report.note(line + ".");
    return new RaftTargets.HandOffProbe(roundTripsPerS, floor.p99Ns() / 1e6, stalls.count());
  }

  /**
   * The disk's sequential write speed for a file of {@code bytes}, the limit under the snapshot
   * install rate. Once per run.
   */
  void measureSequentialWrite(long bytes) {
    if (!diskSequentialMeasured) {
      diskSequentialMeasured = true;
      try {
        double raw = RawDiskLimits.sequentialWriteMegabytesPerS(root, bytes);
        String line =
            String.format(
                Locale.ROOT,
                "Physical limit in this run: %d MiB written sequentially in 1 MiB blocks (direct"
                    + " I/O where available) and forced: %.0f MB/s",
                bytes >> 20,
                raw);
        progress.log("%s", line);
        report.note(line + ".");
      } catch (IOException e) {
        progress.log("raw sequential write speed not measured: %s", e);
      }
    }
  }
}
