package io.tern.benchmark.raft;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServer;

/**
 * {@link RatisCluster}'s "direct" appends: each entry is submitted to the partition leader's {@link
 * RaftServer} in this JVM, bypassing RaftClient and its gRPC stream, as an in-process client of
 * Tern's Raft does. Where the member believed to lead does not (or is gone), the leader is looked
 * up again and the entry retried after a short pause, as RaftClient's retry policy would.
 */
final class RatisDirectAppends {
  /** How long to keep retrying one entry before failing it. */
  static final long GIVE_UP_NS = TimeUnit.SECONDS.toNanos(60);

  private final List<RaftPeer> peers;
  private final List<RaftGroup> groups;
  private final IntFunction<RaftServer> runningServer;
  private final IntUnaryOperator leaderOf;
  private final long retrySleepMs;

  /** Per partition: the member last seen leading it, and the client id its requests carry. */
  private final AtomicIntegerArray leaderHints;

  private final List<ClientId> clientIds = new ArrayList<>();
  private final AtomicLong callIds = new AtomicLong();

  /**
   * @param runningServer a member's running server, or null while it is down
   * @param leaderOf a partition's ready leader, or -1
   */
  RatisDirectAppends(
      List<RaftPeer> peers,
      List<RaftGroup> groups,
      IntFunction<RaftServer> runningServer,
      IntUnaryOperator leaderOf,
      long retrySleepMs) {
    this.peers = peers;
    this.groups = groups;
    this.runningServer = runningServer;
    this.leaderOf = leaderOf;
    this.retrySleepMs = retrySleepMs;
    this.leaderHints = new AtomicIntegerArray(groups.size());
    for (int p = 0; p < groups.size(); p++) {
      clientIds.add(ClientId.randomId());
    }
  }

  /** Tells where partition {@code p}'s leader is, once known. */
  void leaderIs(int partition, int member) {
    leaderHints.set(partition, member);
  }

  CompletableFuture<Void> append(int partition, Message message) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    submitToLeader(partition, message, System.nanoTime() + GIVE_UP_NS, done);
    return done;
  }

  private void submitToLeader(
      int partition, Message message, long giveUpNs, CompletableFuture<Void> done) {
    int leader = leaderHints.get(partition);
    RaftServer server = runningServer.apply(leader);
    CompletableFuture<RaftClientReply> reply;
    if (server == null) {
      reply = CompletableFuture.failedFuture(new IOException("member " + leader + " is down"));
    } else {
      RaftClientRequest request =
          RaftClientRequest.newBuilder()
              .setClientId(clientIds.get(partition))
              .setServerId(peers.get(leader).getId())
              .setGroupId(groups.get(partition).getGroupId())
              .setCallId(callIds.incrementAndGet())
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
          int current = leaderOf.applyAsInt(partition);
          if (current >= 0) {
            leaderHints.set(partition, current);
          }
          CompletableFuture.delayedExecutor(retrySleepMs, TimeUnit.MILLISECONDS)
              .execute(() -> submitToLeader(partition, message, giveUpNs, done));
        });
  }
}
