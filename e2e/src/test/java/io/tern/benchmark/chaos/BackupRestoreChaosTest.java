package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Wipe and restore under the chaos workload, judged by the chaos suite's history checker in its
 * checkpoint mode: three broker processes (three partitions, replication factor three) take a
 * backup under load, the load goes on after the checkpoint, then every broker is killed, its data
 * deleted and restored by bin/restore, and started again. Every instance acknowledged before the
 * checkpoint must be there and end, with the variables its jobs wrote; nothing of after the
 * checkpoint may show in part; and the restored cluster takes new instances to their end.
 */
@Tag("slow") // three broker processes killed, wiped and restored: docs/testing.md
class BackupRestoreChaosTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aWipeAndRestoreKeepsWhatWasAcknowledgedBeforeTheCheckpointAndNothingInPart()
      throws Exception {
    Path run = dir.resolve("run");
    int exit =
        ChaosBenchmark.run(
            new String[] {
              "--dir", run.toString(),
              "--config", "gateway.rest.port=0",
              "--config", "data.backup.store=filesystem",
              "--config", "data.backup.filesystem.basePath=" + dir.resolve("backups"),
              // Snapshots during the run: the backup holds one and the log after it.
              "--config", "data.snapshotEveryRecords=300",
              "--faults", "restore",
              "--duration", "1s",
              // Load before the backup, after its checkpoint, and on the restored cluster.
              "--quiet", "6s",
              "--hold", "4s",
              "--settle", "3m",
              "--rate", "5",
              "--seed", "51"
            });

    String summary = Files.readString(run.resolve("summary.md"));
    assertThat(exit).as(summary).isZero();
    List<JsonNode> history = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("history.jsonl"))) {
      history.add(JSON.readTree(line));
    }
    List<JsonNode> restores =
        history.stream().filter(op -> op.path("vars").has(FaultInjector.WIPED)).toList();
    assertThat(restores).as("the restore fault was injected and healed").hasSize(1);
    JsonNode restore = restores.get(0).path("vars");
    long asked = restore.path(FaultInjector.CHECKPOINT_ASKED).asLong();
    long answered = restore.path(FaultInjector.CHECKPOINT_ANSWERED).asLong();
    long wiped = restore.path(FaultInjector.WIPED).asLong();

    Set<Long> ended = new TreeSet<>();
    history.stream()
        .filter(op -> kind(op, "ended") && op.path("outcome").asText().equals("ok"))
        .forEach(op -> ended.add(op.path("instanceKey").asLong()));
    List<JsonNode> created =
        history.stream()
            .filter(op -> kind(op, "create") && op.path("outcome").asText().equals("ok"))
            .toList();
    // The checker's verdict is what counts; these say that each of its cases was exercised.
    assertThat(created)
        .as("instances acknowledged before the checkpoint, which the restore must keep")
        .filteredOn(op -> op.path("end").asLong() < asked)
        .hasSizeGreaterThanOrEqualTo(10);
    assertThat(created)
        .as("instances created after the checkpoint, which the restore takes away")
        .filteredOn(op -> op.path("start").asLong() > answered && op.path("end").asLong() < wiped)
        .isNotEmpty();
    List<JsonNode> fresh =
        created.stream().filter(op -> op.path("start").asLong() > wiped).toList();
    assertThat(fresh).as("new instances on the restored cluster").hasSizeGreaterThanOrEqualTo(5);
    assertThat(fresh)
        .as("the restored cluster took its new instances to their end")
        .allMatch(op -> ended.contains(op.path("instanceKey").asLong()));
  }

  private static boolean kind(JsonNode op, String kind) {
    return op.path("kind").asText().equals(kind);
  }
}
