package io.tern.raft.transport;

import static io.tern.raft.transport.Inbox.await;
import static io.tern.raft.transport.WireFrames.frame;
import static io.tern.raft.transport.WireFrames.readFrame;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.RaftMessage.TimeoutNow;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The accepting side's handshake, driven byte by byte through a plain socket. */
class HandshakeWireTest {
  private static final int SERVER_ID = 5;
  private static final int CLIENT_ID = 1;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final Inbox inbox = new Inbox();
  private final RaftMessageCodec codec = new RaftMessageCodec();
  private NettyRaftTransport server;

  @BeforeEach
  void startServer() {
    TransportConfig config =
        TransportConfig.builder(SERVER_ID)
            .bind("127.0.0.1", 0)
            // Member 1 connects to us (lower id), so this address is never dialled.
            .peer(CLIENT_ID, new InetSocketAddress("127.0.0.1", 9))
            .connectTimeoutMs(500)
            .build();
    server = new NettyRaftTransport(config, registry, Tags.empty());
    server.setReceiver(inbox);
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  @Test
  void answersAValidHandshakeAndThenCarriesMessages() throws Exception {
    try (Socket socket = connect()) {
      socket.getOutputStream().write(frame(handshake(new Handshake(CLIENT_ID, SERVER_ID, 1, 1))));

      byte[] answer = readFrame(socket.getInputStream());
      assertThat(codec.decodeHandshake(new UnsafeBuffer(answer), 0, answer.length, "server"))
          .isEqualTo(Handshake.of(SERVER_ID, CLIENT_ID));

      TimeoutNow message = new TimeoutNow(CLIENT_ID, SERVER_ID, 3);
      byte[] encoded = new byte[RaftMessageCodec.encodedLength(message)];
      codec.encode(12, message, new UnsafeBuffer(encoded), 0);
      socket.getOutputStream().write(frame(encoded));

      assertThat(inbox.take()).isEqualTo(new Envelope(12, message));
    }
  }

  @Test
  void skipsAMessageTypeFromANewerSchemaVersionAndKeepsTheConnection() throws Exception {
    try (Socket socket = connect()) {
      int newerVersion = RaftMessageCodec.SCHEMA_VERSION + 1;
      socket
          .getOutputStream()
          .write(frame(handshake(new Handshake(CLIENT_ID, SERVER_ID, newerVersion, 1))));
      readFrame(socket.getInputStream());

      byte[] newer = encode(new TimeoutNow(CLIENT_ID, SERVER_ID, 1));
      // Template 42 at a newer schema version: a message type added after this build.
      ByteBuffer.wrap(newer)
          .order(ByteOrder.LITTLE_ENDIAN)
          .putShort(2, (short) 42)
          .putShort(6, (short) newerVersion);
      socket.getOutputStream().write(frame(newer));
      TimeoutNow known = new TimeoutNow(CLIENT_ID, SERVER_ID, 3);
      socket.getOutputStream().write(frame(encode(known)));

      assertThat(inbox.take()).isEqualTo(new Envelope(12, known));
      Counter skipped =
          registry
              .find("tern.raft.transport.protocol.errors")
              .tag("reason", "newer_message_type")
              .counter();
      assertThat(skipped).isNotNull();
      assertThat(skipped.count()).isEqualTo(1);
    }
  }

  private byte[] encode(TimeoutNow message) {
    byte[] encoded = new byte[RaftMessageCodec.encodedLength(message)];
    codec.encode(12, message, new UnsafeBuffer(encoded), 0);
    return encoded;
  }

  @Test
  void refusesAPeerWhoseVersionItCannotTalkTo() throws Exception {
    Handshake future = new Handshake(CLIENT_ID, SERVER_ID, 9, 8);
    assertClosedWithout(frame(handshake(future)), "incompatible_version");
  }

  @Test
  void refusesAMessageInPlaceOfTheHandshake() throws Exception {
    byte[] encoded = new byte[RaftMessageCodec.encodedLength(new TimeoutNow(1, 5, 1))];
    codec.encode(1, new TimeoutNow(1, 5, 1), new UnsafeBuffer(encoded), 0);
    assertClosedWithout(frame(encoded), "malformed");
  }

  @Test
  void refusesAnotherProtocol() throws Exception {
    byte[] garbage = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    assertClosedWithout(frame(garbage), "unknown_schema");
  }

  @Test
  void refusesAnUnframedStream() throws Exception {
    // "GET " read as a length is about 540 MB, far above maxFrameBytes.
    assertClosedWithout("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII), "too_large");
  }

  @Test
  void refusesTheLargestFrameLength() throws Exception {
    // The length is unsigned: 4 GiB - 1, not -1.
    assertClosedWithout(new byte[] {-1, -1, -1, -1}, "too_large");
  }

  @Test
  void refusesAFrameAboveTheHandshakeLimitBeforeTheHandshake() throws Exception {
    // 64 KiB: far below maxFrameBytes, but no handshake needs it. A stranger must not make the
    // broker buffer megabytes per connection before saying who it is.
    int length = 64 * 1024;
    assertClosedWithout(
        new byte[] {(byte) length, (byte) (length >>> 8), (byte) (length >>> 16), 0}, "too_large");
  }

  @Test
  void closesAConnectionThatNeverHandshakes() throws Exception {
    assertClosedWithout(new byte[0], "timeout");
  }

  private void assertClosedWithout(byte[] bytes, String reason) throws Exception {
    try (Socket socket = connect()) {
      socket.getOutputStream().write(bytes);
      socket.getOutputStream().flush();
      assertThat(socket.getInputStream().read())
          .as("server closes without answering")
          .isEqualTo(-1);
    }
    await("refusal counted", () -> refused(reason) == 1);
  }

  private double refused(String reason) {
    Counter counter =
        registry.find("tern.raft.transport.connections.refused").tag("reason", reason).counter();
    return counter == null ? 0 : counter.count();
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket();
    socket.connect(server.boundAddress(), 5_000);
    socket.setSoTimeout(10_000);
    return socket;
  }

  private byte[] handshake(Handshake hello) {
    byte[] bytes = new byte[RaftMessageCodec.handshakeLength()];
    codec.encodeHandshake(hello, new UnsafeBuffer(bytes), 0);
    return bytes;
  }
}
