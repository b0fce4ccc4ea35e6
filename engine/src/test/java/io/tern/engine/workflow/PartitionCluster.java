package io.tern.engine.workflow;

import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.processor.InMemoryLogStorage;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Partitions of in-memory logs, each with a leader, that send each other commands as over a
 * network: commands can be held back by type and intent, the next few dropped, or each lost at
 * random from a seed, as leader changes and lossy links do.
 */
final class PartitionCluster implements Partitions {
  /** Makes a member of a partition (the test keeps it, to close it and check its replay). */
  interface Members {
    TestMember create(int partitionId, InMemoryLogStorage log, String name);
  }

  final List<InMemoryLogStorage> logs = new ArrayList<>();
  final List<TestMember> leaders = new ArrayList<>();
  final AtomicInteger dropNext = new AtomicInteger();
  final AtomicInteger dropped = new AtomicInteger();
  private final int partitions;
  private final Members members;

  /** Commands of this intent are lost while it is set (null: none). */
  volatile Intent heldIntent;

  /** Commands of these intents are lost while they are here. */
  private final Set<Intent> held = ConcurrentHashMap.newKeySet();

  /** While set, each command is lost with probability {@link #lossRate}, drawn from it. */
  private Random loss;

  private double lossRate;

  PartitionCluster(int partitions, Members members) {
    this.partitions = partitions;
    this.members = members;
  }

  /** A leader for every partition, each processing. */
  void start() {
    for (int partition = 1; partition <= partitions; partition++) {
      InMemoryLogStorage partitionLog = new InMemoryLogStorage();
      TestMember leader = members.create(partition, partitionLog, "leader");
      partitionLog.electLeader(leader.processor);
      leader.awaitPhase(ProcessorPhase.PROCESSING);
      logs.add(partitionLog);
      leaders.add(leader);
    }
  }

  /**
   * A leader change of {@code partitionId}: what its leader had not committed is gone, and a new
   * member, which replays the log, leads.
   */
  TestMember changeLeader(int partitionId, String newMemberName) {
    InMemoryLogStorage partitionLog = logs.get(partitionId - 1);
    TestMember next = members.create(partitionId, partitionLog, newMemberName);
    partitionLog.loseLeadership();
    partitionLog.electLeader(next.processor);
    next.awaitPhase(ProcessorPhase.PROCESSING);
    leaders.set(partitionId - 1, next);
    return next;
  }

  /** Commands of {@code intent} are lost until {@link #releaseAll}. */
  void hold(Intent intent) {
    held.add(intent);
  }

  void releaseAll() {
    held.clear();
    heldIntent = null;
  }

  /**
   * From now on, each command is lost with probability {@code rate} (0 to heal), from {@code seed}.
   */
  synchronized void loseAtRandom(long seed, double rate) {
    loss = rate > 0 ? new Random(seed) : null;
    lossRate = rate;
  }

  private synchronized boolean lostAtRandom() {
    return loss != null && loss.nextDouble() < lossRate;
  }

  @Override
  public int count() {
    return partitions;
  }

  @Override
  public void send(int partitionId, Intent intent, long key, RecordValue value) {
    if (intent == heldIntent
        || held.contains(intent)
        || dropNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0
        || lostAtRandom()) {
      dropped.incrementAndGet();
      return;
    }
    try {
      leaders.get(partitionId - 1).write(intent, key, value);
    } catch (LogStreamWriter.NotWritableException e) {
      // lost, as over a network: the sender asks again
    }
  }

  TestMember leader(int partitionId) {
    return leaders.get(partitionId - 1);
  }

  long count(int partitionId, Intent intent) {
    return WorkflowTestBase.count(logs.get(partitionId - 1), intent);
  }

  /** A correlation key whose messages live on {@code partitionId}. */
  String keyOnPartition(int partitionId) {
    return keyOnPartition(partitionId, "order-");
  }

  /** A correlation key starting with {@code prefix} whose messages live on {@code partitionId}. */
  String keyOnPartition(int partitionId, String prefix) {
    for (int i = 0; ; i++) {
      String key = prefix + i;
      if (Partitions.ofCorrelationKey(key, partitions) == partitionId) {
        return key;
      }
    }
  }
}
