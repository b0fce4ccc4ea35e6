package io.tern.raft.transport;

import static io.tern.raft.transport.Inbox.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NettyRaftTransportTest {
  private final List<NettyRaftTransport> transports = new ArrayList<>();
  private final Map<NettyRaftTransport, SimpleMeterRegistry> registries = new HashMap<>();

  @AfterEach
  void closeAll() {
    transports.forEach(NettyRaftTransport::close);
  }

  @ParameterizedTest(name = "epoll={0}")
  @ValueSource(booleans = {true, false})
  void exchangesMessagesOfManyPartitionsInBothDirectionsOverOneConnection(boolean epoll)
      throws Exception {
    Inbox[] inboxes = {null, new Inbox(), new Inbox(), new Inbox()};
    NettyRaftTransport[] members = new NettyRaftTransport[4];
    for (int id = 1; id <= 3; id++) {
      members[id] = start(id, inboxes[id], b -> b.preferEpoll(epoll));
    }
    meshOf(members[1], members[2], members[3]);

    int perPartition = 20;
    for (int seq = 0; seq < perPartition; seq++) {
      for (int partition = 1; partition <= 3; partition++) {
        for (int from = 1; from <= 3; from++) {
          for (int to = 1; to <= 3; to++) {
            if (from != to) {
              assertThat(members[from].send(partition, message(from, to, seq * 3 + partition)))
                  .isTrue();
            }
          }
        }
      }
    }

    for (int to = 1; to <= 3; to++) {
      List<Envelope> received = inboxes[to].take(2 * 3 * perPartition);
      for (int from = 1; from <= 3; from++) {
        int sender = from;
        // One connection per pair: everything from one sender arrives in send order, across
        // partitions.
        List<Long> terms =
            received.stream()
                .filter(e -> e.message().from() == sender)
                .map(e -> e.message().term())
                .toList();
        if (from != to) {
          assertThat(terms).hasSize(3 * perPartition).isSorted();
        }
        assertThat(received)
            .filteredOn(e -> e.message().from() == sender)
            .allMatch(e -> e.partitionId() == (e.message().term() - 1) % 3 + 1);
      }
    }
    for (int id = 1; id <= 3; id++) {
      for (int peer = 1; peer <= 3; peer++) {
        if (peer != id) {
          assertThat(members[id].isConnected(peer)).isTrue();
          assertThat(count(members[id], "tern.raft.transport.reconnects", "peer", "" + peer))
              .isZero();
        }
      }
    }
    assertThat(count(members[1], "tern.raft.transport.messages.received", "peer", "2"))
        .isEqualTo(3 * perPartition);
    assertThat(gauge(members[1], "tern.raft.transport.connected", "peer", "3")).isEqualTo(1);
  }

  /** Zero-copy on receipt: entries view the frame, and are intact until the receiver releases. */
  @Test
  void appendEntriesArriveAsViewsOfTheFrameTheyCameIn() throws Exception {
    Inbox inbox = new Inbox();
    NettyRaftTransport leader = start(1, new Inbox(), b -> {});
    NettyRaftTransport follower = start(2, inbox, b -> {});
    meshOf(leader, follower);

    List<AppendRequest> sent = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      byte[] data = new byte[1 + i * 97];
      Arrays.fill(data, (byte) i);
      sent.add(
          new AppendRequest(
              1,
              2,
              1,
              i,
              i == 0 ? 0 : 1,
              List.of(new RaftEntry(i + 1, 1, RaftEntry.Type.APPLICATION, i, data)),
              0));
      assertThat(leader.send(1, sent.get(i))).isTrue();
    }

    List<Envelope> received = inbox.take(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      Messages.assertSameMessage(received.get(i).message(), sent.get(i));
    }
    assertThat(inbox.appendsWithViews()).isEqualTo(sent.size());
  }

  @Test
  void reconnectsToAPeerRestartedOnTheSamePortInEitherRole() throws Exception {
    Inbox inbox1 = new Inbox();
    NettyRaftTransport one = start(1, inbox1, b -> {});
    NettyRaftTransport two = start(2, new Inbox(), b -> {});
    meshOf(one, two);
    assertThat(one.send(7, message(1, 2, 1))).isTrue();
    await("first connection", () -> one.isConnected(2) && two.isConnected(1));
    int portOfTwo = two.boundAddress().getPort();

    // The higher id restarts: the lower id notices and reconnects.
    two.close();
    await("1 sees 2 go", () -> !one.isConnected(2));
    assertThat(one.send(7, message(1, 2, 2))).isTrue(); // waits in the queue
    Inbox inbox2 = new Inbox();
    NettyRaftTransport newTwo = start(2, inbox2, b -> b.bind("127.0.0.1", portOfTwo));
    newTwo.addPeer(1, one.boundAddress());

    assertThat(inbox2.take().message()).isEqualTo(message(1, 2, 2));
    assertThat(newTwo.send(8, message(2, 1, 3))).isTrue();
    assertThat(inbox1.take()).isEqualTo(new Envelope(8, message(2, 1, 3)));
    assertThat(count(one, "tern.raft.transport.reconnects", "peer", "2")).isEqualTo(1);

    // The lower id restarts: it connects again, and the higher id swaps to the new connection.
    int portOfOne = one.boundAddress().getPort();
    one.close();
    Inbox newInbox1 = new Inbox();
    NettyRaftTransport newOne = start(1, newInbox1, b -> b.bind("127.0.0.1", portOfOne));
    newOne.addPeer(2, newTwo.boundAddress());
    await(
        "2 sees the new 1", () -> count(newTwo, "tern.raft.transport.reconnects", "peer", "1") > 0);
    assertThat(newTwo.send(9, message(2, 1, 4))).isTrue();
    assertThat(newInbox1.take()).isEqualTo(new Envelope(9, message(2, 1, 4)));
    assertThat(newOne.send(9, message(1, 2, 5))).isTrue();
    assertThat(inbox2.take()).isEqualTo(new Envelope(9, message(1, 2, 5)));
  }

  /**
   * A restarted broker announces itself (through the command API) before its back-off would let the
   * lower id dial it again; the announcement dials at once. With a minute of back-off, only that
   * can connect within the await's 10 s.
   */
  @Test
  void aPeerThatAnnouncesItselfIsDialledAtOnceNotAtTheEndOfTheBackOff() throws Exception {
    InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", freePort());
    NettyRaftTransport one =
        start(1, new Inbox(), b -> b.peer(2, nobody).reconnectBackoffMs(60_000, 60_000));
    await(
        "the first dial failed",
        () -> count(one, "tern.raft.transport.connect.failures", "peer", "2") >= 1);

    Inbox inbox2 = new Inbox();
    NettyRaftTransport two = start(2, inbox2, b -> {});
    two.addPeer(1, one.boundAddress());
    one.addPeer(2, two.boundAddress()); // the announcement, with the address it moved to

    await("1 dials the announced 2", () -> one.isConnected(2));
    assertThat(one.send(3, message(1, 2, 7))).isTrue();
    assertThat(inbox2.take().message()).isEqualTo(message(1, 2, 7));
  }

  @Test
  void dropsOnceThePeerQueueIsFullWhileThePeerIsDown() throws Exception {
    InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", freePort());
    NettyRaftTransport one =
        start(1, new Inbox(), b -> b.peer(2, nobody).peer(3, nobody).maxQueuedMessagesPerPeer(5));

    for (int i = 0; i < 5; i++) {
      assertThat(one.send(1, message(1, 2, i))).isTrue();
    }
    assertThat(one.send(1, message(1, 2, 5))).isFalse();
    assertThat(one.queuedMessages(2)).isEqualTo(5);
    assertThat(gauge(one, "tern.raft.transport.queue.messages", "peer", "2")).isEqualTo(5);
    assertThat(dropped(one, "2", "queue_full")).isEqualTo(1);

    // The byte limit: 1 KiB frames into a 2.5 KiB queue.
    NettyRaftTransport four =
        start(
            4, new Inbox(), b -> b.peer(5, nobody).maxFrameBytes(2048).maxQueuedBytesPerPeer(2560));
    AppendRequest kibibyte = append(4, 5, 935); // + 85 bytes of header, block and entry
    assertThat(RaftMessageCodec.encodedLength(kibibyte)).isEqualTo(1020);
    assertThat(four.send(1, kibibyte)).isTrue();
    assertThat(four.send(1, kibibyte)).isTrue();
    assertThat(four.send(1, kibibyte)).isFalse();
    assertThat(dropped(four, "5", "queue_full")).isEqualTo(1);

    assertThat(one.send(1, message(1, 9, 0))).as("unknown member").isFalse();
    assertThat(dropped(one, "unknown", "unknown_member")).isEqualTo(1);
    one.close();
    assertThat(one.send(1, message(1, 3, 0))).as("closed").isFalse();
  }

  @Test
  void refusesOversizedFramesWhenSendingAndWhenReceiving() throws Exception {
    Inbox inbox2 = new Inbox();
    NettyRaftTransport one = start(1, new Inbox(), b -> b.maxFrameBytes(256 * 1024));
    NettyRaftTransport two = start(2, inbox2, b -> b.maxFrameBytes(16 * 1024));
    meshOf(one, two);

    assertThat(two.send(1, append(2, 1, 20 * 1024))).as("above the sender's limit").isFalse();
    assertThat(dropped(two, "1", "too_large")).isEqualTo(1);

    await("connection", () -> one.isConnected(2));
    assertThat(one.send(1, append(1, 2, 20 * 1024))).as("within the sender's limit").isTrue();
    await(
        "2 refuses the frame",
        () -> count(two, "tern.raft.transport.protocol.errors", "reason", "too_large") == 1);
    // The connection was closed over it; the lower id reconnects and small messages flow again.
    await("1 reconnects", () -> count(one, "tern.raft.transport.reconnects", "peer", "2") > 0);
    assertThat(one.send(1, message(1, 2, 42))).isTrue();
    assertThat(inbox2.take().message()).isEqualTo(message(1, 2, 42));
  }

  @Test
  void aPeerThatKeepsClosingRightAfterTheHandshakeIsRedialledWithGrowingBackOff() throws Exception {
    NettyRaftTransport one =
        start(1, new Inbox(), b -> b.maxFrameBytes(256 * 1024).reconnectBackoffMs(50, 1_000));
    NettyRaftTransport two = start(2, new Inbox(), b -> b.maxFrameBytes(16 * 1024));
    meshOf(one, two);
    await("connection", () -> one.isConnected(2));

    // Every connection is closed by 2 over the first frame, which 1 keeps sending (as Raft
    // resends an append that got no answer).
    long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_600);
    while (System.nanoTime() < endNs) {
      one.send(1, append(1, 2, 20 * 1024));
      Thread.sleep(10); // pacing for 1.6 s: the back-off is measured over that duration
    }

    // 50, 100, 200, 400, 800 ms apart: at most 5 in 1.6 s (about 25 at a fixed 50 ms).
    assertThat(count(one, "tern.raft.transport.reconnects", "peer", "2")).isBetween(1.0, 6.0);
  }

  @Test
  void refusesAHandshakeFromAnUnknownMember() throws Exception {
    Inbox inbox5 = new Inbox();
    NettyRaftTransport five = start(5, inbox5, b -> {});
    NettyRaftTransport intruder = start(2, new Inbox(), b -> b.peer(5, five.boundAddress()));

    assertThat(intruder.send(1, message(2, 5, 1))).isTrue(); // queued: the network may be slow
    await(
        "5 refuses 2",
        () ->
            count(five, "tern.raft.transport.connections.refused", "reason", "unknown_member") > 0);
    assertThat(intruder.isConnected(5)).isFalse();
    assertThat(inbox5.drain(Duration.ofMillis(200))).isEmpty();
  }

  @Test
  void refusesAPeerThatReachedTheWrongMember() throws Exception {
    NettyRaftTransport three = start(3, new Inbox(), b -> {});
    NettyRaftTransport one = start(1, new Inbox(), b -> b.peer(2, three.boundAddress()));
    three.addPeer(1, one.boundAddress());

    await(
        "3 refuses 1, which wants 2",
        () ->
            count(three, "tern.raft.transport.connections.refused", "reason", "wrong_target") > 0);
    assertThat(one.isConnected(2)).isFalse();
  }

  @Test
  void aFaultInjectorDelaysTrafficBetweenRealTransports() throws Exception {
    Inbox inbox2 = new Inbox();
    NettyRaftTransport one = start(1, new Inbox(), b -> {});
    NettyRaftTransport two = start(2, inbox2, b -> {});
    meshOf(one, two);
    try (FaultInjectingTransport delayed = new FaultInjectingTransport(one, 7)) {
      assertThat(delayed.send(1, message(1, 2, 0))).isTrue();
      inbox2.take(); // connected

      delayed.setAllLinks(LinkFault.delay(20));
      long startNanos = System.nanoTime();
      assertThat(delayed.send(1, message(1, 2, 1))).isTrue();
      assertThat(inbox2.take().message()).isEqualTo(message(1, 2, 1));
      assertThat(System.nanoTime() - startNanos)
          .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }
  }

  @Test
  void validatesItsConfiguration() {
    assertThatThrownBy(() -> TransportConfig.builder(1).peer(1, new InetSocketAddress(1)).build())
        .hasMessage("raft transport config: peers must not contain the local member 1");
    assertThatThrownBy(
            () ->
                TransportConfig.builder(1)
                    .maxFrameBytes(2 << 20)
                    .maxQueuedBytesPerPeer(1 << 20)
                    .build())
        .hasMessageContaining("maxQueuedBytesPerPeer (1048576) must be >= maxFrameBytes (2097152)");
    assertThatThrownBy(() -> TransportConfig.builder(1).reconnectBackoffMs(100, 10).build())
        .hasMessageContaining("need 1 <= reconnectBackoffMinMs <= reconnectBackoffMaxMs");
    assertThatThrownBy(() -> TransportConfig.builder(-1).build())
        .hasMessageContaining("localMemberId must be >= 0");
  }

  @Test
  void failsClearlyWhenThePortIsTaken() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      NettyRaftTransport transport =
          new NettyRaftTransport(
              TransportConfig.builder(1).bind("127.0.0.1", taken.getLocalPort()).build(),
              new SimpleMeterRegistry(),
              Tags.empty());
      assertThatThrownBy(transport::start)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageStartingWith(
              "raft transport: member 1 cannot listen on 127.0.0.1:" + taken.getLocalPort());
    }
  }

  private NettyRaftTransport start(
      int memberId, Inbox inbox, Consumer<TransportConfig.Builder> settings) {
    TransportConfig.Builder builder =
        TransportConfig.builder(memberId)
            .bind("127.0.0.1", 0)
            .reconnectBackoffMs(10, 100)
            .connectTimeoutMs(2_000);
    settings.accept(builder);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    NettyRaftTransport transport =
        new NettyRaftTransport(builder.build(), registry, Tags.of("test", "transport"));
    transport.setReceiver(inbox);
    transports.add(transport);
    registries.put(transport, registry);
    return transport.start();
  }

  private static void meshOf(NettyRaftTransport... members) {
    for (NettyRaftTransport member : members) {
      for (NettyRaftTransport other : members) {
        if (member != other) {
          member.addPeer(other.localMemberId(), other.boundAddress());
        }
      }
    }
  }

  private double count(NettyRaftTransport transport, String name, String tag, String value) {
    var counter = registries.get(transport).find(name).tag(tag, value).counter();
    return counter == null ? 0 : counter.count();
  }

  private double gauge(NettyRaftTransport transport, String name, String tag, String value) {
    return registries.get(transport).get(name).tag(tag, value).gauge().value();
  }

  private double dropped(NettyRaftTransport transport, String peer, String reason) {
    return registries
        .get(transport)
        .get("tern.raft.transport.messages.dropped")
        .tags("peer", peer, "reason", reason)
        .counter()
        .count();
  }

  /** Distinct per term, so tests can check order and identity. */
  private static RaftMessage message(int from, int to, long term) {
    return term % 2 == 0
        ? new TimeoutNow(from, to, term)
        : new VoteResponse(from, to, term, true, false);
  }

  private static AppendRequest append(int from, int to, int payloadBytes) {
    byte[] data = new byte[payloadBytes];
    return new AppendRequest(
        from, to, 1, 0, 0, List.of(new RaftEntry(1, 1, RaftEntry.Type.APPLICATION, 1, data)), 0);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
