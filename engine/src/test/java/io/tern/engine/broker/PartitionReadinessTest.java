package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.partition.ReplayLag;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.raft.RaftRole;
import org.junit.jupiter.api.Test;

class PartitionReadinessTest {
  private static final long LIMIT = ReplayLag.MAX_CAUGHT_UP_LAG_ENTRIES;

  @Test
  void aFollowerReplayingFarBehindIsNotReadyAndSaysHowFar() {
    assertThat(
            PartitionReadiness.problem(
                2, RaftRole.FOLLOWER, ProcessorPhase.REPLAYING, false, 123_456))
        .isEqualTo("partition 2 replaying: 123456 entries behind the commit index");
  }

  @Test
  void aFollowerKeepingUpIsReady() {
    assertThat(
            PartitionReadiness.problem(
                2, RaftRole.FOLLOWER, ProcessorPhase.REPLAYING, false, LIMIT))
        .isNull();
    assertThat(PartitionReadiness.problem(2, RaftRole.FOLLOWER, ProcessorPhase.REPLAYING, false, 0))
        .isNull();
  }

  @Test
  void aLeaderIsReadyOnceItProcessesOrIsPaused() {
    assertThat(PartitionReadiness.problem(1, RaftRole.LEADER, ProcessorPhase.PROCESSING, false, 0))
        .isNull();
    assertThat(PartitionReadiness.problem(1, RaftRole.LEADER, ProcessorPhase.PAUSED, false, 0))
        .isNull();
    assertThat(
            PartitionReadiness.problem(1, RaftRole.LEADER, ProcessorPhase.REPLAYING, false, 5_000))
        .isEqualTo(
            "partition 1 leads but does not process yet (REPLAYING, 5000 entries behind the commit"
                + " index)");
  }

  @Test
  void noRoleOrAFailureIsNotReady() {
    assertThat(
            PartitionReadiness.problem(3, RaftRole.CANDIDATE, ProcessorPhase.REPLAYING, false, 0))
        .isEqualTo("partition 3 has no role yet (CANDIDATE)");
    assertThat(PartitionReadiness.problem(3, RaftRole.FOLLOWER, ProcessorPhase.FAILED, false, 0))
        .isEqualTo("partition 3 failed");
    assertThat(PartitionReadiness.problem(3, RaftRole.LEADER, ProcessorPhase.PROCESSING, true, 0))
        .isEqualTo("partition 3 failed");
  }
}
