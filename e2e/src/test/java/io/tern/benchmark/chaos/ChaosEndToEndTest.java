package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos suite, short, on three real broker processes: kill -9 of a partition leader, a pause of
 * a leader longer than the election timeout and a leader's Raft links cut, each once, under load.
 * The history must be valid: nothing acknowledged lost, nothing run twice, the cluster recovered
 * every time.
 */
@Tag("slow") // three broker processes under kill -9, pause and partition: docs/testing.md
class ChaosEndToEndTest {
  @TempDir Path dir;

  @Test
  void aShortScheduleOfFaultsLeavesAValidHistory() throws Exception {
    Path run = dir.resolve("run");
    int exit =
        ChaosBenchmark.run(
            new String[] {
              "--dir", run.toString(),
              // Several gateways on one machine: each takes a free REST port, not 8080.
              "--config", "gateway.rest.port=0",
              "--faults", "kill-leader,pause,partition",
              "--duration", "1s",
              "--hold", "3s",
              "--quiet", "2s",
              "--settle", "3m",
              "--rate", "5",
              "--seed", "32"
            });

    String summary = Files.readString(run.resolve("summary.md"));
    assertThat(exit).as(summary).isZero();
    List<String> history = Files.readAllLines(run.resolve("history.jsonl"));
    assertThat(history)
        .as("every fault was injected and healed")
        .filteredOn(line -> line.contains("\"kind\":\"fault\""))
        .hasSize(3);
    assertThat(history)
        .as("instances were acknowledged and ended")
        .filteredOn(line -> line.contains("\"kind\":\"ended\"") && line.contains("\"ok\""))
        .hasSizeGreaterThan(20);
  }
}
