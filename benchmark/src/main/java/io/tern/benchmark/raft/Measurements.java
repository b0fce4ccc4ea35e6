package io.tern.benchmark.raft;

import static io.tern.benchmark.raft.RaftBenchmark.LEADER_TIMEOUT;
import static io.tern.benchmark.raft.RaftBenchmark.MEMBERS;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs each of the Raft benchmark's measurements on a fresh cluster in a fresh directory, so that
 * no measurement inherits another's log, files or garbage; a measurement that fails is noted in the
 * report with its reason and the run goes on.
 */
final class Measurements {
  private final RaftBenchmarkOptions options;
  private final Path root;
  private final Progress progress;
  private final RaftReport report;

  Measurements(RaftBenchmarkOptions options, Path root, Progress progress, RaftReport report) {
    this.options = options;
    this.root = root;
    this.progress = progress;
    this.report = report;
  }

  @FunctionalInterface
  interface Measurement<T> {
    T run(ClusterUnderTest cluster) throws Exception;
  }

  /**
   * Starts a fresh cluster in a fresh directory, runs the measurement, closes and deletes
   * everything. Returns null, with the reason in the notes, when any step failed.
   */
  <T> T measure(
      String scenario,
      String mode,
      int partitions,
      String clusterName,
      String what,
      Measurement<T> measurement) {
    progress.log("%s: %s", scenario, what);
    Path dir = null;
    ClusterUnderTest cluster = Clusters.ALL.get(clusterName).get();
    try {
      dir = Files.createTempDirectory(root, clusterName + "-");
      // Garbage from the previous cluster should not be collected on this one's time.
      System.gc();
      long startNs = System.nanoTime();
      cluster.start(
          new ClusterUnderTest.Spec(
              dir, MEMBERS, partitions, mode, options.electionTimeoutMinMs()));
      report.clusterName(clusterName, cluster.name());
      report.clusterSettings(clusterName, mode, cluster.settings());
      cluster.awaitLeaders(LEADER_TIMEOUT);
      progress.log("    leaders ready %.1f s after start", (System.nanoTime() - startNs) / 1e9);
      T result = measurement.run(cluster);
      for (String line : cluster.diagnostics()) {
        progress.log("    %s", line);
      }
      return result;
    } catch (Exception | LinkageError e) {
      String reason =
          e instanceof UnsupportedOperationException || e instanceof IllegalArgumentException
              ? e.getMessage()
              : e.toString();
      progress.log("    failed: %s", reason);
      report.note(
          "%s, %s, %s (%d partition(s)): not measured: %s"
              .formatted(scenario, clusterName, mode, partitions, reason));
      if (!(e instanceof UnsupportedOperationException || e instanceof IllegalArgumentException)) {
        e.printStackTrace(System.err);
      }
      return null;
    } finally {
      long closeNs = System.nanoTime();
      try {
        cluster.close();
      } catch (Exception e) {
        System.err.println("Closing " + clusterName + " failed: " + e);
      }
      closeNs = System.nanoTime() - closeNs;
      if (closeNs > TimeUnit.SECONDS.toNanos(2)) {
        progress.log("    closing the cluster took %.1f s", closeNs / 1e9);
      }
      if (dir != null) {
        BenchmarkFiles.deleteQuietly(dir);
      }
    }
  }

  static long ms(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }
}
