package io.tern.raft.server;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.transport.RaftTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.awaitility.Awaitility;

/**
 * Brokers on one machine, each a {@link RaftServer} hosting every partition, over transports made
 * by a factory (in-process or Netty on loopback). Members can be killed and restarted from their
 * data directories.
 */
final class TestCluster implements AutoCloseable {
  final Map<Integer, RaftServer> servers = new TreeMap<>();
  final Map<Integer, SimpleMeterRegistry> registries = new TreeMap<>();
  final Map<Integer, RecordingStateMachine> machines = new TreeMap<>();
  private final Path root;
  private final int size;
  private final int partitionCount;
  private final IntFunction<RaftTransport> transports;
  private final java.util.function.Function<Path, RaftServerConfig> configFor;

  TestCluster(
      Path root,
      int size,
      int partitionCount,
      IntFunction<RaftTransport> transports,
      java.util.function.Function<Path, RaftServerConfig> configFor) {
    this.root = root;
    this.size = size;
    this.partitionCount = partitionCount;
    this.transports = transports;
    this.configFor = configFor;
    for (int id = 1; id <= size; id++) {
      start(id);
    }
  }

  static RaftServerConfig.Builder fastConfig(Path directory) {
    return RaftServerConfig.builder(directory)
        .tickMs(10)
        .heartbeatIntervalMs(20)
        .electionTimeoutMs(200)
        .segmentSizeBytes(1024 * 1024);
  }

  /** Partition p's members are all brokers; priorities rotate so leaders spread out. */
  List<Member> members(int partitionId) {
    List<Member> members = new ArrayList<>();
    for (int id = 1; id <= size; id++) {
      members.add(new Member(id, 1 + Math.floorMod(id - partitionId, size)));
    }
    return members;
  }

  void start(int id) {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    RaftServer server =
        new RaftServer(
            id, configFor.apply(root.resolve("member-" + id)), transports.apply(id), registry);
    RecordingStateMachine machine = new RecordingStateMachine();
    for (int p = 1; p <= partitionCount; p++) {
      server.addPartition(p, members(p), p == 1 ? machine : StateMachine.NONE);
    }
    machines.put(id, machine);
    servers.put(id, server);
    registries.put(id, registry);
  }

  void kill(int id) {
    servers.remove(id).close();
  }

  RaftPartition partition(int memberId, int partitionId) {
    return servers.get(memberId).partition(partitionId);
  }

  /** Waits until exactly one live member leads {@code partitionId} and returns it. */
  RaftPartition awaitLeader(int partitionId, Duration timeout) {
    RaftPartition[] found = new RaftPartition[1];
    await(
        timeout,
        () -> {
          found[0] = null;
          for (RaftServer server : servers.values()) {
            RaftPartition partition = server.partition(partitionId);
            if (partition != null && partition.role() == RaftRole.LEADER) {
              if (found[0] != null && found[0].term() == partition.term()) {
                throw new AssertionError("two leaders in term " + partition.term());
              }
              if (found[0] == null || partition.term() > found[0].term()) {
                found[0] = partition;
              }
            }
          }
          return found[0] != null;
        },
        "a leader for partition " + partitionId);
    return found[0];
  }

  static void await(Duration timeout, BooleanSupplier condition, String what) {
    Awaitility.await(what)
        .atMost(timeout)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .until(condition::getAsBoolean);
  }

  @Override
  public void close() {
    for (RaftServer server : servers.values()) {
      server.close();
    }
    servers.clear();
  }
}
