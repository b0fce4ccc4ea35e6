package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.journal.JournalReader;
import io.tern.journal.JournalRecord;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftRole;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.transport.RaftTransport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The driver over in-process transports: threads, flush modes, failover, snapshots, metrics. */
class RaftServerTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path root;

  private TestCluster cluster(int partitions, FlushMode mode) {
    return cluster(new LocalTransportHub(), partitions, mode);
  }

  private TestCluster cluster(LocalTransportHub hub, int partitions, FlushMode mode) {
    return new TestCluster(
        root,
        3,
        partitions,
        hub::transport,
        dir -> TestCluster.fastConfig(dir).flushMode(mode).flushDelayMs(5).build());
  }

  private static List<CompletableFuture<Long>> proposeMany(
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

  /** The application payloads in a member's journal, in order (Raft header stripped). */
  private static List<String> payloads(RaftPartition partition, long upTo) {
    List<String> payloads = new ArrayList<>();
    try (JournalReader reader = partition.journal().openReader()) {
      reader.seek(partition.journal().getFirstIndex());
      while (reader.hasNext()) {
        JournalRecord record = reader.next();
        if (record.index() > upTo) {
          break;
        }
        boolean noop = record.data().getByte(8) == 1; // see JournalRaftLog's entry layout
        if (!noop) {
          byte[] bytes = new byte[record.data().capacity() - 16];
          record.data().getBytes(16, bytes);
          payloads.add(new String(bytes, StandardCharsets.UTF_8));
        }
      }
    }
    return payloads;
  }

  @ParameterizedTest
  @EnumSource(FlushMode.class)
  void everyFlushModeReplicatesAndCommitsOnEveryMember(FlushMode mode) throws Exception {
    LocalTransportHub hub = new LocalTransportHub();
    try (TestCluster cluster = cluster(hub, 2, mode)) {
      for (int p = 1; p <= 2; p++) {
        RaftPartition leader = cluster.awaitLeader(p, TIMEOUT);
        long last = awaitAll(proposeMany(leader, "p" + p + "-", 300));
        for (int member = 1; member <= 3; member++) {
          RaftPartition replica = cluster.partition(member, p);
          TestCluster.await(TIMEOUT, () -> replica.commitIndex() >= last, "commit on " + replica);
          List<String> payloads = payloads(replica, last);
          assertThat(payloads).hasSize(300).startsWith("p" + p + "-0").endsWith("p" + p + "-299");
        }
      }
      TestCluster.await(
          TIMEOUT, () -> hub.unreleased() == 0, "every delivered append request released");
      assertThat(cluster.machines.get(1).commitIndex).isPositive();
    }
  }

  @Test
  void delayedFlushCoalescesFlushesButStillCommitsEverything() throws Exception {
    LocalTransportHub hub = new LocalTransportHub();
    try (TestCluster cluster =
        new TestCluster(
            root,
            3,
            1,
            hub::transport,
            dir ->
                TestCluster.fastConfig(dir)
                    .flushMode(FlushMode.DELAYED)
                    .flushDelayMs(20)
                    .build())) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      int member = leader.memberId();
      double flushesBefore = flushCount(cluster, member);
      awaitAll(proposeMany(leader, "x", 2000));
      double flushes = flushCount(cluster, member) - flushesBefore;

      assertThat(flushes).as("one flush covers many entries").isLessThan(2000 / 4.0);
    }
  }

  private static double flushCount(TestCluster cluster, int member) {
    return cluster.registries.get(member).get("tern.journal.flush.latency").timers().stream()
        .mapToDouble(t -> t.count())
        .sum();
  }

  @Test
  void manyPartitionsShareTheConfiguredRaftAndFlushThreads() throws Exception {
    LocalTransportHub hub = new LocalTransportHub();
    int partitions = 7;
    try (TestCluster cluster =
        new TestCluster(
            root,
            3,
            partitions,
            hub::transport,
            dir -> TestCluster.fastConfig(dir).raftThreads(2).flushThreads(3).build())) {
      for (int p = 1; p <= partitions; p++) {
        RaftPartition leader = cluster.awaitLeader(p, TIMEOUT);
        long last = awaitAll(proposeMany(leader, "p" + p + "-", 100));
        for (int member = 1; member <= 3; member++) {
          RaftPartition replica = cluster.partition(member, p);
          TestCluster.await(TIMEOUT, () -> replica.commitIndex() >= last, "commit on " + replica);
          assertThat(payloads(replica, last)).hasSize(100).endsWith("p" + p + "-99");
        }
      }
      for (int member = 1; member <= 3; member++) {
        assertThat(threadsNamed("raft-" + member + "-\\d+")).isEqualTo(2);
        assertThat(threadsNamed("raft-" + member + "-flush-\\d+")).isEqualTo(3);
      }
      // A member's threads end with it; a restarted member gets new ones and catches up.
      cluster.kill(2);
      assertThat(threadsNamed("raft-2-.*")).isZero();
      cluster.start(2);
      RaftPartition leader = cluster.awaitLeader(partitions, TIMEOUT);
      long last = awaitAll(proposeMany(leader, "after-", 50));
      RaftPartition restarted = cluster.partition(2, partitions);
      TestCluster.await(TIMEOUT, () -> restarted.commitIndex() >= last, "catch-up of member 2");
    }
  }

  private static long threadsNamed(String regex) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(thread -> thread.isAlive() && thread.getName().matches(regex))
        .count();
  }

  @Test
  void aNewLeaderTakesOverWhenTheLeaderDiesAndTheOldOneCatchesUpOnRestart() throws Exception {
    try (TestCluster cluster = cluster(3, FlushMode.SYNC)) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      int killed = leader.memberId();
      awaitAll(proposeMany(leader, "before-", 50));

      cluster.kill(killed);
      RaftPartition next = cluster.awaitLeader(1, TIMEOUT);
      long last = awaitAll(proposeMany(next, "after-", 50));

      assertThat(next.memberId()).isNotEqualTo(killed);
      cluster.start(killed);
      RaftPartition restarted = cluster.partition(killed, 1);
      TestCluster.await(TIMEOUT, () -> restarted.commitIndex() >= last, "the restarted member");
      List<String> payloads = payloads(restarted, last);
      assertThat(payloads).contains("before-0", "before-49", "after-0", "after-49");
      // The other partitions still have leaders too.
      cluster.awaitLeader(2, TIMEOUT);
      cluster.awaitLeader(3, TIMEOUT);
    }
  }

  /**
   * A follower appends received entries straight from the borrowed frame (the hub overwrites it on
   * release). Once leader, it must replicate them from its journal, not from views kept past the
   * release: the member that missed them must get exactly what was proposed.
   */
  @Test
  void aFollowerTurnedLeaderReplicatesWhatItReceivedToAMemberThatMissedIt() throws Exception {
    LocalTransportHub hub = new LocalTransportHub();
    try (TestCluster cluster = cluster(hub, 1, FlushMode.SYNC)) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      int missed = leader.memberId() % 3 + 1;
      cluster.kill(missed);
      long last = awaitAll(proposeMany(leader, "received-", 100));
      int survivor = 6 - leader.memberId() - missed;
      RaftPartition follower = cluster.partition(survivor, 1);
      TestCluster.await(TIMEOUT, () -> follower.commitIndex() >= last, "commit on " + follower);

      cluster.kill(leader.memberId());
      cluster.start(missed);
      RaftPartition next = cluster.awaitLeader(1, TIMEOUT);
      assertThat(next.memberId()).as("only the survivor has the entries").isEqualTo(survivor);
      RaftPartition caughtUp = cluster.partition(missed, 1);
      TestCluster.await(TIMEOUT, () -> caughtUp.commitIndex() >= last, "commit on " + caughtUp);

      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        expected.add("received-" + i);
      }
      assertThat(payloads(caughtUp, last)).isEqualTo(expected);
      assertThat(payloads(next, last)).isEqualTo(expected);
      TestCluster.await(
          TIMEOUT, () -> hub.unreleased() == 0, "every delivered append request released");
    }
  }

  @Test
  void anAppendForAPartitionTheBrokerDoesNotHostIsReleasedAndCounted() throws Exception {
    LocalTransportHub hub = new LocalTransportHub();
    try (TestCluster cluster = cluster(hub, 1, FlushMode.SYNC)) {
      cluster.awaitLeader(1, TIMEOUT);
      RaftTransport stranger = hub.transport(9);
      AppendRequest request =
          new AppendRequest(
              9,
              1,
              1,
              0,
              0,
              List.of(new RaftEntry(1, 1, RaftEntry.Type.APPLICATION, 1, new byte[] {1})),
              0);

      assertThat(stranger.send(99, request)).isTrue();

      assertThat(hub.unreleased(99)).isZero();
      assertThat(
              cluster
                  .registries
                  .get(1)
                  .get("tern.raft.messages.unknown.partition")
                  .counter()
                  .count())
          .isEqualTo(1);
    }
    assertThat(hub.unreleased()).as("after close").isZero();
  }

  /**
   * Commands queued behind one that stops the partition (an Error on the Raft thread) are failed
   * when it stops; before, their futures never completed and a caller without a timeout hung.
   */
  @Test
  void commandsQueuedBehindOneThatStopsThePartitionFailInsteadOfHanging() throws Exception {
    try (TestCluster cluster = cluster(1, FlushMode.SYNC)) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      long index = awaitAll(proposeMany(leader, "x", 1));
      CountDownLatch writing = new CountDownLatch(1);
      CountDownLatch breakNow = new CountDownLatch(1);
      CompletableFuture<SnapshotMeta> breaking =
          leader.takeSnapshot(
              index,
              directory -> {
                writing.countDown();
                try {
                  breakNow.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                throw new AssertionError("the state machine broke");
              });
      assertThat(writing.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      CompletableFuture<String> queued = leader.describeReplication();
      CompletableFuture<Boolean> transfer = leader.transferLeadership(leader.memberId() % 3 + 1);
      CompletableFuture<Long> proposal = leader.propose("after".getBytes(StandardCharsets.UTF_8));

      breakNow.countDown();

      assertThatThrownBy(() -> breaking.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .hasCauseInstanceOf(AssertionError.class);
      for (CompletableFuture<?> future : List.of(queued, transfer, proposal)) {
        assertThatThrownBy(() -> future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
            .isInstanceOf(ExecutionException.class)
            .hasMessageContaining("is closed");
      }
    }
  }

  /**
   * A broker closed by an interrupted thread (a shutdown hook, an executor being stopped) must
   * still wait for the running Raft turn: closing the journal under it would leave the turn writing
   * to unmapped storage, and the proposal queued behind it unanswered.
   */
  @Test
  void anInterruptedCloseStillWaitsForTheRunningTurnAndAnswersWhatWasQueued() throws Exception {
    try (TestCluster cluster = cluster(1, FlushMode.SYNC)) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      long index = awaitAll(proposeMany(leader, "x", 1));
      CountDownLatch writing = new CountDownLatch(1);
      CountDownLatch finishNow = new CountDownLatch(1);
      AtomicBoolean turnEnded = new AtomicBoolean();
      CompletableFuture<SnapshotMeta> snapshot =
          leader.takeSnapshot(
              index,
              directory -> {
                writing.countDown();
                awaitUninterruptibly(finishNow);
                turnEnded.set(true);
              });
      assertThat(writing.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      CompletableFuture<Long> queued = leader.propose("queued".getBytes(StandardCharsets.UTF_8));
      RaftServer server = cluster.servers.remove(leader.memberId());
      AtomicBoolean turnEndedBeforeCloseReturned = new AtomicBoolean();
      AtomicBoolean interruptKept = new AtomicBoolean();
      Thread closer =
          new Thread(
              () -> {
                Thread.currentThread().interrupt();
                server.close();
                turnEndedBeforeCloseReturned.set(turnEnded.get());
                interruptKept.set(Thread.currentThread().isInterrupted());
              },
              "interrupted-closer");

      closer.start();
      TestCluster.await(
          TIMEOUT,
          () -> closer.getState() == Thread.State.TIMED_WAITING || !closer.isAlive(),
          "the closer waits (or, wrongly, returned)");
      finishNow.countDown();
      closer.join(TIMEOUT.toMillis());

      assertThat(closer.isAlive()).isFalse();
      assertThat(turnEndedBeforeCloseReturned).as("turn ended before close returned").isTrue();
      assertThat(snapshot.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).index()).isEqualTo(index);
      assertThatThrownBy(() -> queued.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasMessageContaining("is closed");
      assertThat(interruptKept).as("the closer's interrupt flag is set again").isTrue();
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    while (true) {
      try {
        latch.await();
        return;
      } catch (InterruptedException e) {
        // The partition's thread is not interrupted by close; keep waiting for the test's signal.
      }
    }
  }

  @Test
  void aFollowerRefusesProposalsAndNamesTheLeader() throws Exception {
    try (TestCluster cluster = cluster(1, FlushMode.SYNC)) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      awaitAll(proposeMany(leader, "x", 1));
      int followerId = leader.memberId() % 3 + 1;
      RaftPartition follower = cluster.partition(followerId, 1);
      TestCluster.await(TIMEOUT, () -> follower.leaderId() == leader.memberId(), "leader known");

      CompletableFuture<Long> refused = follower.propose(new byte[] {1});

      assertThatThrownBy(() -> refused.get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(NotLeaderException.class)
          .hasMessageContaining("the leader is member " + leader.memberId());
    }
  }

  /** The state machine bounds compaction (the engine's exporters): nothing after the bound goes. */
  @Test
  void compactionStopsAtTheBoundTheStateMachineSets() throws Exception {
    LocalTransportHub hub = new LocalTransportHub();
    try (TestCluster cluster =
        new TestCluster(
            root,
            1,
            1,
            hub::transport,
            dir ->
                TestCluster.fastConfig(dir)
                    .segmentSizeBytes(16 * 1024)
                    .maxAppendBatchBytes(4 * 1024)
                    .compactionTailEntries(0)
                    .build())) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      AtomicLong bound = new AtomicLong(0);
      leader.setCompactionBound(bound::get);
      long last = awaitAll(proposeMany(leader, "entry-with-some-padding-", 1000));
      leader.takeSnapshot(last, dir -> Files.write(dir.resolve("state"), new byte[1])).get();
      assertThat(leader.journal().getFirstIndex()).as("bound 0: nothing compacted").isEqualTo(1);

      bound.set(500);
      long more = awaitAll(proposeMany(leader, "more-", 10));
      leader.takeSnapshot(more, dir -> Files.write(dir.resolve("state"), new byte[2])).get();
      assertThat(leader.journal().getFirstIndex())
          .as("compacted, but not beyond the bound")
          .isGreaterThan(1)
          .isLessThanOrEqualTo(501);
    }
  }

  @Test
  void aMemberBehindTheCompactedLogReceivesTheLeadersSnapshot() throws Exception {
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
      int lagging = leader.memberId() % 3 + 1;
      cluster.kill(lagging);
      long last = awaitAll(proposeMany(leader, "entry-with-some-padding-", 1000));
      byte[] state = new byte[50_000];
      new Random(7).nextBytes(state);
      leader.takeSnapshot(last, dir -> Files.write(dir.resolve("state"), state)).get();
      assertThat(leader.journal().getFirstIndex()).as("compacted").isGreaterThan(1);

      cluster.start(lagging);
      RecordingStateMachine machine = cluster.machines.get(lagging);
      TestCluster.await(TIMEOUT, () -> machine.installed != null, "snapshot install");

      assertThat(machine.installed.index()).isEqualTo(last);
      assertThat(machine.installedFiles.get("state")).isEqualTo(state);
      long next = leader.propose("after".getBytes(StandardCharsets.UTF_8)).get();
      RaftPartition follower = cluster.partition(lagging, 1);
      TestCluster.await(TIMEOUT, () -> follower.commitIndex() >= next, "commit after install");
      double installs =
          cluster.registries.get(lagging).get("tern.raft.snapshot.install.bytes").summary().count();
      assertThat(installs).isEqualTo(1);
    }
  }

  @Test
  void metricsShowCommitLatencyAndRole() throws Exception {
    try (TestCluster cluster = cluster(1, FlushMode.SYNC)) {
      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      awaitAll(proposeMany(leader, "m", 20));
      var registry = cluster.registries.get(leader.memberId());

      assertThat(registry.get("tern.raft.commit.latency").timer().count()).isEqualTo(20);
      assertThat(registry.get("tern.raft.role").gauge().value()).isEqualTo(3);
      assertThat(registry.get("tern.raft.term").gauge().value()).isPositive();
      TestCluster.await(
          TIMEOUT,
          () ->
              registry.get("tern.raft.replication.lag").gauges().stream()
                  .allMatch(g -> g.value() == 0),
          "followers caught up");
      assertThat(leader.role()).isEqualTo(RaftRole.LEADER);
    }
  }
}
