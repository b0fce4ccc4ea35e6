package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scaling under the chaos workload, judged by the history checker: three broker processes (three
 * partitions, replication factor three) and two more started outside the cluster; under load the
 * cluster grows to five, one broker is killed with SIGKILL in the middle of a move and restarted,
 * the growth completes, the cluster shrinks back to three and the two stop. Nothing acknowledged
 * may be lost, nothing run twice, and both changes must complete.
 */
@Tag("slow") // five broker processes, one killed mid-move: docs/testing.md
class ScaleChaosTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aClusterScaledFromThreeToFiveAndBackWithAKillMidMoveLosesNothing() throws Exception {
    Path run = dir.resolve("run");
    int exit =
        ChaosBenchmark.run(
            new String[] {
              "--dir", run.toString(),
              "--config", "gateway.rest.port=0",
              "--faults", "scale",
              "--duration", "1s",
              // The killed broker stays down this long: the growth waits for it meanwhile.
              "--hold", "2s",
              "--quiet", "3s",
              "--settle", "2m",
              "--rate", "5",
              "--seed", "52"
            });

    String summary = Files.readString(run.resolve("summary.md"));
    assertThat(exit).as(summary).isZero();
    assertThat(countsRow(summary))
        .as("lost and duplicated in the summary's counts: %s", summary)
        .endsWith("| 0 | 0 |");
    List<JsonNode> history = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("history.jsonl"))) {
      history.add(JSON.readTree(line));
    }
    List<JsonNode> faults = history.stream().filter(op -> kind(op, "fault")).toList();
    assertThat(faults).as("the scale fault was injected and healed once").hasSize(1);
    JsonNode fault = faults.get(0);
    JsonNode vars = fault.path("vars");
    assertThat(vars.path(ScaleFault.UP_STATUS).asText()).as(summary).isEqualTo("COMPLETED");
    assertThat(vars.path(ScaleFault.DOWN_STATUS).asText()).as(summary).isEqualTo("COMPLETED");
    assertThat(vars.path(ScaleFault.PENDING_AT_KILL).asInt())
        .as("steps of the growth still to do after the kill: it came in the middle of the change")
        .isPositive();
    assertThat(vars.path(ScaleFault.KILLED).asInt())
        .as("the broker killed is one being added: every join of 3 -> 5 is one of theirs")
        .isIn(3, 4);

    List<JsonNode> created =
        history.stream()
            .filter(op -> kind(op, "create") && op.path("outcome").asText().equals("ok"))
            .toList();
    assertThat(created).as("instances acknowledged in all").hasSizeGreaterThanOrEqualTo(40);
    long changing = fault.path("start").asLong();
    long changed = fault.path("end").asLong();
    assertThat(created)
        .as("instances created and acknowledged while the cluster changed")
        .filteredOn(op -> op.path("start").asLong() > changing && op.path("end").asLong() < changed)
        .hasSizeGreaterThanOrEqualTo(10);
  }

  /** The row under the summary's first table: faults, operations, ..., lost, duplicated. */
  private static String countsRow(String summary) {
    List<String> lines = summary.lines().toList();
    for (int i = 0; i + 2 < lines.size(); i++) {
      if (lines.get(i).startsWith("| faults | operations |")) {
        return lines.get(i + 2);
      }
    }
    throw new AssertionError("no counts table in the summary: " + summary);
  }

  private static boolean kind(JsonNode op, String kind) {
    return op.path("kind").asText().equals(kind);
  }
}
