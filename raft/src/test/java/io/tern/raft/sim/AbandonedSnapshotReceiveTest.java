package io.tern.raft.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.HardState;
import io.tern.raft.Member;
import io.tern.raft.RaftConfig;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteResponse;
import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A snapshot transfer the leader abandons (it lost leadership to a member that has the entries, or
 * took a newer snapshot and found the follower needs none) must not leave the partly received
 * snapshot on the follower until some later transfer starts.
 */
class AbandonedSnapshotReceiveTest {
  private static final long TERM = 2;
  private static final int LEADER = 3;
  private static final int FOLLOWER = 2;
  private static final int CHUNK_BYTES = 64;

  private final SimLog log = new SimLog();
  private final SimSnapshotStore snapshots = new SimSnapshotStore(CHUNK_BYTES);
  private RaftNode follower;

  @BeforeEach
  void followerHalfWayThroughASnapshot() {
    for (long index = 1; index <= 3; index++) {
      log.append(new RaftEntry(index, TERM, RaftEntry.Type.APPLICATION, index, new byte[] {1}));
    }
    log.flush();
    follower =
        new RaftNode(
            new RaftConfig(10, 1, 3, 4096, true, true, false, Long.MAX_VALUE),
            FOLLOWER,
            List.of(new Member(1, 1), new Member(2, 1), new Member(3, 1)),
            log,
            snapshots,
            new HardState(TERM, LEADER),
            3,
            3,
            new Random(1));
    byte[] firstChunk = new byte[CHUNK_BYTES];
    CRC32C crc = new CRC32C();
    crc.update(firstChunk);
    follower.step(
        new SnapshotChunk(
            LEADER,
            FOLLOWER,
            TERM,
            10,
            TERM,
            0,
            0,
            2,
            "state",
            0,
            firstChunk,
            (int) crc.getValue()));
    follower.ready();
    assertThat(snapshots.receiving()).as("chunk 0 of 2 taken").isNotNull();
  }

  @Test
  void entriesThatMatchTheLogEndTheReceive() {
    RaftEntry next = new RaftEntry(4, TERM, RaftEntry.Type.APPLICATION, 4, new byte[] {2});
    follower.step(new AppendRequest(LEADER, FOLLOWER, TERM, 3, TERM, List.of(next), 3));

    assertThat(log.lastIndex()).isEqualTo(4);
    assertThat(snapshots.receiving()).isNull();
  }

  @Test
  void entriesBelowTheCommitIndexEndTheReceiveToo() {
    RaftEntry old = new RaftEntry(3, TERM, RaftEntry.Type.APPLICATION, 3, new byte[] {1});
    follower.step(new AppendRequest(LEADER, FOLLOWER, TERM, 2, TERM, List.of(old), 3));

    assertThat(snapshots.receiving()).isNull();
  }

  @Test
  void heartbeatsDuringTheTransferKeepIt() {
    follower.step(new AppendRequest(LEADER, FOLLOWER, TERM, 3, TERM, List.of(), 3));

    assertThat(snapshots.receiving()).isNotNull();
  }

  @Test
  void becomingLeaderEndsTheReceive() {
    follower.step(new TimeoutNow(LEADER, FOLLOWER, TERM));
    follower.ready();
    follower.step(new VoteResponse(1, FOLLOWER, TERM + 1, true, false));

    assertThat(follower.role()).isEqualTo(RaftRole.LEADER);
    assertThat(snapshots.receiving()).isNull();
  }
}
