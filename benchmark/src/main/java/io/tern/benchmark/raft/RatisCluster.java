package io.tern.benchmark.raft;

import io.tern.engine.broker.BrokerProcess;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;

/**
 * Apache Ratis under the Raft benchmark: one {@link RaftServer} per member on 127.0.0.1 (gRPC, its
 * default transport), each hosting every partition as its own Raft group, a segmented log per group
 * in the member's directory, {@link RatisStateMachine} as the state machine, and one {@link
 * RaftClient} per group using the async API (or, "direct", appends handed to the leader's server
 * in-process). Settings are Ratis defaults except those {@link RatisSettings} sets.
 */
final class RatisCluster implements ClusterUnderTest {
  static final String VERSION = ratisVersion();

  /**
   * Ratis' relocated gRPC logs through java.util.logging: INFO lines, and a warning for every
   * stream cut when a cluster closes with requests in flight, as the benchmark's clusters do.
   */
  private static final Logger GRPC_LOG = Logger.getLogger("org.apache.ratis.thirdparty.io.grpc");

  static {
    GRPC_LOG.setLevel(Level.SEVERE);
  }

  /**
   * Client-side bound on unanswered async requests: above the benchmark's own bounds, so that the
   * benchmark, not a blocked send, decides when a cluster is saturated.
   */
  static final int CLIENT_OUTSTANDING_MAX = 100_000;

  static final long CLIENT_REQUEST_TIMEOUT_MS = 10_000;

  /** Direct appends: how long to keep retrying one entry before failing it. */
  static final long DIRECT_GIVE_UP_NS = TimeUnit.SECONDS.toNanos(60);

  /** How often the client retries a request that found no leader (during failover). */
  static final long CLIENT_RETRY_SLEEP_MS = 10;

  /** Filler entries written while a follower is down, so that a log segment closes. */
  static final int FILLER_ENTRY_BYTES = 256 * 1024;

  /** Whether appends bypass RaftClient and go to the leader's RaftServer in this JVM. */
  private final boolean direct;

  private Spec spec;
  private final List<RaftPeer> peers = new ArrayList<>();
  private final List<RaftGroup> groups = new ArrayList<>();
  private final List<RaftClient> clients = new ArrayList<>();
  private RaftServer[] servers;
  private CompletableFuture<?>[] closing;
  private int[] ports;

  /** The state machines of the running servers, by member and group. */
  private final Map<Integer, Map<RaftGroupId, RatisStateMachine>> machines =
      new ConcurrentHashMap<>();

  /** Per member: System.nanoTime() of the first install-snapshot call it received, 0 before. */
  private AtomicLongArray firstInstallCallNs;

  private final Map<String, String> settings = new LinkedHashMap<>();

  /** Per partition, for direct appends: the member last seen leading it, and request ids. */
  private AtomicIntegerArray leaderHints;

  private final List<ClientId> directClientIds = new ArrayList<>();
  private final AtomicLong directCallIds = new AtomicLong();

  /**
   * @param direct appends bypass {@link RaftClient} and its gRPC stream and are submitted to the
   *     leader's {@link RaftServer} in this JVM, as an in-process client of Tern's Raft does
   */
  RatisCluster(boolean direct) {
    this.direct = direct;
  }

  @Override
  public String name() {
    return "ratis " + VERSION + (direct ? " direct" : "");
  }

