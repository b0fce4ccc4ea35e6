package io.tern.raft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.HardState;
import io.tern.raft.Member;
import io.tern.raft.RaftConfig;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftNode;
import io.tern.raft.Ready;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A snapshot chunk can arrive at a member whose log already goes past the snapshot: a chunk still
 * in flight from before the member restarted (restart forgets the commit index) or a leader that
 * chose an old snapshot. Found by simulation seed 75626 (flush mode delayed): the member reset its
 * log to the snapshot and so lost committed entries after it; the next leader lacked them.
 */
class StaleSnapshotChunkTest {
  private static final long TERM = 2;
  private static final int LEADER = 3;
  private static final int FOLLOWER = 2;

  private final SimLog log = new SimLog();
  private final SimSnapshotStore snapshots = new SimSnapshotStore(64);

  private RaftNode restartedFollowerWithEntries(long lastIndex) {
    for (long index = 1; index <= lastIndex; index++) {
      log.append(new RaftEntry(index, TERM, RaftEntry.Type.APPLICATION, index, new byte[] {1}));
    }
    log.flush();
    List<Member> group = List.of(new Member(1, 1), new Member(2, 1), new Member(3, 1));
    // After a restart the commit index is only the snapshot's (none here): 0.
    return new RaftNode(
        new RaftConfig(10, 1, 3, 4096, true, true, false, Long.MAX_VALUE),
        FOLLOWER,
        group,
        log,
        snapshots,
        new HardState(TERM, LEADER),
        lastIndex,
        0,
        new Random(1));
  }

  private static SnapshotChunk chunk(long snapshotIndex, long snapshotTerm) {
    byte[] state = {7, 7, 7};
    return new SnapshotChunk(
        LEADER, FOLLOWER, TERM, snapshotIndex, snapshotTerm, 0, 0, 1, "state", 0, state, 0);
  }

  @Test
  void aChunkForASnapshotTheLogAlreadyHoldsKeepsTheEntriesAfterIt() {
    RaftNode follower = restartedFollowerWithEntries(13);

    follower.step(chunk(3, TERM));
    Ready ready = follower.ready();

    assertThat(log.lastIndex()).as("entries 4..13 may be committed: kept").isEqualTo(13);
    assertThat(log.firstIndex()).isEqualTo(1);
    assertThat(ready.installedSnapshot()).as("nothing to install").isNull();
    assertThat(follower.commitIndex()).as("the snapshot's index is committed").isEqualTo(3);
    List<RaftMessage> answers = ready.messages();
    assertThat(answers)
        .singleElement()
        .isInstanceOfSatisfying(
            SnapshotResponse.class,
            response -> {
              assertThat(response.installed()).isTrue();
              assertThat(response.snapshotIndex()).isEqualTo(3);
            });
  }

  @Test
  void aChunkWhoseLastEntryConflictsWithTheLogStillStartsAReceive() {
    RaftNode follower = restartedFollowerWithEntries(13);

    // Term 1 at index 3 differs from the log's term 2 there: the log after it cannot be committed.
    follower.step(chunk(3, 1));
    Ready ready = follower.ready();

    assertThat(log.lastIndex()).as("not reset before the snapshot is complete").isEqualTo(13);
    assertThat(ready.messages())
        .singleElement()
        .isInstanceOfSatisfying(
            SnapshotResponse.class,
            response -> {
              assertThat(response.installed()).as("the chunk's CRC is wrong: rejected").isFalse();
              assertThat(response.nextChunkIndex()).isZero();
            });
  }
}
