package io.tern.benchmark.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scaling benchmark's t1 and t2 end to end with tiny sizes: each change completes, the report
 * has each target's figures and verdict, and the brokers' data is removed. t3 (nine processes) is
 * left to real runs.
 */
@Tag("slow") // seven broker processes, a change under load and a snapshot moved: docs/testing.md
class ScalingBenchmarkTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aMoveUnderLoadAndALargeMoveAreMeasuredAndReported() throws Exception {
    Path out = dir.resolve("scaling.json");
    int exit =
        ScalingBenchmark.run(
            new String[] {
              "--targets",
              "t1,t2",
              "--quick",
              "--warmup",
              "1",
              "--steady",
              "2",
              "--after",
              "1",
              "--in-flight",
              "4",
              "--state-mb",
              "2",
              "--variable-kb",
              "64",
              // A 2 MB fill is a few dozen entries: below the default threshold of 100 the new
              // replica would replay them instead of taking the snapshot this test checks.
              "--set",
              "raft.preferSnapshotReplicationThreshold=5",
              "--dir",
              dir.toString(),
              "--out",
              out.toString()
            });

    assertThat(exit).as("every target measured").isZero();
    JsonNode results = JSON.readTree(out.toFile());
    assertThat(results.get("allMeasured").asBoolean()).isTrue();

    JsonNode t1 = results.get("t1");
    assertThat(t1.get("measured").asBoolean()).isTrue();
    JsonNode round = t1.get("rounds").get(0);
    assertThat(round.get("changeStatus").asText()).isEqualTo("COMPLETED");
    assertThat(round.get("plan").toString()).contains("PARTITION_JOIN 3 2");
    assertThat(round.get("steadySeconds").size()).isPositive();
    assertThat(round.get("moveSeconds").size())
        .as("a second or more overlaps the move")
        .isPositive();
    assertThat(t1.get("steadyMedianPiPerSecond").asDouble()).isPositive();
    assertThat(t1.has("failedCreatesByStatus")).isTrue();
    assertThat(t1.get("verdict").asText()).containsPattern("^(PASS|FAIL): steady ");

    JsonNode t2 = results.get("t2");
    assertThat(t2.get("measured").asBoolean()).isTrue();
    assertThat(t2.get("snapshotInstalled").asBoolean())
        .as("the new replica took the snapshot, not the leader's log")
        .isTrue();
    assertThat(t2.get("snapshotBytes").asDouble()).isGreaterThan(1_000_000);
    assertThat(t2.get("socketCopySeconds").asDouble()).isPositive();
    assertThat(t2.get("plainCopySeconds").asDouble()).isPositive();
    assertThat(t2.get("joinSeconds").asDouble()).isPositive();
    assertThat(t2.get("rounds").get(0).get("plan").toString())
        .contains("PARTITION_JOIN 2 1")
        .contains("PARTITION_LEAVE 1 1");

    try (Stream<Path> left = Files.walk(dir)) {
      assertThat(left.filter(Files::isDirectory).map(p -> p.getFileName().toString()))
          .as("no broker's data and no snapshot copy is left, only logs")
          .noneMatch(name -> name.matches("broker-\\d+|copy-.*"));
    }
  }
}