  @Override
  public void start(Spec spec) throws Exception {
    this.spec = spec;
    int members = spec.members();
    servers = new RaftServer[members];
    closing = new CompletableFuture<?>[members];
    ports = new int[members];
    firstInstallCallNs = new AtomicLongArray(members);
    leaderHints = new AtomicIntegerArray(spec.partitions());
    // Held open together until all are chosen: ports picked one at a time can repeat.
    System.arraycopy(BrokerProcess.freePorts(members), 0, ports, 0, members);
    for (int i = 0; i < members; i++) {
      peers.add(RaftPeer.newBuilder().setId("m" + i).setAddress("127.0.0.1:" + ports[i]).build());
    }
    for (int p = 0; p < spec.partitions(); p++) {
      directClientIds.add(ClientId.randomId());
      // Fixed ids ("tern" and the partition) make data directories easy to tell apart.
      groups.add(RaftGroup.valueOf(RaftGroupId.valueOf(new UUID(0x7465726eL, p)), peers));
    }
    settings.putAll(RatisSettings.describe(spec, direct));
    for (int i = 0; i < members; i++) {
      startServer(i);
    }
    ClientId admin = ClientId.randomId();
    long callId = 0;
    for (RaftGroup group : groups) {
      for (int i = 0; i < members; i++) {
        RaftClientReply reply =
            servers[i].groupManagement(
                GroupManagementRequest.newAdd(admin, peers.get(i).getId(), callId++, group));
        if (!reply.isSuccess()) {
          throw new IOException("Adding " + group.getGroupId() + " failed", reply.getException());
        }
      }
    }
  }

  private RaftProperties serverProperties(int member) {
    return RatisSettings.server(spec, spec.dataDir().resolve("member-" + member), ports[member]);
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

  @Override
  public Map<String, String> settings() {
    return Collections.unmodifiableMap(settings);
  }

  @Override
  public void awaitLeaders(Duration timeout) throws Exception {
    waitFor(
        timeout,
        "a ready leader in every partition",
        () -> {
          for (int p = 0; p < groups.size(); p++) {
            if (leaderOf(p) < 0) {
              return false;
            }
          }
          return true;
        });
    for (int p = 0; p < groups.size(); p++) {
      leaderHints.set(p, leaderOf(p));
    }
    if (clients.isEmpty()) {
      createClients();
    }
  }

  /**
   * One client per group, told its leader: a client that has to find the leader itself first sends
   * to the first member, and every request in flight then bounces off it once.
   */
  private void createClients() {
    RaftProperties properties = new RaftProperties();
    RaftClientConfigKeys.Async.setOutstandingRequestsMax(properties, CLIENT_OUTSTANDING_MAX);
    // Ratis' 3 s default would resend requests that merely wait in a saturated leader's queue
    // during the throughput runs, adding load exactly when there is too much. A dead leader is
    // still noticed at once: its connections break.
    RaftClientConfigKeys.Rpc.setRequestTimeout(
        properties, RatisSettings.millis(CLIENT_REQUEST_TIMEOUT_MS));
    for (int p = 0; p < groups.size(); p++) {
      clients.add(
          RaftClient.newBuilder()
              .setProperties(properties)
              .setRaftGroup(groups.get(p))
              .setLeaderId(peers.get(leaderOf(p)).getId())
              .setRetryPolicy(
                  RetryPolicies.retryForeverWithSleep(RatisSettings.millis(CLIENT_RETRY_SLEEP_MS)))
              .build());
    }
  }

  /** The running member that leads partition {@code p} and has committed in its term, or -1. */
  private int leaderOf(int p) {
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

  @Override
  public CompletableFuture<Void> append(int partition, byte[] data) {
    // No copy: the benchmark never changes the payload.
    Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(data));
    if (direct) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      submitToLeader(partition, message, System.nanoTime() + DIRECT_GIVE_UP_NS, done);
      return done;
    }
    return clients
        .get(partition)
        .async()
        .send(message)
        .thenApply(
            reply -> {
              if (!reply.isSuccess()) {
                throw new CompletionException(reply.getException());
              }
              return null;
            });
  }

