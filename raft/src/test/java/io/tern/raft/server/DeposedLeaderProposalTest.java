package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.Member;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import io.tern.raft.RaftRole;
import io.tern.raft.transport.MessageReceiver;
import io.tern.raft.transport.RaftTransport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader whose proposals never left it is deposed by a message that, in one step, replaces those
 * entries with the new leader's and commits past them. Their futures must fail: the index they were
 * given committed, but with another entry. Member 1 runs for real; members 2 and 3 are played by
 * the test through a scripted transport.
 */
class DeposedLeaderProposalTest {
  private static final int PARTITION = 1;
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path root;

  @Test
  void proposalsReplacedByTheNextLeadersEntriesFailEvenThoughTheirIndexesCommitted()
      throws Exception {
    ScriptedPeers peers = new ScriptedPeers();
    try (RaftServer server =
        new RaftServer(1, TestCluster.fastConfig(root).build(), peers, new SimpleMeterRegistry())) {
      RaftPartition partition =
          server.addPartition(
              PARTITION,
              List.of(new Member(1, 3), new Member(2, 2), new Member(3, 1)),
              StateMachine.NONE);
      TestCluster.await(TIMEOUT, () -> partition.role() == RaftRole.LEADER, "member 1 to lead");
      long term = partition.term();
      TestCluster.await(
          TIMEOUT, () -> partition.journal().getLastIndex() == 1, "the leader's no-op entry");

      List<CompletableFuture<Long>> proposals = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        proposals.add(partition.propose(("old-" + i).getBytes(StandardCharsets.UTF_8)));
      }
      TestCluster.await(
          TIMEOUT, () -> partition.journal().getLastIndex() == 4, "the proposals appended");
      assertThat(proposals).noneMatch(CompletableFuture::isDone);
      assertThat(partition.role()).isEqualTo(RaftRole.LEADER);

      // Member 2 led term + 1 with member 3 (whose log held the committed no-op at 1, but none of
      // the proposals) and committed its own entries 2..5; its first append to member 1 carries
      // them all and their commit.
      List<RaftEntry> replacement = new ArrayList<>();
      replacement.add(RaftEntry.noop(2, term + 1));
      for (long index = 3; index <= 5; index++) {
        byte[] data = ("new-" + index).getBytes(StandardCharsets.UTF_8);
        replacement.add(new RaftEntry(index, term + 1, RaftEntry.Type.APPLICATION, -1, data));
      }
      peers.deliver(new AppendRequest(2, 1, term + 1, 1, term, replacement, 5));

      for (CompletableFuture<Long> proposal : proposals) {
        ExecutionException failure =
            org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class,
                () -> proposal.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(failure.getCause())
            .isInstanceOf(NotLeaderException.class)
            .hasMessageContaining("replaced");
      }
      // The proposals fail when their entries are replaced, which may be before the append's
      // commit index is taken.
      TestCluster.await(
          TIMEOUT, () -> partition.commitIndex() == 5, "the new leader's commit index");
    }
  }

  /**
   * Plays members 2 and 3: grants every (pre-)vote and, while member 1 leads, acknowledges its
   * appends only up to its no-op entry, so that check-quorum keeps it leader while its proposals
   * stay uncommitted.
   */
  private static final class ScriptedPeers implements RaftTransport {
    private volatile MessageReceiver receiver;

    @Override
    public boolean send(int partitionId, RaftMessage message) {
      RaftMessage answer = null;
      if (message instanceof VoteRequest vote) {
        answer = new VoteResponse(vote.to(), vote.from(), vote.term(), true, vote.preVote());
      } else if (message instanceof AppendRequest append) {
        answer =
            new AppendResponse(
                append.to(),
                append.from(),
                append.term(),
                true,
                Math.min(append.lastIndex(), 1),
                0);
      }
      if (answer != null) {
        // Not on the caller's (Raft) thread: a transport never delivers inline.
        RaftMessage reply = answer;
        CompletableFuture.runAsync(() -> receiver.onMessage(partitionId, reply));
      }
      return true;
    }

    void deliver(RaftMessage message) {
      receiver.onMessage(PARTITION, message);
    }

    @Override
    public void setReceiver(MessageReceiver receiver) {
      this.receiver = receiver;
    }

    @Override
    public int localMemberId() {
      return 1;
    }

    @Override
    public void close() {}
  }
}
