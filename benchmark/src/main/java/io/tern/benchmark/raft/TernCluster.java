package io.tern.benchmark.raft;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.server.NotLeaderException;
import io.tern.raft.server.RaftPartition;
import io.tern.raft.server.RaftServer;
import io.tern.raft.server.RaftServerConfig;
import io.tern.raft.server.StateMachine;
import io.tern.raft.transport.NettyRaftTransport;
import io.tern.raft.transport.TransportConfig;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Tern's Raft under the benchmark: one {@link RaftServer} per member, each with its own Netty
 * transport on loopback, every member in every partition. Benchmark partitions 0..P-1 are Tern
 * partitions 1..P. Appends go straight to the partition's leader (the benchmark is the client, in
 * the same JVM, as Ratis's client is). {@link TernSettings} configures the members.
 */
final class TernCluster implements ClusterUnderTest {
  private static final int SNAPSHOT_FILL_IN_FLIGHT = 1000;
  private static final double MIB = 1024 * 1024;

  private final Map<Integer, RaftServer> servers = new ConcurrentHashMap<>();
  private final Map<Integer, SimpleMeterRegistry> registries = new ConcurrentHashMap<>();
  private final Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
  private final Map<Integer, NettyRaftTransport> transports = new TreeMap<>();
  private AtomicReferenceArray<RaftPartition> leaders;
  private Spec spec;
  private RaftServerConfig.Builder configTemplate;

  @Override
  public String name() {
    return "tern";
  }

  @Override
  public void start(Spec spec) throws Exception {
    this.spec = spec;
    this.configTemplate = TernSettings.template(spec);
    this.leaders = new AtomicReferenceArray<>(spec.partitions());
    for (int id = 1; id <= spec.members(); id++) {
      startMember(id);
    }
  }

  /**
   * Binds an ephemeral port (picking a "free" port first and binding it later races with the
   * ephemeral ports of outgoing connections), then tells every running member where it is.
   */
  private void startMember(int id) {
    TransportConfig.Builder transportConfig = TransportConfig.builder(id).bind("127.0.0.1", 0);
    addresses.forEach(
        (peer, address) -> {
          if (peer != id) {
            transportConfig.peer(peer, address);
          }
        });
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TimerPercentiles.addBuckets(registry);
    NettyRaftTransport transport =
        new NettyRaftTransport(transportConfig.build(), registry, Tags.of("member", "" + id));
    RaftServerConfig config =
        configTemplate.dataDirectory(spec.dataDir().resolve("member-" + id)).build();
    RaftServer server = new RaftServer(id, config, transport, registry);
    transport.start();
    addresses.put(id, transport.boundAddress());
    transports.put(id, transport);
    transports.forEach(
        (peer, other) -> {
          if (peer != id) {
            other.addPeer(id, transport.boundAddress());
            transport.addPeer(peer, addresses.get(peer));
          }
        });
    for (int p = 1; p <= spec.partitions(); p++) {
      server.addPartition(p, members(p), StateMachine.NONE);
    }
    servers.put(id, server);
    registries.put(id, registry);
  }

  /** Priorities rotate so that leadership spreads over the members, as Zeebe's distribution. */
  private List<Member> members(int partitionId) {
    List<Member> members = new ArrayList<>();
    for (int id = 1; id <= spec.members(); id++) {
      members.add(new Member(id, 1 + Math.floorMod(id - partitionId, spec.members())));
    }
    return members;
  }

  @Override
  public Map<String, String> settings() {
    return TernSettings.describe(configTemplate.build());
  }

