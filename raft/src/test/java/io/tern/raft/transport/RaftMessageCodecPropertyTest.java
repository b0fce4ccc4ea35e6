package io.tern.raft.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.agrona.ExpandableArrayBuffer;

/**
 * Any well-formed message of any type survives encode and decode, through Agrona and Netty buffers
 * alike; any message breaking one of {@link MessageRules} is refused as malformed, naming the rule.
 */
class RaftMessageCodecPropertyTest {
  private final RaftMessageCodec codec = new RaftMessageCodec();

  @Property(tries = 300)
  void roundTrips(@ForAll int partitionId, @ForAll("messages") RaftMessage raw) {
    RaftMessage message = WellFormed.repair(raw);
    assertThat(MessageRules.violation(message)).isNull();
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
    int length = codec.encode(partitionId, message, buffer, 3);
    assertThat(length).isEqualTo(RaftMessageCodec.encodedLength(message));
    assertRoundTrip(partitionId, message, codec.decode(buffer, 3, length, message.from()));

    ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer(8);
    try {
      codec.encode(partitionId, message, buf);
      assertRoundTrip(partitionId, message, codec.decode(buf, message.from()));
    } finally {
      buf.release();
    }
  }

  @Property(tries = 300)
  void aMessageBreakingARuleIsRefusedAsMalformed(
      @ForAll int partitionId, @ForAll("messages") RaftMessage message) {
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
    int length = codec.encode(partitionId, message, buffer, 0);
    String violation = MessageRules.violation(message);
    Throwable thrown = catchThrowable(() -> codec.decode(buffer, 0, length, message.from()));
    if (violation == null) {
      assertThat(thrown).isNull();
    } else {
      assertThat(thrown)
          .isInstanceOfSatisfying(
              RaftProtocolException.class,
              e -> assertThat(e.kind()).isEqualTo(RaftProtocolException.Kind.MALFORMED))
          .hasMessageContaining(violation)
          .hasMessageContaining("member " + message.from());
    }
  }

  private static void assertRoundTrip(int partitionId, RaftMessage message, Envelope decoded) {
    assertThat(decoded.partitionId()).isEqualTo(partitionId);
    Messages.assertSameMessage(decoded.message(), message);
  }

  @Provide
  Arbitrary<RaftMessage> messages() {
    Arbitrary<Integer> member = Arbitraries.integers();
    Arbitrary<Long> number = Arbitraries.longs();
    Arbitrary<Boolean> flag = Arbitraries.of(true, false);
    Arbitrary<RaftEntry> entry =
        Combinators.combine(
                number,
                number,
                Arbitraries.of(RaftEntry.Type.class),
                number,
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300))
            .as(RaftEntry::new);
    Arbitrary<RaftMessage> appendRequest =
        Combinators.combine(
                member, member, number, number, number, entry.list().ofMaxSize(20), number)
            .as(AppendRequest::new);
    Arbitrary<RaftMessage> appendResponse =
        Combinators.combine(member, member, number, flag, number, number).as(AppendResponse::new);
    Arbitrary<RaftMessage> voteRequest =
        Combinators.combine(member, member, number, number, number, flag, flag)
            .as(VoteRequest::new);
    Arbitrary<RaftMessage> voteResponse =
        Combinators.combine(member, member, number, flag, flag).as(VoteResponse::new);
    Arbitrary<RaftMessage> timeoutNow =
        Combinators.combine(member, member, number).as(TimeoutNow::new);
    Arbitrary<RaftMessage> snapshotResponse =
        Combinators.combine(member, member, number, number, Arbitraries.integers(), flag)
            .as(SnapshotResponse::new);
    return Arbitraries.oneOf(
        appendRequest,
        appendResponse,
        voteRequest,
        voteResponse,
        timeoutNow,
        snapshotChunks(member, number),
        snapshotResponse);
  }

  private static Arbitrary<RaftMessage> snapshotChunks(
      Arbitrary<Integer> member, Arbitrary<Long> number) {
    Arbitrary<Tuple.Tuple6<Integer, Integer, Long, Long, Long, Long>> head =
        Combinators.combine(member, member, number, number, number, number).as(Tuple::of);
    Arbitrary<Tuple.Tuple6<Integer, Integer, String, Long, byte[], Integer>> tail =
        Combinators.combine(
                Arbitraries.integers(),
                Arbitraries.integers(),
                // Below the surrogates: an unpaired one has no UTF-8 form.
                Arbitraries.strings().withCharRange(' ', '\uD7FF').ofMaxLength(100),
                number,
                Arbitraries.bytes().array(byte[].class).ofMaxSize(2000),
                Arbitraries.integers())
            .as(Tuple::of);
    return Combinators.combine(head, tail)
        .as(
            (h, t) ->
                new SnapshotChunk(
                    h.get1(), h.get2(), h.get3(), h.get4(), h.get5(), h.get6(), t.get1(), t.get2(),
                    t.get3(), t.get4(), t.get5(), t.get6()));
  }
}
