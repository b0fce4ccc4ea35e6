package io.tern.benchmark.raft;

import io.tern.benchmark.raft.ClusterUnderTest.Spec;
import io.tern.engine.broker.BrokerProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.LifeCycle;

/**
 * The members of a {@link RatisCluster}: one {@link RaftServer} each on 127.0.0.1, hosting every
 * partition as its own Raft group; started, stopped as after a crash, restarted, asked who leads,
 * and closed in parallel.
 */
final class RatisMembers implements AutoCloseable {
  private final Spec spec;
  private final int[] ports;
  private final List<RaftPeer> peers = new ArrayList<>();
  private final List<RaftGroup> groups = new ArrayList<>();
  private final RaftServer[] servers;
  private final CompletableFuture<?>[] closing;

  /** The state machines of the running servers, by member and group. */
  private final Map<Integer, Map<RaftGroupId, RatisStateMachine>> machines =
      new ConcurrentHashMap<>();

  /** Per member: System.nanoTime() of the first install-snapshot call it received, 0 before. */
  private final AtomicLongArray firstInstallCallNs;

  RatisMembers(Spec spec) {
    this.spec = spec;
    int members = spec.members();
    servers = new RaftServer[members];
    closing = new CompletableFuture<?>[members];
    firstInstallCallNs = new AtomicLongArray(members);
    // Held open together until all are chosen: ports picked one at a time can repeat.
    ports = BrokerProcess.freePorts(members);
    for (int i = 0; i < members; i++) {
      peers.add(RaftPeer.newBuilder().setId("m" + i).setAddress("127.0.0.1:" + ports[i]).build());
    }
    for (int p = 0; p < spec.partitions(); p++) {
      // Fixed ids ("tern" and the partition) make data directories easy to tell apart.
      groups.add(RaftGroup.valueOf(RaftGroupId.valueOf(new UUID(0x7465726eL, p)), peers));
    }
  }

  List<RaftPeer> peers() {
    return peers;
  }

  /** One group per partition, in partition order. */
  List<RaftGroup> groups() {
    return groups;
  }

  int count() {
    return servers.length;
  }

  /** The member's running server, or null while it is down. */
  RaftServer server(int member) {
    return servers[member];
  }

  RatisStateMachine machine(int member, RaftGroupId group) {
    return machines.get(member).get(group);
  }

  /** When the member received its first install-snapshot call since the last reset, or 0. */
  long firstInstallCallNs(int member) {
    return firstInstallCallNs.get(member);
  }

  void resetFirstInstallCall(int member) {
    firstInstallCallNs.set(member, 0);
  }

  RaftProperties serverProperties(int member) {
    return RatisSettings.server(spec, spec.dataDir().resolve("member-" + member), ports[member]);
  }

  /** Starts every member and adds every group to each. */
  void startAll() throws IOException {
    for (int i = 0; i < servers.length; i++) {
      startServer(i);
    }
    ClientId admin = ClientId.randomId();
    long callId = 0;
    for (RaftGroup group : groups) {
      for (int i = 0; i < servers.length; i++) {
        RaftClientReply reply =
            servers[i].groupManagement(
                GroupManagementRequest.newAdd(admin, peers.get(i).getId(), callId++, group));
        if (!reply.isSuccess()) {
          throw new IOException("Adding " + group.getGroupId() + " failed", reply.getException());
        }
      }
    }
  }

  private void startServer(int member) throws IOException {
    Parameters parameters = new Parameters();
    // Marks when the first snapshot chunk reaches this member: the start of an install.
    GrpcConfigKeys.Server.setServicesCustomizer(
        parameters,
        (builder, types) ->
            builder.intercept(
                new FirstCallInterceptor("installSnapshot", firstInstallCallNs, member)));
    Map<RaftGroupId, RatisStateMachine> byGroup = new ConcurrentHashMap<>();
    machines.put(member, byGroup);
    RaftServer server =
        RaftServer.newBuilder()
            .setServerId(peers.get(member).getId())
            .setProperties(serverProperties(member))
            .setParameters(parameters)
            .setOption(RaftStorage.StartupOption.RECOVER)
            .setStateMachineRegistry(
                groupId -> byGroup.computeIfAbsent(groupId, id -> new RatisStateMachine()))
            .build();
    server.start();
    servers[member] = server;
  }

