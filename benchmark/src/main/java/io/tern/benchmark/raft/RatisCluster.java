package io.tern.benchmark.raft;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Apache Ratis under the Raft benchmark: one {@link RaftServer} per member on 127.0.0.1 (gRPC, its
 * default transport; see {@link RatisMembers}), each hosting every partition as its own Raft group,
 * a segmented log per group in the member's directory, {@link RatisStateMachine} as the state
 * machine, and one {@link RaftClient} per group using the async API (or, "direct", appends handed
 * to the leader's server in-process). Settings are Ratis defaults except those {@link
 * RatisSettings} sets.
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

  /** How often the client retries a request that found no leader (during failover). */
  static final long CLIENT_RETRY_SLEEP_MS = 10;

  /** Filler entries written while a follower is down, so that a log segment closes. */
  static final int FILLER_ENTRY_BYTES = 256 * 1024;

  /** Whether appends bypass RaftClient and go to the leader's RaftServer in this JVM. */
  private final boolean direct;

  private RatisMembers members;
  private List<RaftGroup> groups = List.of();
  private final List<RaftClient> clients = new ArrayList<>();

  private final Map<String, String> settings = new LinkedHashMap<>();

  /** Set in {@link #start} when appends are direct. */
  private RatisDirectAppends directAppends;

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
    members = new RatisMembers(spec);
    groups = members.groups();
    if (direct) {
      directAppends =
          new RatisDirectAppends(
              members.peers(), groups, members::server, members::leaderOf, CLIENT_RETRY_SLEEP_MS);
    }
    settings.putAll(RatisSettings.describe(spec, direct));
    members.startAll();
  }

  @Override
  public Map<String, String> settings() {
    return Collections.unmodifiableMap(settings);
  }

  @Override
  public void awaitLeaders(Duration timeout) throws Exception {
    RatisMembers.waitFor(
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
    if (directAppends != null) {
      for (int p = 0; p < groups.size(); p++) {
        directAppends.leaderIs(p, leaderOf(p));
      }
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
              .setLeaderId(members.peers().get(leaderOf(p)).getId())
              .setRetryPolicy(
                  RetryPolicies.retryForeverWithSleep(RatisSettings.millis(CLIENT_RETRY_SLEEP_MS)))
              .build());
    }
  }

  private int leaderOf(int p) {
    return members.leaderOf(p);
  }

  @Override
  public CompletableFuture<Void> append(int partition, byte[] data) {
    // No copy: the benchmark never changes the payload.
    Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(data));
    if (directAppends != null) {
      return directAppends.append(partition, message);
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

  @Override
  public int killLeader(int partition) throws Exception {
    int leader = leaderOf(partition);
    if (leader < 0) {
      throw new IllegalStateException("Partition " + partition + " has no leader to kill");
    }
    members.kill(leader);
    return leader;
  }

  @Override
  public void restart(int memberId) throws Exception {
    members.restart(memberId);
    RatisMembers.waitFor(
        Duration.ofSeconds(60),
        "member " + memberId + " to follow a leader in every partition",
        () -> {
          for (RaftGroup group : groups) {
            try {
              if (members.server(memberId).getDivision(group.getGroupId()).getInfo().getLeaderId()
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
    int follower = (leader + 1) % members.count();
    long followerNextIndex =
        members.server(follower).getDivision(group0).getRaftLog().getNextIndex();
    members.stop(follower);

    writeFiller(
        RaftServerConfigKeys.Log.segmentSizeMax(members.serverProperties(leader)).getSize());

    members.machine(leader, group0).prepareSnapshot(bytes);
    long timeoutMs = TimeUnit.MINUTES.toMillis(10);
    RaftClientReply reply =
        clients
            .get(0)
            .getSnapshotManagementApi(members.peers().get(leader).getId())
            .create(1, timeoutMs);
    if (!reply.isSuccess()) {
      throw new IOException("Leader did not take a snapshot", reply.getException());
    }
    var leaderLog = members.server(leader).getDivision(group0).getRaftLog();
    RatisMembers.waitFor(
        Duration.ofSeconds(30),
        "the leader to purge its log past the stopped follower",
        () -> leaderLog.getStartIndex() > followerNextIndex);

    members.resetFirstInstallCall(follower);
    members.restart(follower);
    RatisStateMachine installer = members.machine(follower, group0);
    if (installer == null) {
      throw new IllegalStateException("Restarted follower has no state machine for partition 0");
    }
    // The leader retries a follower that was down with growing pauses (up to 5 s): allow for them
    // before the install, and for 10 MB/s at least during it.
    long waitS = 60 + bytes / 10_000_000;
    long installedNs = installer.installedNs().get(waitS, TimeUnit.SECONDS);
    long startNs = members.firstInstallCallNs(follower);
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
    if (members != null) {
      members.close();
    }
    List<Thread> closers = new ArrayList<>();
    for (int p = 0; p < clients.size(); p++) {
      closers.add(RatisMembers.closeInBackground(clients.get(p), "ratis-close-client-" + p));
    }
    RatisMembers.joinAll(closers);
    clients.clear();
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
