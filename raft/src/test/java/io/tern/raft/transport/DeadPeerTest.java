package io.tern.raft.transport;

import static io.tern.raft.transport.WireFrames.frame;
import static io.tern.raft.transport.WireFrames.readFrame;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A peer that answers the handshake and then is never heard from again (a host that lost power, a
 * network partition that drops packets without a reset) keeps the TCP connection open; the
 * transport must notice the silence while it sends, close the connection and dial again. Member 1
 * is the transport under test; member 2 is played through a plain socket.
 */
class DeadPeerTest {
  private final RaftMessageCodec codec = new RaftMessageCodec();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final List<Socket> accepted = new ArrayList<>();
  private ServerSocket peer;
  private NettyRaftTransport transport;

  @BeforeEach
  void listenAsMemberTwo() throws IOException {
    peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    peer.setSoTimeout(10_000);
  }

  @AfterEach
  void closeAll() throws IOException {
    if (transport != null) {
      transport.close();
    }
    for (Socket socket : accepted) {
      socket.close();
    }
    peer.close();
  }

  /** Starts member 1 and accepts its first connection as member 2. */
  private Socket startMemberOne(UnaryOperator<TransportConfig.Builder> settings) throws Exception {
    TransportConfig config =
        settings
            .apply(
                TransportConfig.builder(1)
                    .bind("127.0.0.1", 0)
                    .peer(2, new InetSocketAddress("127.0.0.1", peer.getLocalPort())))
            .build();
    transport = new NettyRaftTransport(config, registry, Tags.empty());
    transport.setReceiver((partitionId, message) -> {});
    transport.start();
    Socket socket = acceptAndHandshake();
    Inbox.await("connected", () -> transport.isConnected(2));
    return socket;
  }

  /** Accepts member 1's connection, reads its handshake and answers as member 2. */
  private Socket acceptAndHandshake() throws IOException {
    Socket socket = peer.accept();
    accepted.add(socket);
    socket.setSoTimeout(10_000);
    readFrame(socket.getInputStream());
    byte[] answer = new byte[RaftMessageCodec.handshakeLength()];
    codec.encodeHandshake(Handshake.of(2, 1), new UnsafeBuffer(answer), 0);
    socket.getOutputStream().write(frame(answer));
    socket.getOutputStream().flush();
    return socket;
  }

  private void answer(Socket socket, RaftMessage message) throws IOException {
    byte[] encoded = new byte[RaftMessageCodec.encodedLength(message)];
    codec.encode(1, message, new UnsafeBuffer(encoded), 0);
    socket.getOutputStream().write(frame(encoded));
    socket.getOutputStream().flush();
  }

  private Counter deadPeerCount() {
    return registry
        .find("tern.raft.transport.protocol.errors")
        .tag("reason", "dead_peer")
        .counter();
  }

  @Test
  void aConnectionThatIsWrittenToButNeverAnsweredIsClosedAndRedialled() throws Exception {
    startMemberOne(b -> b.deadPeerTimeoutMs(300).reconnectBackoffMs(10, 100));

    // Raft keeps asking (pre-votes here); the peer reads nothing and answers nothing.
    long startNs = System.nanoTime();
    Thread sender =
        new Thread(
            () -> {
              for (int i = 0; i < 300 && !Thread.currentThread().isInterrupted(); i++) {
                transport.send(1, new VoteRequest(1, 2, i, 0, 0, true, false));
                try {
                  Thread.sleep(10); // pacing: a request every 10 ms, as Raft's retries come
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    sender.start();
    try {
      acceptAndHandshake(); // the redial
    } finally {
      sender.interrupt();
      sender.join();
    }
    long redialMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

    assertThat(redialMs).as("redialled after the silence, not at once").isGreaterThan(250);
    assertThat(deadPeerCount()).isNotNull();
    assertThat(deadPeerCount().count()).isEqualTo(1);
  }

  @Test
  void aConnectionIdleBothWaysStaysOpen() throws Exception {
    startMemberOne(b -> b.deadPeerTimeoutMs(100));
    // A duration, not a condition: staying connected through five timeouts is what is checked.
    Thread.sleep(500); // five timeouts without a byte either way
    assertThat(transport.isConnected(2)).isTrue();
  }

  @Test
  void aLinkOnWhichThisSideOnlyAnswersIsNotTakenForDead() throws Exception {
    startMemberOne(b -> b.deadPeerTimeoutMs(100));
    // Answers expect nothing back (a follower answering a leader that has since gone quiet).
    for (int i = 0; i < 50; i++) {
      transport.send(1, new AppendResponse(1, 2, 1, true, i, 0));
      Thread.sleep(10); // pacing: answers spread over five timeouts
    }
    assertThat(transport.isConnected(2)).isTrue();
    assertThat(deadPeerCount()).isNull();
  }

  @Test
  void aRequestOnALongQuietLinkIsGivenTheWholeTimeoutToBeAnswered() throws Exception {
    Socket socket = startMemberOne(b -> b.deadPeerTimeoutMs(200));
    // Durations, not conditions: the link's quiet spells and the peer's slowness are the setup.
    Thread.sleep(600); // quiet for three timeouts
    for (int i = 0; i < 3; i++) {
      // A pre-vote on the quiet link, answered after half the timeout (a busy peer).
      transport.send(1, new VoteRequest(1, 2, 5 + i, 0, 0, true, false));
      readFrame(socket.getInputStream());
      Thread.sleep(100); // the peer answers after half the timeout
      answer(socket, new VoteResponse(2, 1, 5 + i, true, true));
      Thread.sleep(400); // quiet again
    }
    assertThat(transport.isConnected(2)).isTrue();
    assertThat(deadPeerCount()).isNull();
  }
}
