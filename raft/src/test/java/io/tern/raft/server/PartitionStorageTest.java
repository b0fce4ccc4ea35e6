package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.RaftEntry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a partition's storage: refusals are clear and leave nothing held. */
class PartitionStorageTest {
  @TempDir Path root;

  private PartitionStorage open() {
    return new PartitionStorage(
        TestCluster.fastConfig(root).build(), 1, new SimpleMeterRegistry(), Tags.empty());
  }

  @Test
  void aCompactedLogWithoutItsSnapshotIsRefusedAndReleasesTheJournalForARetry() {
    try (PartitionStorage storage = open()) {
      for (long index = 1; index <= 400; index++) {
        storage.log.append(
            new RaftEntry(index, 1, RaftEntry.Type.APPLICATION, index, new byte[8 * 1024]));
      }
      storage.log.compact(300, 1, 250); // as after a snapshot at 300 that is now lost
      assertThat(storage.journal.getFirstIndex()).isGreaterThan(1);
      storage.journal.flush();
    }

    for (int attempt = 1; attempt <= 2; attempt++) {
      assertThatThrownBy(this::open)
          .as("attempt %d: the same refusal, not a journal lock still held", attempt)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("is missing or damaged");
    }
  }
}
