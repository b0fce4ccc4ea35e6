package io.tern.raft.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A peer that answers the handshake and then is never heard from again (a host that lost power, a
 * network partition that drops packets without a reset) keeps the TCP connection open; the
 * transport must notice the silence while it sends, close the connection and dial again.
 */
class DeadPeerTest {
  private final RaftMessageCodec codec = new RaftMessageCodec();

  @Test
  void aConnectionThatIsWrittenToButNeverAnsweredIsClosedAndRedialled() throws Exception {
    try (ServerSocket silentPeer =
        new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      silentPeer.setSoTimeout(10_000);
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      TransportConfig config =
          TransportConfig.builder(1)
              .bind("127.0.0.1", 0)
              .peer(2, new InetSocketAddress("127.0.0.1", silentPeer.getLocalPort()))
              .deadPeerTimeoutMs(300)
              .reconnectBackoffMs(10, 100)
              .build();
      NettyRaftTransport transport = new NettyRaftTransport(config, registry, Tags.empty());
      List<Socket> accepted = new ArrayList<>();
      try {
        transport.setReceiver((partitionId, message) -> {});
        transport.start();
        accepted.add(acceptAndHandshake(silentPeer));
        Inbox.await("connected", () -> transport.isConnected(2));

        // Raft keeps asking (pre-votes here); the peer reads nothing and answers nothing.
        long startNs = System.nanoTime();
        Thread sender =
            new Thread(
                () -> {
                  for (int i = 0; i < 300 && !Thread.currentThread().isInterrupted(); i++) {
                    transport.send(1, new VoteRequest(1, 2, i, 0, 0, true, false));
                    try {
                      Thread.sleep(10);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                });
        sender.start();
        try {
          accepted.add(acceptAndHandshake(silentPeer)); // the redial
        } finally {
          sender.interrupt();
          sender.join();
        }
        long redialMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

        assertThat(redialMs).as("redialled after the silence, not at once").isGreaterThan(250);
        Counter dead =
            registry
                .find("tern.raft.transport.protocol.errors")
                .tag("reason", "dead_peer")
                .counter();
        assertThat(dead).isNotNull();
        assertThat(dead.count()).isEqualTo(1);
      } finally {
        transport.close();
        for (Socket socket : accepted) {
          socket.close();
        }
      }
    }
  }

  @Test
  void aConnectionIdleBothWaysStaysOpen() throws Exception {
    try (ServerSocket quietPeer =
        new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      quietPeer.setSoTimeout(10_000);
      TransportConfig config =
          TransportConfig.builder(1)
              .bind("127.0.0.1", 0)
              .peer(2, new InetSocketAddress("127.0.0.1", quietPeer.getLocalPort()))
              .deadPeerTimeoutMs(100)
              .build();
      NettyRaftTransport transport =
          new NettyRaftTransport(config, new SimpleMeterRegistry(), Tags.empty());
      try (Socket socket = acceptAfterStart(transport, quietPeer)) {
        Inbox.await("connected", () -> transport.isConnected(2));
        Thread.sleep(500); // five timeouts without a byte either way
        assertThat(transport.isConnected(2)).isTrue();
      } finally {
        transport.close();
      }
    }
  }

  @Test
  void aLinkOnWhichThisSideOnlyAnswersIsNotTakenForDead() throws Exception {
    try (ServerSocket quietPeer =
        new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      quietPeer.setSoTimeout(10_000);
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      TransportConfig config =
          TransportConfig.builder(1)
              .bind("127.0.0.1", 0)
              .peer(2, new InetSocketAddress("127.0.0.1", quietPeer.getLocalPort()))
              .deadPeerTimeoutMs(100)
              .build();
      NettyRaftTransport transport = new NettyRaftTransport(config, registry, Tags.empty());
      try (Socket socket = acceptAfterStart(transport, quietPeer)) {
        Inbox.await("connected", () -> transport.isConnected(2));
        // Answers expect nothing back (a follower answering a leader that has since gone quiet).
        for (int i = 0; i < 50; i++) {
          transport.send(1, new AppendResponse(1, 2, 1, true, i, 0));
          Thread.sleep(10);
        }
        assertThat(transport.isConnected(2)).isTrue();
        assertThat(
                registry
                    .find("tern.raft.transport.protocol.errors")
                    .tag("reason", "dead_peer")
                    .counter())
            .isNull();
      } finally {
        transport.close();
      }
    }
  }

  @Test
  void aRequestOnALongQuietLinkIsGivenTheWholeTimeoutToBeAnswered() throws Exception {
    try (ServerSocket peer = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      peer.setSoTimeout(10_000);
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      TransportConfig config =
          TransportConfig.builder(1)
              .bind("127.0.0.1", 0)
              .peer(2, new InetSocketAddress("127.0.0.1", peer.getLocalPort()))
              .deadPeerTimeoutMs(200)
              .build();
      NettyRaftTransport transport = new NettyRaftTransport(config, registry, Tags.empty());
      try (Socket socket = acceptAfterStart(transport, peer)) {
        Inbox.await("connected", () -> transport.isConnected(2));
        Thread.sleep(600); // quiet for three timeouts
        for (int i = 0; i < 3; i++) {
          // A pre-vote on the quiet link, answered after half the timeout (a busy peer).
          transport.send(1, new VoteRequest(1, 2, 5 + i, 0, 0, true, false));
          readFrame(socket.getInputStream());
          Thread.sleep(100);
          byte[] answer =
              new byte[RaftMessageCodec.encodedLength(new VoteResponse(2, 1, 5 + i, true, true))];
          codec.encode(1, new VoteResponse(2, 1, 5 + i, true, true), new UnsafeBuffer(answer), 0);
          socket.getOutputStream().write(frame(answer));
          socket.getOutputStream().flush();
          Thread.sleep(400); // quiet again
        }
        assertThat(transport.isConnected(2)).isTrue();
        assertThat(
                registry
                    .find("tern.raft.transport.protocol.errors")
                    .tag("reason", "dead_peer")
                    .counter())
            .isNull();
      } finally {
        transport.close();
      }
    }
  }

  private static byte[] frame(byte[] message) {
    return ByteBuffer.allocate(4 + message.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(message.length)
        .put(message)
        .array();
  }

  private Socket acceptAfterStart(NettyRaftTransport transport, ServerSocket peer)
      throws IOException {
    transport.setReceiver((partitionId, message) -> {});
    transport.start();
    return acceptAndHandshake(peer);
  }

  /** Accepts member 1's connection, reads its handshake and answers as member 2. */
  private Socket acceptAndHandshake(ServerSocket peer) throws IOException {
    Socket socket = peer.accept();
    socket.setSoTimeout(10_000);
    readFrame(socket.getInputStream());
    byte[] answer = new byte[RaftMessageCodec.handshakeLength()];
    codec.encodeHandshake(Handshake.of(2, 1), new UnsafeBuffer(answer), 0);
    socket
        .getOutputStream()
        .write(
            ByteBuffer.allocate(4 + answer.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(answer.length)
                .put(answer)
                .array());
    socket.getOutputStream().flush();
    return socket;
  }

  private static byte[] readFrame(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    byte[] prefix = new byte[4];
    data.readFully(prefix);
    byte[] frame = new byte[ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getInt()];
    data.readFully(frame);
    return frame;
  }
}
