package io.tern.raft;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Chunk numbers a correct follower never reports must not stall or break a snapshot transfer. */
class ProgressSnapshotTest {
  private static Progress sendingAllChunksOf(int chunkCount) {
    Progress progress = new Progress(1, 4);
    progress.becomeSnapshot(new SnapshotMeta(10, 2, 42, chunkCount));
    while (progress.canSend()) {
      progress.chunkSent();
    }
    return progress;
  }

  @Test
  void aChunkNumberBeyondTheSnapshotStillLeavesTheLastChunkToResend() {
    Progress progress = sendingAllChunksOf(3);

    progress.chunksAcknowledged(100);
    progress.onHeartbeatTick(); // the answer counted for this interval
    progress.onHeartbeatTick(); // nothing since: resend from the first unconfirmed chunk

    assertThat(progress.canSend()).isTrue();
    assertThat(progress.nextChunk).isEqualTo(2);
  }

  @Test
  void aNegativeChunkNumberNeverBecomesTheNextChunk() {
    Progress progress = sendingAllChunksOf(3);

    progress.chunksAcknowledged(-5);
    progress.onHeartbeatTick();
    progress.onHeartbeatTick();

    assertThat(progress.nextChunk).isBetween(0, 2);
    assertThat(progress.ackedChunks).isZero();
  }
}
