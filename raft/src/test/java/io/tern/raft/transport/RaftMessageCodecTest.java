package io.tern.raft.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tern.raft.Member;
import io.tern.raft.Membership;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import io.tern.raft.transport.RaftProtocolException.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RaftMessageCodecTest {
  private static final int TEMPLATE_ID_OFFSET = 2;
  private static final int SCHEMA_ID_OFFSET = 4;
  private static final int VERSION_OFFSET = 6;

  private final RaftMessageCodec codec = new RaftMessageCodec();

  static Stream<RaftMessage> messages() {
    byte[] large = new byte[1024 * 1024];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) (i * 31);
    }
    return Stream.of(
        new AppendRequest(1, 2, 3, 0, 0, List.of(), 0),
        new AppendRequest(
            1,
            2,
            7,
            10,
            6,
            List.of(
                new RaftEntry(11, 7, RaftEntry.Type.APPLICATION, 100, new byte[] {1, 2, 3}),
                RaftEntry.noop(12, 7),
                new RaftEntry(13, 7, RaftEntry.Type.APPLICATION, RaftEntry.NO_ASQN, new byte[0]),
                RaftEntry.config(14, 7, THREE_AND_A_LEARNER)),
            11),
        new AppendRequest(
            Integer.MAX_VALUE,
            Integer.MIN_VALUE,
            Long.MAX_VALUE,
            Long.MAX_VALUE - 1,
            Long.MAX_VALUE,
            List.of(new RaftEntry(Long.MAX_VALUE, Long.MAX_VALUE, RaftEntry.Type.NOOP, -1, large)),
            Long.MAX_VALUE),
        new AppendResponse(2, 1, 7, true, 12, 0),
        new AppendResponse(2, 1, Long.MAX_VALUE, false, Long.MAX_VALUE, Long.MAX_VALUE),
        new VoteRequest(3, 1, 8, 12, 7, true, false),
        new VoteRequest(3, 1, 8, 12, 7, false, true),
        new VoteResponse(1, 3, 8, true, true),
        new VoteResponse(1, 3, 8, false, false),
        new TimeoutNow(1, 2, Long.MAX_VALUE),
        new SnapshotChunk(1, 2, 9, 1000, 8, 0xFFFF_FFFFL, 0, 1, "", 0, new byte[0], 0),
        new SnapshotChunk(
            1, 2, 9, 1000, 8, 42, 3, 10, "state/000017.sst ünïcödé", 1L << 40, large, -1),
        new SnapshotChunk(
            1, 2, 9, 1000, 8, 42, 0, 1, "s", 0, new byte[] {7}, 5, THREE_AND_A_LEARNER),
        new SnapshotResponse(2, 1, 9, 1000, 4, false),
        new SnapshotResponse(2, 1, 9, Long.MAX_VALUE, Integer.MAX_VALUE, true));
  }

  private static final Membership THREE_AND_A_LEARNER =
      new Membership(
          List.of(new Member(1, 3), new Member(2, 2), new Member(3, 1)), List.of(new Member(4, 1)));

  /** Messages no correct member sends, each with the words that name its fault. */
  static Stream<Arguments> malformed() {
    RaftEntry entry5 = new RaftEntry(5, 2, RaftEntry.Type.APPLICATION, 1, new byte[] {1});
    return Stream.of(
        Arguments.of(new AppendRequest(1, 2, -1, 0, 0, List.of(), 0), "has a negative term -1"),
        Arguments.of(
            new AppendRequest(1, 2, 3, 1_000_000, -1, List.of(), 1_000_000),
            "has prevIndex 1000000 with prevTerm -1"),
        Arguments.of(new AppendRequest(1, 2, 3, 4, 0, List.of(), 0), "prevTerm 0"),
        Arguments.of(new AppendRequest(1, 2, 3, 4, 4, List.of(), 0), "prevTerm 4 above its term 3"),
        Arguments.of(
            new AppendRequest(1, 2, 3, 4, 2, List.of(), 5), "commit index 5 outside [0, 4]"),
        Arguments.of(
            new AppendRequest(1, 2, 3, 3, 2, List.of(entry5), 3),
            "entry 5 at position 0 after prevIndex 3"),
        Arguments.of(
            new AppendRequest(1, 2, 3, 4, 3, List.of(entry5), 4),
            "entry 5 of term 2 outside [3, 3]"),
        Arguments.of(new AppendResponse(2, 1, 3, false, -5, 0), "negative index -5"),
        Arguments.of(new VoteRequest(3, 1, 8, 12, 0, false, false), "lastIndex 12 with lastTerm 0"),
        Arguments.of(
            new SnapshotChunk(1, 2, 9, 1000, 8, 42, 0, 0, "s", 0, new byte[0], 0), "chunk 0 of 0"),
        Arguments.of(
            new SnapshotChunk(1, 2, 9, 1000, 8, 42, -1, 3, "s", 0, new byte[0], 0),
            "chunk -1 of 3"),
        Arguments.of(
            new SnapshotChunk(1, 2, 9, 0, 8, 42, 0, 1, "s", 0, new byte[0], 0),
            "snapshot index 0 and term 8"),
        Arguments.of(
            new SnapshotChunk(1, 2, 9, 1000, 8, 42, 0, 1, "s", -7, new byte[0], 0),
            "file offset -7"),
        Arguments.of(
            new SnapshotChunk(1, 2, 9, 1000, 8, -1, 0, 1, "s", 0, new byte[0], 0),
            "snapshot checksum -1"),
        Arguments.of(new SnapshotResponse(2, 1, 9, 1000, -5, false), "next chunk -5"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void refusesAMessageNoCorrectMemberSends(RaftMessage message, String fault) {
    int length = RaftMessageCodec.encodedLength(message);
    UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
    codec.encode(4, message, buffer, 0);

    assertThatThrownBy(() -> codec.decode(buffer, 0, length, message.from()))
        .isInstanceOfSatisfying(
            RaftProtocolException.class,
            e -> assertThat(e.kind()).isEqualTo(RaftProtocolException.Kind.MALFORMED))
        .hasMessageContaining("from member " + message.from() + " for partition 4")
        .hasMessageContaining(fault);
  }

  @ParameterizedTest
  @MethodSource("messages")
  void roundTripsThroughAgronaBuffers(RaftMessage message) {
    int offset = 13;
    int length = RaftMessageCodec.encodedLength(message);
    UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(offset + length));

    assertThat(codec.encode(-5, message, buffer, offset)).isEqualTo(length);
    Envelope decoded = codec.decode(buffer, offset, length, message.from());

    assertThat(decoded.partitionId()).isEqualTo(-5);
    Messages.assertSameMessage(decoded.message(), message);
  }

  @ParameterizedTest
  @MethodSource("messages")
  void roundTripsThroughHeapAndDirectByteBufs(RaftMessage message) {
    for (ByteBuf buf : List.of(Unpooled.buffer(16), Unpooled.directBuffer(16))) {
      try {
        buf.writeLong(99); // encode appends at the writer index
        buf.readLong();
        int length = codec.encode(Integer.MAX_VALUE, message, buf);

        assertThat(buf.readableBytes()).isEqualTo(length);
        Envelope decoded = codec.decode(buf, message.from());
        assertThat(decoded.partitionId()).isEqualTo(Integer.MAX_VALUE);
        Messages.assertSameMessage(decoded.message(), message);
      } finally {
        buf.release();
      }
    }
  }

  private static AppendRequest threeEntries() {
    return new AppendRequest(
        1,
        2,
        7,
        10,
        6,
        List.of(
            new RaftEntry(11, 7, RaftEntry.Type.APPLICATION, 100, new byte[] {1, 2, 3}),
            RaftEntry.noop(12, 7),
            new RaftEntry(13, 7, RaftEntry.Type.APPLICATION, 101, new byte[] {4, 5})),
        11);
  }

  /** A follower copies a payload once, from the frame into its journal, with no array between. */
  @Test
  void entriesDecodedFromAFrameViewItUntilTheMessageIsReleased() {
    AppendRequest sent = threeEntries();
    for (ByteBuf buf :
        List.of(
            Unpooled.buffer(16),
            Unpooled.directBuffer(16),
            PooledByteBufAllocator.DEFAULT.directBuffer(16))) {
      codec.encode(3, sent, buf);
      AppendRequest received = (AppendRequest) codec.decode(buf, 1).message();

      assertThat(received.entries()).allMatch(RaftEntry::isView);
      Messages.assertSameMessage(received, sent);
      assertThat(buf.refCnt()).as("the message holds the frame").isEqualTo(2);
      RaftEntry first = received.entries().get(0);
      buf.setByte(buf.readerIndex() + first.viewedOffset(), 9);
      assertThat(first.data()).as("the entry's data is the frame's bytes").containsExactly(9, 2, 3);

      received.release();
      assertThat(buf.refCnt()).isEqualTo(1);
      received.release();
      assertThat(buf.refCnt()).as("a second release gives back nothing").isEqualTo(1);
      buf.release();
    }
  }

  @Test
  void aMessageWithoutEntriesHoldsNoFrame() {
    ByteBuf buf = Unpooled.directBuffer(16);
    codec.encode(3, new AppendRequest(1, 2, 3, 0, 0, List.of(), 0), buf);
    codec.decode(buf, 1);
    assertThat(buf.refCnt()).isEqualTo(1);
    buf.release();
  }

  @Test
  void aFrameThatFailsAnyCheckHoldsNoReference() {
    AppendRequest wrongIndex =
        new AppendRequest(
            1,
            2,
            7,
            10,
            6,
            List.of(new RaftEntry(12, 7, RaftEntry.Type.APPLICATION, 100, new byte[] {1})),
            10);
    ByteBuf breaksARule = Unpooled.directBuffer(16);
    codec.encode(3, wrongIndex, breaksARule);
    ByteBuf trailingByte = Unpooled.directBuffer(16);
    codec.encode(3, threeEntries(), trailingByte);
    trailingByte.writeByte(0);

    for (ByteBuf buf : List.of(breaksARule, trailingByte)) {
      assertThatThrownBy(() -> codec.decode(buf, 1))
          .isInstanceOf(RaftProtocolException.class)
          .extracting(e -> ((RaftProtocolException) e).kind())
          .isEqualTo(Kind.MALFORMED);
      assertThat(buf.refCnt()).isEqualTo(1);
      buf.release();
    }
  }

  @Test
  void entriesDecodedFromACallersBufferOwnTheirData() {
    UnsafeBuffer buffer = encode(3, threeEntries());
    AppendRequest received =
        (AppendRequest) codec.decode(buffer, 0, buffer.capacity(), 1).message();
    buffer.setMemory(0, buffer.capacity(), (byte) 0);

    assertThat(received.entries()).noneMatch(RaftEntry::isView);
    Messages.assertSameMessage(received, threeEntries());
  }

  @Test
  void carriesTheMostEntriesAGroupAllows() {
    List<RaftEntry> entries = new ArrayList<>();
    for (int i = 0; i < RaftMessageCodec.MAX_ENTRIES_PER_APPEND; i++) {
      entries.add(RaftEntry.noop(i + 1, 1));
    }
    AppendRequest request = new AppendRequest(1, 2, 1, 0, 0, entries, 0);
    UnsafeBuffer buffer = encode(7, request);

    assertThat(codec.decode(buffer, 0, buffer.capacity(), 1).message()).isEqualTo(request);

    entries.add(RaftEntry.noop(entries.size() + 1, 1));
    assertThatThrownBy(() -> RaftMessageCodec.encodedLength(request))
        .isInstanceOf(RaftProtocolException.class)
        .hasMessageContaining("65535 entries exceeds the 65534")
        .extracting(e -> ((RaftProtocolException) e).kind())
        .isEqualTo(Kind.TOO_LARGE);
  }

  @Test
  void refusesABufferTooSmallForTheMessage() {
    UnsafeBuffer small = new UnsafeBuffer(new byte[20]);
    assertThatThrownBy(() -> codec.encode(1, new VoteRequest(1, 2, 3, 4, 5, true, true), small, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("raft transport: VoteRequest needs 46 bytes but the buffer has 20 left");
  }

  @Test
  void namesAnUnknownTemplate() {
    UnsafeBuffer frame = encode(1, new TimeoutNow(3, 1, 5));
    frame.putShort(TEMPLATE_ID_OFFSET, (short) 42, ByteOrder.LITTLE_ENDIAN);

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 3))
        .isInstanceOf(RaftProtocolException.class)
        .hasMessage(
            "raft transport: unknown message template 42 (schema 7411 version "
                + RaftMessageCodec.SCHEMA_VERSION
                + ") from member 3")
        .extracting(e -> ((RaftProtocolException) e).kind())
        .isEqualTo(Kind.UNKNOWN_TEMPLATE);
  }

  @Test
  void tellsAMessageTypeOfANewerSchemaVersionApart() {
    UnsafeBuffer frame = encode(1, new TimeoutNow(3, 1, 5));
    frame.putShort(TEMPLATE_ID_OFFSET, (short) 42, ByteOrder.LITTLE_ENDIAN);
    frame.putShort(
        VERSION_OFFSET, (short) (RaftMessageCodec.SCHEMA_VERSION + 1), ByteOrder.LITTLE_ENDIAN);

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 3))
        .isInstanceOf(RaftProtocolException.class)
        .extracting(e -> ((RaftProtocolException) e).kind())
        .isEqualTo(Kind.NEWER_MESSAGE_TYPE);
  }

  @Test
  void namesAWrongSchema() {
    UnsafeBuffer frame = encode(1, new TimeoutNow(3, 1, 5));
    frame.putShort(SCHEMA_ID_OFFSET, (short) 99, ByteOrder.LITTLE_ENDIAN);

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 3))
        .hasMessage(
            "raft transport: unknown schema 99 (version "
                + RaftMessageCodec.SCHEMA_VERSION
                + ", expected schema 7411) from member 3")
        .extracting(e -> ((RaftProtocolException) e).kind())
        .isEqualTo(Kind.UNKNOWN_SCHEMA);
  }

  @Test
  void refusesAVersionOlderThanTheOldestCompatible() {
    UnsafeBuffer frame = encode(1, new TimeoutNow(3, 1, 5));
    frame.putShort(VERSION_OFFSET, (short) 0, ByteOrder.LITTLE_ENDIAN);

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 3))
        .hasMessageContaining("message version 0 from member 3 is older than the oldest")
        .extracting(e -> ((RaftProtocolException) e).kind())
        .isEqualTo(Kind.INCOMPATIBLE_VERSION);
  }

  /** Every proper prefix of a frame is a truncated frame, wherever it is cut. */
  @ParameterizedTest
  @MethodSource("messages")
  void namesATruncatedFrameCutAnywhere(RaftMessage message) {
    UnsafeBuffer frame = encode(1, message);
    // Cutting a 1 MiB payload at each byte would take long; its edges are what matter.
    int step = Math.max(1, frame.capacity() / 2000);
    for (int length = 0; length < frame.capacity(); length += length < 200 ? 1 : step) {
      int cut = length;
      assertThatThrownBy(() -> codec.decode(frame, 0, cut, message.from()))
          .as("cut at %d of %d", cut, frame.capacity())
          .isInstanceOf(RaftProtocolException.class)
          .hasMessageContaining("truncated")
          .extracting(e -> ((RaftProtocolException) e).kind())
          .isEqualTo(Kind.TRUNCATED);
    }
  }

  @Test
  void aCorruptDataLengthFailsCleanlyInsteadOfAllocating() {
    AppendRequest request =
        new AppendRequest(
            1,
            2,
            3,
            0,
            0,
            List.of(new RaftEntry(1, 3, RaftEntry.Type.APPLICATION, 1, new byte[8])),
            0);
    UnsafeBuffer frame = encode(1, request);
    int dataLengthOffset = RaftMessageCodec.HEADER_BYTES + 44 + 4 + 25;
    frame.putInt(dataLengthOffset, -1, ByteOrder.LITTLE_ENDIAN); // 4 GiB - 1 as a uint32

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 1))
        .hasMessage(
            "raft transport: truncated AppendRequest from member 1: the frame of "
                + frame.capacity()
                + " bytes ends inside the 4294967295 data bytes of entry 0");
  }

  @Test
  void aCorruptEntryCountFailsBeforeAllocating() {
    UnsafeBuffer frame = encode(1, new AppendRequest(1, 2, 3, 0, 0, List.of(), 0));
    frame.putShort(RaftMessageCodec.HEADER_BYTES + 44 + 2, (short) 60000, ByteOrder.LITTLE_ENDIAN);

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 1))
        .hasMessageContaining("60000 entries need at least 1740000 bytes but the frame has 0 left");
  }

  @Test
  void refusesAnInvalidBoolean() {
    UnsafeBuffer frame = encode(1, new VoteResponse(1, 2, 3, true, false));
    frame.putByte(RaftMessageCodec.HEADER_BYTES + 20, (byte) 7);

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 1))
        .hasMessage("raft transport: VoteResponse from member 1 has 7 in boolean field granted")
        .extracting(e -> ((RaftProtocolException) e).kind())
        .isEqualTo(Kind.MALFORMED);
  }

  @Test
  void refusesTrailingBytesOfItsOwnVersion() {
    UnsafeBuffer frame = encode(1, new TimeoutNow(1, 2, 3));

    assertThatThrownBy(() -> codec.decode(withTrailingBytes(frame, 5), 0, frame.capacity() + 5, 1))
        .hasMessage(
            "raft transport: TimeoutNow from member 1 has 5 unexpected bytes after its end");
  }

  /** What a broker one compatible version ahead may send: a longer block, more data at the end. */
  @Test
  void readsANewerVersionThatAddedFields() {
    VoteRequest request = new VoteRequest(1, 2, 3, 4, 5, true, false);
    UnsafeBuffer current = encode(9, request);
    int header = RaftMessageCodec.HEADER_BYTES;
    int block = current.capacity() - header;
    UnsafeBuffer newer = new UnsafeBuffer(new byte[current.capacity() + 8 + 6]);
    newer.putBytes(0, current, 0, current.capacity());
    newer.putShort(0, (short) (block + 8), ByteOrder.LITTLE_ENDIAN); // blockLength
    newer.putShort(
        VERSION_OFFSET, (short) (RaftMessageCodec.SCHEMA_VERSION + 1), ByteOrder.LITTLE_ENDIAN);
    newer.putLong(header + block, 0x5555_5555_5555_5555L); // the new field

    Envelope decoded = codec.decode(newer, 0, newer.capacity(), 1);

    assertThat(decoded.partitionId()).isEqualTo(9);
    assertThat(decoded.message()).isEqualTo(request);
  }

  @Test
  void refusesABlockShorterThanItsVersionDefines() {
    UnsafeBuffer frame = encode(1, new TimeoutNow(1, 2, 3));
    frame.putShort(0, (short) 12, ByteOrder.LITTLE_ENDIAN);

    assertThatThrownBy(() -> codec.decode(frame, 0, frame.capacity(), 1))
        .hasMessage(
            "raft transport: TimeoutNow from member 1 has a 12-byte block, shorter than the 20"
                + " bytes of version "
                + RaftMessageCodec.SCHEMA_VERSION);
  }

  @Test
  void handshakeRoundTripsAndIsRequiredFirst() {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[RaftMessageCodec.handshakeLength()]);
    codec.encodeHandshake(Handshake.of(3, 5), buffer, 0);

    assertThat(codec.decodeHandshake(buffer, 0, buffer.capacity(), "peer"))
        .isEqualTo(new Handshake(3, 5, RaftMessageCodec.SCHEMA_VERSION, 1));

    UnsafeBuffer message = encode(1, new TimeoutNow(1, 2, 3));
    assertThatThrownBy(() -> codec.decodeHandshake(message, 0, message.capacity(), "/10.0.0.1:1"))
        .hasMessage(
            "raft transport: expected a handshake as the first frame from /10.0.0.1:1, got"
                + " message template 6");
    assertThatThrownBy(() -> codec.decode(buffer, 0, buffer.capacity(), 3))
        .hasMessage("raft transport: unexpected second handshake from member 3");
  }

  @Test
  void handshakeRefusesPeersOfIncompatibleVersions() {
    Handshake newer = new Handshake(3, 5, RaftMessageCodec.SCHEMA_VERSION + 3, 3);
    Handshake older = new Handshake(3, 5, 0, 0);
    Handshake compatibleNewer = new Handshake(3, 5, RaftMessageCodec.SCHEMA_VERSION + 1, 1);

    assertThatThrownBy(() -> newer.requireCompatible("/10.0.0.3:26502"))
        .hasMessage(
            "raft transport: member 3 at /10.0.0.3:26502 speaks protocol version "
                + (RaftMessageCodec.SCHEMA_VERSION + 3)
                + " and talks to version 3 or newer only; this broker speaks version "
                + RaftMessageCodec.SCHEMA_VERSION
                + "; upgrade this broker")
        .extracting(e -> ((RaftProtocolException) e).kind())
        .isEqualTo(Kind.INCOMPATIBLE_VERSION);
    assertThatThrownBy(() -> older.requireCompatible("/10.0.0.3:26502"))
        .hasMessageContaining("speaks protocol version 0, older than the oldest");
    compatibleNewer.requireCompatible("/10.0.0.3:26502");
  }

  private UnsafeBuffer encode(int partitionId, RaftMessage message) {
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[RaftMessageCodec.encodedLength(message)]);
    codec.encode(partitionId, message, buffer, 0);
    return buffer;
  }

  private static UnsafeBuffer withTrailingBytes(UnsafeBuffer frame, int extra) {
    UnsafeBuffer longer = new UnsafeBuffer(new byte[frame.capacity() + extra]);
    longer.putBytes(0, frame, 0, frame.capacity());
    return longer;
  }
}
