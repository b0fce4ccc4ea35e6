package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.transport.NettyRaftTransport;
import io.tern.raft.transport.RaftTransport;
import io.tern.raft.transport.TransportConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three brokers on loopback over real Netty, each hosting the same three partitions: elect, commit
 * on every partition, kill the leader of one, keep committing everywhere, restart it and watch it
 * catch up. Once with the Raft groups on threads of their own, once on the transport's thread.
 */
class RaftOverNettyTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int MEMBERS = 3;
  private static final int PARTITIONS = 3;

  @TempDir Path root;

  private final Map<Integer, InetSocketAddress> addresses = new TreeMap<>();

  private RaftTransport transport(int memberId) {
    TransportConfig.Builder config =
        TransportConfig.builder(memberId)
            .bind("127.0.0.1", addresses.get(memberId).getPort())
            .reconnectBackoffMs(20, 200);
    addresses.forEach(
        (id, address) -> {
          if (id != memberId) {
            config.peer(id, address);
          }
        });
    return new NettyRaftTransport(config.build(), new SimpleMeterRegistry(), Tags.empty()).start();
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long commitAll(RaftPartition leader, String prefix, int count) throws Exception {
    List<CompletableFuture<Long>> futures = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      futures.add(leader.propose((prefix + i).getBytes(StandardCharsets.UTF_8)));
    }
    long last = 0;
    for (CompletableFuture<Long> future : futures) {
      last = Math.max(last, future.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
    }
    return last;
  }

  @ParameterizedTest(name = "raftOnTransportThread={0}")
  @ValueSource(booleans = {false, true})
  void keepsCommittingOnEveryPartitionWhenALeaderIsKilled(boolean raftOnTransportThread)
      throws Exception {
    for (int id = 1; id <= MEMBERS; id++) {
      addresses.put(id, new InetSocketAddress("127.0.0.1", freePort()));
    }
    try (TestCluster cluster =
        new TestCluster(
            root,
            MEMBERS,
            PARTITIONS,
            this::transport,
            dir ->
                TestCluster.fastConfig(dir).raftOnTransportThread(raftOnTransportThread).build())) {
      for (int p = 1; p <= PARTITIONS; p++) {
        commitAll(cluster.awaitLeader(p, TIMEOUT), "p" + p + "-", 100);
      }
      // Commits reach the state machine on the thread that runs the Raft group.
      String commitThread =
          cluster.machines.get(cluster.awaitLeader(1, TIMEOUT).memberId()).commitThread;
      if (raftOnTransportThread) {
        assertThat(commitThread).startsWith("tern-raft-transport-");
      } else {
        assertThat(commitThread).startsWith("raft-");
      }

      RaftPartition leader = cluster.awaitLeader(1, TIMEOUT);
      int killed = leader.memberId();
      long killedTerm = leader.term();
      cluster.kill(killed);

      RaftPartition next = cluster.awaitLeader(1, TIMEOUT);
      assertThat(next.memberId()).isNotEqualTo(killed);
      assertThat(next.term()).isGreaterThan(killedTerm);
      long[] lastPerPartition = new long[PARTITIONS + 1];
      for (int p = 1; p <= PARTITIONS; p++) {
        lastPerPartition[p] = commitAll(cluster.awaitLeader(p, TIMEOUT), "again-p" + p + "-", 100);
      }

      cluster.start(killed);
      for (int p = 1; p <= PARTITIONS; p++) {
        RaftPartition restarted = cluster.partition(killed, p);
        long last = lastPerPartition[p];
        TestCluster.await(
            TIMEOUT, () -> restarted.commitIndex() >= last, "member " + killed + " catching up");
      }
    }
  }
}
