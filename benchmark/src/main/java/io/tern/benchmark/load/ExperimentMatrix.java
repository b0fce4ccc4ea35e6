package io.tern.benchmark.load;

import io.tern.engine.broker.BrokerConfigLoader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The configurations a latency experiment compares: each a name and the broker keys it sets on top
 * of the defaults. The default matrix starts with seed-baseline (Zeebe as it ran before the seed's
 * hackday: one command per batch, the RocksDB WAL on, every append flushed before it is
 * acknowledged), then Tern's defaults, then switches one flag at a time, then combines them; a YAML
 * file (name: {key: value, ...}) replaces it. In values, "{node}" stands for each broker's node id
 * and "{run}" for the experiment's run id (a tmpfs directory must be each broker's own).
 */
final class ExperimentMatrix {
  /** A named set of broker keys. */
  record Configuration(String name, Map<String, String> keys) {}

  static final String SEED_BASELINE = "seed-baseline";
  static final String BASELINE = "baseline";
  static final String SAFE_COMBINED = "safe-combined";
  static final String UNCOMMITTED = "uncommitted";
  static final String UNCOMMITTED_GATED_TIMERS = "uncommitted-gated-timers";
  static final String ALL_COMBINED = "all-combined";

  /** Runtime state on tmpfs: every broker's own directory. */
  static final String TMPFS = "/dev/shm/tern-experiment-{run}/broker-{node}";

  private ExperimentMatrix() {}

  static List<Configuration> defaults() {
    List<Configuration> matrix = new ArrayList<>();
    // Every key spelled out, the flush too (sync is the default today): the reference must not
    // move if a default does.
    matrix.add(
        new Configuration(
            SEED_BASELINE,
            ordered(
                "processing.maxCommandsInBatch", "1",
                "state.rocksdb.disableWal", "false",
                "raft.flush.mode", "sync")));
    matrix.add(new Configuration(BASELINE, Map.of()));
    matrix.add(new Configuration("flush-off", Map.of("raft.flush.mode", "off")));
    matrix.add(new Configuration("flush-async", Map.of("raft.flush.mode", "async")));
    matrix.add(new Configuration("flush-delayed", Map.of("raft.flush.mode", "delayed")));
    matrix.add(new Configuration("wal-on", Map.of("state.rocksdb.disableWal", "false")));
    matrix.add(new Configuration("state-on-tmpfs", Map.of("data.runtimeDirectory", TMPFS)));
    matrix.add(new Configuration("madvise-random", Map.of("journal.madvise", "random")));
    matrix.add(new Configuration("batch-off", Map.of("processing.maxCommandsInBatch", "1")));
    matrix.add(new Configuration(UNCOMMITTED, Map.of("processing.uncommitted", "true")));
    // The flag as it was before timers fired from uncommitted state: what that adds.
    matrix.add(
        new Configuration(
            UNCOMMITTED_GATED_TIMERS,
            ordered("processing.uncommitted", "true", "processing.uncommittedTimers", "false")));
    // Batch processing is on and the WAL off by default: the safe flags beyond them.
    matrix.add(
        new Configuration(
            SAFE_COMBINED,
            ordered(
                "raft.flush.mode", "delayed",
                "data.runtimeDirectory", TMPFS,
                "journal.madvise", "random",
                "processing.uncommitted", "true")));
    matrix.add(
        new Configuration(
            ALL_COMBINED,
            ordered(
                "raft.flush.mode", "off",
                "data.runtimeDirectory", TMPFS,
                "journal.madvise", "random",
                "processing.uncommitted", "true")));
    return matrix;
  }

  /** The matrix a YAML file describes: {@code name: {key: value}} in the file's order. */
  static List<Configuration> load(Path file) throws IOException {
    Object document;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      document = new Load(LoadSettings.builder().build()).loadFromReader(reader);
    }
    if (!(document instanceof Map<?, ?> root) || root.isEmpty()) {
      throw new IllegalArgumentException(
          file + " must map configuration names to maps of broker keys, e.g. baseline: {}");
    }
    List<Configuration> matrix = new ArrayList<>();
    for (Map.Entry<?, ?> entry : root.entrySet()) {
      Map<String, String> keys = new LinkedHashMap<>();
      if (entry.getValue() instanceof Map<?, ?> settings) {
        settings.forEach((key, value) -> keys.put(String.valueOf(key), String.valueOf(value)));
      } else if (entry.getValue() != null) {
        throw new IllegalArgumentException(
            file + ": '" + entry.getKey() + "' must map broker keys to values");
      }
      matrix.add(new Configuration(String.valueOf(entry.getKey()), keys));
    }
    return matrix;
  }

  /** The keys as TERN_* settings for one run ({@code {run}} replaced). */
  static Map<String, String> environment(Map<String, String> keys, String runId) {
    Map<String, String> environment = new LinkedHashMap<>();
    keys.forEach(
        (key, value) ->
            environment.put(
                BrokerConfigLoader.environmentVariable(key), value.replace("{run}", runId)));
    return environment;
  }

  private static Map<String, String> ordered(String... keysAndValues) {
    Map<String, String> keys = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      keys.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return keys;
  }
}
