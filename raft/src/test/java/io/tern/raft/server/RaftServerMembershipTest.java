package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.ConfigChange;
import io.tern.raft.Member;
import io.tern.raft.Membership;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server side of a membership change: a broker creates a replica it did not start with (with
 * the group's bootstrap configuration, empty), the leader adds it as a learner, promotes it once it
 * caught up (from the leader's snapshot: the log is compacted) and removes another member, whose
 * broker then drops the replica and its data.
 */
class RaftServerMembershipTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @TempDir Path root;

  @Test
  void aReplicaMovesToANewMemberThatCatchesUpBySnapshotAndTheOldOneDropsItsData() throws Exception {
    LocalTransportHub hub = new LocalTransportHub();
    try (TestCluster cluster =
        new TestCluster(
            root,
            3,
            1,
            hub::transport,
            dir ->
                TestCluster.fastConfig(dir)
                    .segmentSizeBytes(16 * 1024)
                    .maxAppendBatchBytes(4 * 1024)
                    .snapshotChunkBytes(4 * 1024)
                    .compactionTailEntries(0)
                    .build())) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      long before = awaitAll(propose(leader, "before-", 500));
      leader.takeSnapshot(before, dir -> Files.write(dir.resolve("state"), new byte[] {7})).get();
      assertThat(leader.journal().getFirstIndex()).as("compacted").isGreaterThan(1);

      cluster.start(4); // the same bootstrap group {1, 2, 3}: member 4 is in none of it yet
      RaftPartition joining = cluster.partition(4, 1);
      assertThat(joining.membership().contains(4)).isFalse();

      change(cluster, ConfigChange.addLearner(new Member(4, 1)));
      TestCluster.await(
          TIMEOUT, () -> cluster.machines.get(4).installed != null, "snapshot on the learner");
      change(cluster, ConfigChange.promote(4));
      int leaving = leader.memberId() == 3 ? 2 : 3;
      change(cluster, ConfigChange.remove(leaving));
      cluster.servers.get(leaving).removePartition(1, true);

      assertThat(root.resolve("member-" + leaving).resolve("partition-1")).doesNotExist();
      assertThat(cluster.servers.get(leaving).partition(1)).isNull();
      RaftPartition current = cluster.awaitLeader(1, TIMEOUT);
      assertThat(current.membership().voters().stream().map(Member::id))
          .containsExactlyInAnyOrder(
              List.of(1, 2, 3, 4).stream().filter(id -> id != leaving).toArray(Integer[]::new));
      long after = awaitAll(propose(current, "after-", 100));
      TestCluster.await(TIMEOUT, () -> joining.commitIndex() >= after, "commit on member 4");
      assertThat(joining.membership().isVoter(4)).isTrue();
      assertThat(joining.configChangePending()).isFalse();
    }
  }

  /**
   * Proposes {@code change} on whoever leads until it is accepted, then waits until the leader's
   * configuration shows it committed: what a coordinator does with each step.
   */
  private static void change(TestCluster cluster, ConfigChange change) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      ConfigChange.Result result = leader.changeMembership(change).get(10, TimeUnit.SECONDS);
      if (result.accepted()) {
        TestCluster.await(
            TIMEOUT, () -> leader.commitIndex() >= result.index(), "commit of " + change);
        Membership membership = leader.membership();
        assertThat(leader.configChangePending()).isFalse();
        assertThat(membership.contains(change.member().id()))
            .isEqualTo(change.kind() != ConfigChange.Kind.REMOVE);
        return;
      }
      assertThat(result.status()).isNotEqualTo(ConfigChange.Status.INVALID);
      if (System.nanoTime() > deadline) {
        throw new AssertionError(change + " not accepted: " + result);
      }
      Thread.onSpinWait(); // retried as a coordinator would, on the next leader or once caught up
    }
  }

  private static List<CompletableFuture<Long>> propose(
      RaftPartition leader, String prefix, int count) {
    List<CompletableFuture<Long>> futures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      futures.add(leader.propose((prefix + i).getBytes(StandardCharsets.UTF_8)));
    }
    return futures;
  }

  private static long awaitAll(List<CompletableFuture<Long>> futures) throws Exception {
    long last = 0;
    for (CompletableFuture<Long> future : futures) {
      last = Math.max(last, future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
    }
    return last;
  }
}