  /** The running member that leads partition {@code p} and has committed in its term, or -1. */
  int leaderOf(int p) {
    for (int i = 0; i < servers.length; i++) {
      if (servers[i] == null) {
        continue;
      }
      try {
        var info = servers[i].getDivision(groups.get(p).getGroupId()).getInfo();
        if (info.isLeader() && info.isLeaderReady()) {
          return i;
        }
      } catch (IOException e) {
        // The group is not (yet) on this member.
      }
    }
    return -1;
  }

  /**
   * Stops the member as a crash would, as far as its peers can tell. In-process there is no kill
   * -9. RaftServer.close() stops every group of the member first (its leader stops sending at once,
   * without stepping down or telling anyone), then spends seconds closing gRPC channels gracefully.
   * The followers only notice the silence, as after a crash; this returns once the groups have
   * stopped and leaves the channels to a background thread. (Closing the RPC server first is no
   * better: the leader keeps sending heartbeats on its outgoing channels until they are closed.)
   */
  void kill(int member) throws InterruptedException, TimeoutException {
    RaftServer server = servers[member];
    servers[member] = null;
    CompletableFuture<Void> closed = new CompletableFuture<>();
    Thread closer =
        new Thread(
            () -> {
              closeQuietly(server);
              closed.complete(null);
            },
            "ratis-kill-m" + member);
    closer.setDaemon(true);
    closer.start();
    closing[member] = closed;
    waitFor(
        Duration.ofSeconds(30),
        "stop of member " + member + "'s groups",
        () -> closed.isDone() || allGroupsStopped(server));
  }

  private boolean allGroupsStopped(RaftServer server) {
    for (RaftGroup group : groups) {
      try {
        LifeCycle.State state =
            server.getDivision(group.getGroupId()).getInfo().getLifeCycleState();
        if (!state.isClosingOrClosed()) {
          return false;
        }
      } catch (IOException e) {
        // Already removed from the server: stopped.
      }
    }
    return true;
  }

  /** Stops the member and waits until it has closed. */
  void stop(int member) throws IOException {
    servers[member].close();
    servers[member] = null;
  }

  /** Starts a stopped or killed member again, once its earlier server has finished closing. */
  void restart(int member) throws IOException {
    if (servers[member] != null) {
      throw new IllegalStateException("Member " + member + " is running");
    }
    if (closing[member] != null) {
      closing[member].join();
      closing[member] = null;
    }
    startServer(member);
  }

  /** Closes every member in parallel, and waits for those killed earlier to finish closing. */
  @Override
  public void close() {
    List<Thread> closers = new ArrayList<>();
    for (int i = 0; i < servers.length; i++) {
      RaftServer server = servers[i];
      servers[i] = null;
      if (server != null) {
        closers.add(closeInBackground(server, "ratis-close-m" + i));
      }
    }
    joinAll(closers);
    for (CompletableFuture<?> killed : closing) {
      if (killed != null) {
        killed.join();
      }
    }
  }

  static Thread closeInBackground(AutoCloseable closeable, String name) {
    Thread closer = new Thread(() -> closeQuietly(closeable), name);
    closer.setDaemon(true);
    closer.start();
    return closer;
  }

  static void joinAll(List<Thread> threads) {
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      System.err.println("Ratis: closing " + closeable + " failed: " + e);
    }
  }

  static void waitFor(Duration timeout, String what, BooleanSupplier condition)
      throws InterruptedException, TimeoutException {
    long deadlineNs = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadlineNs) {
        throw new TimeoutException("Ratis: no " + what + " within " + timeout);
      }
      Thread.sleep(5);
    }
  }
}