  /**
   * Submits to the member believed to lead the partition; where it does not (or is gone), looks the
   * leader up again and retries after a short pause, as RaftClient's retry policy would.
   */
  private void submitToLeader(
      int partition, Message message, long giveUpNs, CompletableFuture<Void> done) {
    int leader = leaderHints.get(partition);
    RaftServer server = servers[leader];
    CompletableFuture<RaftClientReply> reply;
    if (server == null) {
      reply = CompletableFuture.failedFuture(new IOException("member " + leader + " is down"));
    } else {
      RaftClientRequest request =
          RaftClientRequest.newBuilder()
              .setClientId(directClientIds.get(partition))
              .setServerId(peers.get(leader).getId())
              .setGroupId(groups.get(partition).getGroupId())
              .setCallId(directCallIds.incrementAndGet())
              .setMessage(message)
              .setType(RaftClientRequest.writeRequestType())
              .build();
      try {
        reply = server.submitClientRequestAsync(request);
      } catch (IOException | RuntimeException e) {
        reply = CompletableFuture.failedFuture(e);
      }
    }
    reply.whenComplete(
        (r, error) -> {
          if (error == null && r.isSuccess()) {
            done.complete(null);
            return;
          }
          Throwable cause = error != null ? error : r.getException();
          if (System.nanoTime() > giveUpNs) {
            done.completeExceptionally(cause);
            return;
          }
          int current = leaderOf(partition);
          if (current >= 0) {
            leaderHints.set(partition, current);
          }
          CompletableFuture.delayedExecutor(CLIENT_RETRY_SLEEP_MS, TimeUnit.MILLISECONDS)
              .execute(() -> submitToLeader(partition, message, giveUpNs, done));
        });
  }