  @Override
  public void awaitLeaders(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int p = 0; p < spec.partitions(); p++) {
      while (findLeader(p) == null) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("tern: no leader for partition " + p + " in " + timeout);
        }
        TimeUnit.MILLISECONDS.sleep(5);
      }
    }
  }

  private RaftPartition findLeader(int partition) {
    RaftPartition best = null;
    for (RaftServer server : servers.values()) {
      RaftPartition candidate = server.partition(partition + 1);
      if (candidate != null
          && candidate.role() == RaftRole.LEADER
          && (best == null || candidate.term() > best.term())) {
        best = candidate;
      }
    }
    if (best != null) {
      leaders.set(partition, best);
    }
    return best;
  }

  @Override
  public CompletableFuture<Void> append(int partition, byte[] data) {
    RaftPartition leader = leaders.get(partition);
    if (leader == null || leader.role() != RaftRole.LEADER) {
      leader = findLeader(partition);
    }
    if (leader == null) {
      return CompletableFuture.failedFuture(
          new NotLeaderException(partition + 1, -1, "no leader right now"));
    }
    RaftPartition target = leader;
    return target
        .propose(data)
        .handle(
            (index, failure) -> {
              if (failure != null) {
                leaders.compareAndSet(partition, target, null);
                throw failure instanceof RuntimeException r ? r : new RuntimeException(failure);
              }
              return null;
            });
  }

  @Override
  public int killLeader(int partition) throws Exception {
    RaftPartition leader = findLeader(partition);
    if (leader == null) {
      throw new IllegalStateException("tern: partition " + partition + " has no leader to kill");
    }
    int id = leader.memberId();
    leaders.set(partition, null);
    transports.remove(id);
    servers.remove(id).close();
    return id;
  }

  @Override
  public void restart(int memberId) throws Exception {
    startMember(memberId);
    RaftServer server = servers.get(memberId);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (RaftPartition partition : server.partitions()) {
      while (partition.leaderId() < 0) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "tern: restarted member " + memberId + " found no leader");
        }
        TimeUnit.MILLISECONDS.sleep(5);
      }
    }
  }

  @Override
  public Duration measureSnapshotInstall(long bytes) throws Exception {
    awaitLeaders(Duration.ofSeconds(30));
    RaftPartition leader = findLeader(0);
    int follower = leader.memberId() % spec.members() + 1;
    transports.remove(follower);
    servers.remove(follower).close();
    // Compaction drops whole journal segments: fill more than one so that the follower's next
    // entry is really gone and it must take the snapshot.
    long snapshotIndex = fillPastOneSegment(leader);
    // The state is written before, and only moved into the snapshot on the Raft thread, as the
    // engine does with its checkpoints: writing and forcing a gigabyte there blocked the leader's
    // heartbeats for longer than an election timeout, so that a follower could start an election
    // and, once the killed member came back and granted its vote, win it with the full log; the
    // restarted member then caught up from the new leader's log and never needed the snapshot.
    Path staged = spec.dataDir().resolve("snapshot-state.staged");
    writeFile(staged, bytes);
    try (FileChannel channel = FileChannel.open(staged, StandardOpenOption.WRITE)) {
      channel.force(true); // or the snapshot's commit would force the gigabyte on the Raft thread
    }
    leader
        .takeSnapshot(snapshotIndex, dir -> Files.move(staged, dir.resolve("state")))
        .get(10, TimeUnit.MINUTES);
    int snapshotLeader = leader.memberId();
    startMember(follower);
    Timer install =
        registries
            .get(follower)
            .get("tern.raft.snapshot.install.duration")
            .tag("partition", "1")
            .timer();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
    long nextReportNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (install.count() == 0) {
      RaftPartition current = findLeader(0);
      if (current != null && current.memberId() != snapshotLeader) {
        // The new leader may still hold the entries the snapshot replaced; then the follower
        // catches up from its log and no install happens. Say so rather than wait in vain.
        throw new IllegalStateException(
            "tern: leadership moved from member "
                + snapshotLeader
                + " to member "
                + current.memberId()
                + " while the snapshot was being sent, so the install was not measured; "
                + describePartitions());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "tern: the snapshot was not installed within 10 minutes; " + describePartitions());
      }
      if (System.nanoTime() > nextReportNs) {
        System.err.println("tern: still waiting for the snapshot install; " + describePartitions());
        nextReportNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      }
      TimeUnit.MILLISECONDS.sleep(10);
    }
    return Duration.ofNanos((long) install.totalTime(TimeUnit.NANOSECONDS));
  }

  /** Every member's partitions: role, term, leader, commit and last index (for stalls). */
  private String describePartitions() {
    StringBuilder text = new StringBuilder();
    for (var entry : servers.entrySet()) {
      for (RaftPartition partition : entry.getValue().partitions()) {
        text.append(
            String.format(
                "%n  member %d partition %d: %s term %d leader %d commit %d last %d first %d%s",
                entry.getKey(),
                partition.partitionId(),
                partition.role(),
                partition.term(),
                partition.leaderId(),
                partition.commitIndex(),
                partition.lastIndex(),
                partition.journal().getFirstIndex(),
                partition.failure() == null ? "" : " failed: " + partition.failure()));
        text.append("\n    raft: ").append(replicationOf(partition));
      }
    }
    return text.toString();
  }

  private static String replicationOf(RaftPartition partition) {
    try {
      return partition.describeReplication().get(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    } catch (Exception e) {
      return "no answer from the Raft thread within 1 s (" + e + ")";
    }
  }

  private static long fillPastOneSegment(RaftPartition leader) throws Exception {
    byte[] entry = new byte[1024];
    java.util.ArrayDeque<CompletableFuture<Long>> inFlight = new java.util.ArrayDeque<>();
    long last = 0;
    for (long bytes = 0; bytes < 2L * TernSettings.SEGMENT_SIZE_BYTES; bytes += entry.length) {
      inFlight.add(leader.propose(entry));
      if (inFlight.size() >= SNAPSHOT_FILL_IN_FLIGHT) {
        last = inFlight.poll().get(30, TimeUnit.SECONDS);
      }
    }
    while (!inFlight.isEmpty()) {
      last = inFlight.poll().get(30, TimeUnit.SECONDS);
    }
    return last;
  }

  private static void writeFile(Path file, long bytes) throws IOException {
    byte[] block = new byte[1024 * 1024];
    new java.util.Random(42).nextBytes(block);
    try (OutputStream out = Files.newOutputStream(file)) {
      for (long written = 0; written < bytes; written += block.length) {
        out.write(block, 0, (int) Math.min(block.length, bytes - written));
      }
    }
  }

  /**
   * Per member, over all its partitions: journal flush latency (what sync mode waits for on every
   * member), append latency (rolls show in its tail), segment allocation time and, where it led,
   * commit latency as the leader measured it (proposal to commit, without the benchmark's
   * queueing).
   */
  @Override
  public List<String> diagnostics() {
    List<String> lines = new ArrayList<>();
    new TreeMap<>(registries)
        .forEach(
            (id, registry) -> {
              String flush =
                  TimerPercentiles.describe(registry.find("tern.journal.flush.latency").timers());
              String commit =
                  TimerPercentiles.describe(registry.find("tern.raft.commit.latency").timers());
              // A roll (new segment, its pages, the directory) shows in the append's tail.
              String append =
                  TimerPercentiles.describe(registry.find("tern.journal.append.latency").timers());
              String allocation =
                  TimerPercentiles.describe(
                      registry.find("tern.journal.segment.allocation.latency").timers());
              double flushedMib = 0;
              for (var summary : registry.find("tern.journal.flush.bytes").summaries()) {
                flushedMib += summary.totalAmount() / MIB;
              }
              double zerosMib = countAll(registry, "tern.journal.zero.fill.bytes") / MIB;
              // Dropped messages cost a retransmission a heartbeat later.
              double transportDrops = countAll(registry, "tern.raft.transport.messages.dropped");
              double inboundDrops = countAll(registry, "tern.raft.messages.dropped");
              lines.add(
                  String.format(
                      "tern member %d: flush %s (%.0f MiB flushed, %.0f MiB of zeros written"
                          + " ahead); append %s; segment allocation %s; commit %s; messages"
                          + " dropped: %.0f by the transport, %.0f inbound",
                      id,
                      flush,
                      flushedMib,
                      zerosMib,
                      append,
                      allocation,
                      commit,
                      transportDrops,
                      inboundDrops));
            });
    return lines;
  }

  private static double countAll(SimpleMeterRegistry registry, String name) {
    double count = 0;
    for (var counter : registry.find(name).counters()) {
      count += counter.count();
    }
    return count;
  }

  @Override
  public void close() throws IOException {
    List<RuntimeException> failures = new ArrayList<>();
    for (RaftServer server : servers.values()) {
      try {
        server.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    servers.clear();
    if (!failures.isEmpty()) {
      throw new UncheckedIOException(new IOException("tern: closing failed", failures.get(0)));
    }
  }
}
