package io.tern.engine.partition;

import static io.tern.engine.partition.EngineCluster.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.partition.EngineCluster.Broker;
import io.tern.engine.processor.TestEngine;
import io.tern.engine.record.sbe.RecordType;
import io.tern.raft.SnapshotMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine partition over real Raft (3 brokers, Netty on loopback). */
@Tag("slow") // a cluster of three brokers' partitions over loopback: docs/testing.md
class EngineClusterTest {
  @TempDir Path root;

  private EngineCluster cluster;

  @AfterEach
  void close() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** For each committed command: how many results name it as their source. */
  private static Map<Long, Integer> resultsPerCommand(Broker broker) {
    Map<Long, Integer> commands = new HashMap<>();
    broker.forEachCommittedRecord(
        record -> {
          if (record.recordType() == RecordType.COMMAND && !record.isProcessed()) {
            commands.putIfAbsent(record.position(), 0);
          } else if (record.recordType() == RecordType.EVENT) {
            commands.merge(record.sourceRecordPosition(), 1, Integer::sum);
          }
        });
    return commands;
  }

  private static void awaitCaughtUp(Broker follower, Broker leader) {
    await(
        () -> follower.lastProcessedPosition() == leader.lastProcessedPosition(),
        "broker " + follower.id + " to replay up to broker " + leader.id);
  }

  @Test
  void aLeaderKilledMidStreamLosesNoAnsweredCommandAndNoCommandIsProcessedTwice() {
    cluster = new EngineCluster(root, 3);
    Broker first = cluster.awaitLeader();
    int commands = 300;
    for (int i = 0; i < commands; i++) {
      if (i == 100) {
        cluster.kill(first.id);
      }
      cluster.send(i, "command-" + i);
    }
    Broker leader = cluster.awaitLeader();
    cluster.send(commands, "last");
    await(() -> cluster.answers().containsKey((long) commands), "the last command answered");
    // Commands the killed leader had not committed are lost unanswered (a client retries them);
    // every one sent after the kill went to the new leader, which answers in log order.
    assertThat(cluster.answers().keySet().stream().filter(r -> r >= 100 && r < commands))
        .hasSize(commands - 100);

    // Every command in the log was processed exactly once.
    Map<Long, Integer> results = resultsPerCommand(leader);
    assertThat(results).isNotEmpty().allSatisfy((command, count) -> assertThat(count).isOne());
    // Every answered command is in the state, once.
    Map<String, String> entities = leader.entities();
    Set<String> values = new HashSet<>(entities.values());
    assertThat(values).hasSameSizeAs(entities.values());
    for (Long request : cluster.answers().keySet()) {
      if (request < commands) {
        assertThat(values).contains("command-" + request);
      }
    }
    assertThat(entities).hasSize(results.size());

    // The killed leader comes back, recovers and replays to the same state as the others.
    Broker restarted = cluster.start(first.id);
    for (Broker broker : cluster.brokers.values()) {
      awaitCaughtUp(broker, leader);
      assertThat(broker.entities()).as("broker %d", broker.id).isEqualTo(entities);
    }
    assertThat(restarted.partition.processor().failure()).isNull();
  }

  /**
   * Without waiting for the snapshot period (an hour here), every member snapshots after {@code
   * data.snapshotEveryRecords} records, so a restart replays at most that many.
   */
  @Test
  void everyMemberSnapshotsAfterTheConfiguredNumberOfRecords() {
    cluster = new EngineCluster(root, 3, 200);
    cluster.awaitLeader();
    sendWhileOneIsAway(300);
    for (Broker broker : cluster.brokers.values()) {
      await(
          () -> broker.partition.raft().latestSnapshotDirectory() != null,
          "broker " + broker.id + " to snapshot");
    }
  }

  /**
   * A member that restarts and replays takes a snapshot once it caught up, so that its next restart
   * does not replay the same again (the first periodic snapshot would come a period later).
   */
  @Test
  void aRestartedMemberSnapshotsOnceItCaughtUp() {
    cluster = new EngineCluster(root, 3, 1_000_000);
    Broker leader = cluster.awaitLeader();
    int offline = leader.id == 3 ? 2 : 3;
    sendWhileOneIsAway(100);
    cluster.kill(offline);
    for (int i = 100; i < 200; i++) {
      cluster.send(i, "while away " + i);
    }
    await(() -> cluster.answers().size() == 200, "200 answers");

    Broker returning = cluster.start(offline);
    awaitCaughtUp(returning, leader);
    await(
        () -> returning.partition.raft().latestSnapshotDirectory() != null,
        "the returning broker to snapshot after catching up");
  }

  /** Sends {@code count} commands of about 1 KiB and waits for their answers. */
  private void sendWhileOneIsAway(int count) {
    String payload = "x".repeat(1000);
    for (int i = 0; i < count; i++) {
      cluster.send(i, i + payload);
    }
    await(() -> cluster.answers().size() == count, count + " answers");
  }