  @Override
  public int killLeader(int partition) throws Exception {
    int leader = leaderOf(partition);
    if (leader < 0) {
      throw new IllegalStateException("Partition " + partition + " has no leader to kill");
    }
    RaftServer server = servers[leader];
    servers[leader] = null;
    // In-process there is no kill -9. RaftServer.close() stops every group of the member first
    // (its leader stops sending at once, without stepping down or telling anyone), then spends
    // seconds closing gRPC channels gracefully. The followers only notice the silence, as after a
    // crash; this returns once the groups have stopped and leaves the channels to a background
    // thread. (Closing the RPC server first is no better: the leader keeps sending heartbeats on
    // its outgoing channels until they are closed, 3 s per peer.)
    CompletableFuture<Void> closed = new CompletableFuture<>();
    Thread closer =
        new Thread(
            () -> {
              closeQuietly(server);
              closed.complete(null);
            },
            "ratis-kill-m" + leader);
    closer.setDaemon(true);
    closer.start();
    closing[leader] = closed;
    waitFor(
        Duration.ofSeconds(30),
        "stop of member " + leader + "'s groups",
        () -> closed.isDone() || allGroupsStopped(server));
    return leader;
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

  @Override
  public void restart(int memberId) throws Exception {
    startServerAfterClose(memberId);
    waitFor(
        Duration.ofSeconds(60),
        "member " + memberId + " to follow a leader in every partition",
        () -> {
          for (RaftGroup group : groups) {
            try {
              if (servers[memberId].getDivision(group.getGroupId()).getInfo().getLeaderId()
                  == null) {
                return false;
              }
            } catch (IOException e) {
              return false;
            }
          }
          return true;
        });
  }

  private void startServerAfterClose(int member) throws IOException {
    if (servers[member] != null) {
      throw new IllegalStateException("Member " + member + " is running");
    }
    if (closing[member] != null) {
      closing[member].join();
      closing[member] = null;
    }
    startServer(member);
  }

  /**
   * Stops a follower of partition 0, writes more than one log segment past it, has the leader take
   * a snapshot (which purges the log up to it), and restarts the follower, which can then only
   * catch up through the snapshot.
   */
  @Override
  public Duration measureSnapshotInstall(long bytes) throws Exception {
    RaftGroupId group0 = groups.get(0).getGroupId();
    int leader = leaderOf(0);
    if (leader < 0) {
      throw new IllegalStateException("Partition 0 has no leader");
    }
    int follower = (leader + 1) % servers.length;
    long followerNextIndex = servers[follower].getDivision(group0).getRaftLog().getNextIndex();
    servers[follower].close();
    servers[follower] = null;

    writeFiller(RaftServerConfigKeys.Log.segmentSizeMax(serverProperties(leader)).getSize());

    machines.get(leader).get(group0).prepareSnapshot(bytes);
    long timeoutMs = TimeUnit.MINUTES.toMillis(10);
    RaftClientReply reply =
        clients.get(0).getSnapshotManagementApi(peers.get(leader).getId()).create(1, timeoutMs);
    if (!reply.isSuccess()) {
      throw new IOException("Leader did not take a snapshot", reply.getException());
    }
    var leaderLog = servers[leader].getDivision(group0).getRaftLog();
    waitFor(
        Duration.ofSeconds(30),
        "the leader to purge its log past the stopped follower",
        () -> leaderLog.getStartIndex() > followerNextIndex);

    firstInstallCallNs.set(follower, 0);
    startServerAfterClose(follower);
    RatisStateMachine installer = machines.get(follower).get(group0);
    if (installer == null) {
      throw new IllegalStateException("Restarted follower has no state machine for partition 0");
    }
    // The leader retries a follower that was down with growing pauses (up to 5 s): allow for them
    // before the install, and for 10 MB/s at least during it.
    long waitS = 60 + bytes / 10_000_000;
    long installedNs = installer.installedNs().get(waitS, TimeUnit.SECONDS);
    long startNs = firstInstallCallNs.get(follower);
    if (startNs == 0) {
      throw new IllegalStateException("Snapshot installed, but no install-snapshot call was seen");
    }
    return Duration.ofNanos(installedNs - startNs);
  }

  /** Appends somewhat more than {@code bytes} to partition 0 in big entries, a few in flight. */
  private void writeFiller(long bytes) throws Exception {
    byte[] filler = new byte[FILLER_ENTRY_BYTES];
    new Random(7).nextBytes(filler);
    long entries = bytes / FILLER_ENTRY_BYTES + 16;
    Semaphore inFlight = new Semaphore(8);
    List<CompletableFuture<Void>> appends = new ArrayList<>();
    for (long i = 0; i < entries; i++) {
      inFlight.acquire();
      appends.add(append(0, filler).whenComplete((ignored, error) -> inFlight.release()));
    }
    CompletableFuture.allOf(appends.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
  }

  /**
   * Closes everything in parallel, servers first: a client closed while thousands of its requests
   * are in flight waits seconds for them, one client after the other, while with the servers gone
   * its streams break at once.
   */
  @Override
  public void close() {
    List<Thread> closers = new ArrayList<>();
    if (servers != null) {
      for (int i = 0; i < servers.length; i++) {
        RaftServer server = servers[i];
        servers[i] = null;
        if (server != null) {
          closers.add(closeInBackground(server, "ratis-close-m" + i));
        }
      }
    }
    joinAll(closers);
    if (closing != null) {
      for (CompletableFuture<?> killed : closing) {
        if (killed != null) {
          killed.join();
        }
      }
    }
    closers.clear();
    for (int p = 0; p < clients.size(); p++) {
      closers.add(closeInBackground(clients.get(p), "ratis-close-client-" + p));
    }
    joinAll(closers);
    clients.clear();
  }

  private static Thread closeInBackground(AutoCloseable closeable, String name) {
    Thread closer = new Thread(() -> closeQuietly(closeable), name);
    closer.setDaemon(true);
    closer.start();
    return closer;
  }

  private static void joinAll(List<Thread> threads) {
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

  private static void waitFor(Duration timeout, String what, BooleanSupplier condition)
      throws InterruptedException, TimeoutException {
    long deadlineNs = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadlineNs) {
        throw new TimeoutException("Ratis: no " + what + " within " + timeout);
      }
      Thread.sleep(5);
    }
  }

  /** From the Maven metadata the jar carries; "3.x" if it is not there. */
  private static String ratisVersion() {
    String resource = "/META-INF/maven/org.apache.ratis/ratis-server/pom.properties";
    try (InputStream in = RaftServer.class.getResourceAsStream(resource)) {
      if (in != null) {
        Properties properties = new Properties();
        properties.load(in);
        return properties.getProperty("version", "3.x");
      }
    } catch (IOException e) {
      // Fall through.
    }
    return "3.x";
  }
}
