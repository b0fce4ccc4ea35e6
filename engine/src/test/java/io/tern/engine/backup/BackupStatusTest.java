package io.tern.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.backup.BackupManifest.State;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A backup's state from its parts, over a cluster of three partitions. */
class BackupStatusTest {
  private static BackupManifest part(int partitionId, State state) {
    return new BackupManifest(
        9,
        partitionId,
        0,
        state,
        state == State.FAILED ? "disk full" : null,
        "2026-12-07T20:00:00Z",
        "2026-12-07T20:00:01Z",
        100,
        10,
        1,
        null,
        "8.6.0",
        3,
        3,
        3,
        List.of());
  }

  private static BackupStatus of(BackupManifest... parts) {
    return BackupStatus.of(9, List.of(parts));
  }

  @Test
  void completedOnlyWhenEveryPartitionStoredItsPart() {
    BackupStatus all =
        of(part(3, State.COMPLETED), part(1, State.COMPLETED), part(2, State.COMPLETED));
    assertThat(all.state()).isEqualTo(BackupStatus.State.COMPLETED);
    assertThat(all.missingPartitions()).isEmpty();
    assertThat(all.incompleteReason()).isNull();
  }

  @Test
  void aMissingPartWhileAnotherIsInProgressIsStillInProgress() {
    // The missing partition's leader may be about to announce its part.
    BackupStatus status = of(part(1, State.COMPLETED), part(2, State.IN_PROGRESS));
    assertThat(status.state()).isEqualTo(BackupStatus.State.IN_PROGRESS);
    assertThat(status.missingPartitions()).containsExactly(3);
  }

  @Test
  void aMissingPartWithNoneInProgressIsIncompleteAndNamed() {
    BackupStatus one = of(part(1, State.COMPLETED), part(3, State.COMPLETED));
    assertThat(one.state()).isEqualTo(BackupStatus.State.INCOMPLETE);
    assertThat(one.missingPartitions()).containsExactly(2);
    assertThat(one.incompleteReason()).startsWith("partition 2 has no stored part");

    BackupStatus two = of(part(2, State.COMPLETED));
    assertThat(two.state()).isEqualTo(BackupStatus.State.INCOMPLETE);
    assertThat(two.missingPartitions()).containsExactly(1, 3);
    assertThat(two.incompleteReason()).startsWith("partitions 1 and 3 have no stored part");
  }

  @Test
  void aFailedPartFailsTheBackupWhateverElse() {
    assertThat(of(part(1, State.FAILED), part(2, State.IN_PROGRESS)).state())
        .isEqualTo(BackupStatus.State.FAILED);
    assertThat(of(part(2, State.FAILED)).state()).isEqualTo(BackupStatus.State.FAILED);
  }

  @Test
  void noPartIsNoBackup() {
    assertThat(of().state()).isEqualTo(BackupStatus.State.DOES_NOT_EXIST);
  }
}