  @Test
  void aFollowerBehindACompactedLogCatchesUpThroughASnapshotAndStateSurvivesRestart() {
    cluster = new EngineCluster(root, 3);
    Broker leader = cluster.awaitLeader();
    int offline = leader.id == 3 ? 2 : 3;
    cluster.kill(offline);
    sendWhileOneIsAway(400);
    for (Broker broker : cluster.brokers.values()) {
      SnapshotMeta snapshot = broker.partition.takeSnapshot().join();
      assertThat(snapshot).as("snapshot of broker %d", broker.id).isNotNull();
      assertThat(snapshot.index()).isGreaterThan(300);
    }
    // Compaction dropped the start of the log (64 KiB segments, 400 x 1 KiB entries).
    assertThat(leader.partition.raft().journal().getFirstIndex()).isGreaterThan(1);
    for (int i = 400; i < 420; i++) {
      cluster.send(i, "after snapshot " + i);
    }
    await(() -> cluster.answers().size() == 420, "420 answers");
    // Answers come from whichever broker led when each command was processed: on a loaded machine
    // leadership can move while one broker is away, and the first leader then follows, behind.
    Broker current = cluster.awaitLeader();
    await(() -> current.entities().size() == 420, "the leader's state holds all 420");
    Map<String, String> expected = current.entities();

    Broker returning = cluster.start(offline);
    awaitCaughtUp(returning, current);
    assertThat(returning.entities()).isEqualTo(expected);
    assertThat(returning.partition.raft().latestSnapshotDirectory())
        .as("the returning broker installed the leader's snapshot")
        .isNotNull();

    // Everyone restarts: state = snapshot + replay, equal to the state before.
    for (int id = 1; id <= 3; id++) {
      cluster.kill(id);
    }
    for (int id = 1; id <= 3; id++) {
      cluster.start(id);
    }
    Broker newLeader = cluster.awaitLeader();
    for (Broker broker : cluster.brokers.values()) {
      awaitCaughtUp(broker, newLeader);
      assertThat(broker.entities()).as("broker %d after restart", broker.id).isEqualTo(expected);
    }
    cluster.send(1000, "after restart");
    await(() -> cluster.answers().containsKey(1000L), "a command after the restart answered");
    assertThat(newLeader.entities()).hasSize(421);
  }

  /**
   * A file of the leader's snapshot rots on disk. The leader withholds the snapshot rather than
   * send it forever, and on an idle partition (no newer index) the next snapshot is retaken at the
   * same index; the lagging follower then catches up from it.
   */
  @Test
  void aDamagedSnapshotIsRetakenAtTheSameIndexOnAnIdlePartition() throws Exception {
    cluster = new EngineCluster(root, 3);
    Broker leader = cluster.awaitLeader();
    int offline = leader.id == 3 ? 2 : 3;
    cluster.kill(offline);
    sendWhileOneIsAway(400);
    SnapshotMeta taken = leader.partition.takeSnapshot().join();
    assertThat(leader.partition.raft().journal().getFirstIndex()).isGreaterThan(1);
    Map<String, String> expected = leader.entities();
    flipAByteOfTheLargestUnsharedFile(leader.partition.raft().latestSnapshotDirectory());

    Broker returning = cluster.start(offline);
    await(
        () -> leader.partition.raft().latestSnapshotIsCorrupt(),
        "the leader to find the damage while sending");

    SnapshotMeta retaken = leader.partition.takeSnapshot().join();

    assertThat(retaken).as("retaken although nothing is newer").isNotNull();
    assertThat(retaken.index()).isEqualTo(taken.index());
    assertThat(leader.partition.raft().latestSnapshotIsCorrupt()).isFalse();
    awaitCaughtUp(returning, leader);
    assertThat(returning.entities()).isEqualTo(expected);
  }

  /**
   * RocksDB hard-links its table files into a checkpoint: damage to one of those is damage to the
   * live state too, and a retaken snapshot would carry it again. This damages a file the snapshot
   * holds alone (one link), which a retake writes afresh.
   */
  private static void flipAByteOfTheLargestUnsharedFile(Path snapshot) throws IOException {
    Path largest;
    try (Stream<Path> files = Files.list(snapshot)) {
      largest =
          files
              .filter(file -> !file.getFileName().toString().equals("MANIFEST"))
              .filter(file -> links(file) == 1)
              .max(Comparator.comparingLong(EngineClusterTest::size))
              .orElseThrow();
    }
    try (FileChannel channel =
        FileChannel.open(largest, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      long offset = channel.size() / 2;
      channel.read(one, offset);
      one.put(0, (byte) ~one.get(0)).rewind();
      channel.write(one, offset);
    }
  }

  private static int links(Path file) {
    try {
      return (Integer) Files.getAttribute(file, "unix:nlink");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void belowTheDiskWatermarkNewCommandsAreRefusedClearlyAndAcceptedOnceSpaceReturns() {
    cluster = new EngineCluster(root, 3);
    Broker leader = cluster.awaitLeader();
    cluster.send(1, "before");
    await(() -> cluster.answers().containsKey(1L), "the first command answered");

    leader.freeDiskBytes.set(EngineCluster.MIN_FREE_DISK_BYTES - 1);
    await(
        () -> {
          try {
            leader.partition.intake().write(0, 2, TestEngine.CREATE, -1, value());
            return false;
          } catch (LogStreamWriter.NotWritableException e) {
            assertThat(e)
                .hasMessageContaining("short of disk space")
                .hasMessageContaining("data.disk.minFreeBytes (1048576)");
            return true;
          }
        },
        "commands to be refused");
    // Followers keep replicating and replaying what the leader already has.
    for (Broker broker : cluster.brokers.values()) {
      awaitCaughtUp(broker, leader);
    }

    leader.freeDiskBytes.set(Long.MAX_VALUE);
    await(
        () -> {
          try {
            leader.partition.intake().write(0, 3, TestEngine.CREATE, -1, value());
            return true;
          } catch (LogStreamWriter.NotWritableException e) {
            return false;
          }
        },
        "commands to be accepted again");
    await(() -> cluster.answers().containsKey(3L), "the command after the recovery answered");
    assertThat(leader.entities().values()).contains("before", "after");
  }

  private static io.tern.engine.record.RecordValue value() {
    return TestEngine.value("after");
  }
}
