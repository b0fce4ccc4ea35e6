package io.tern.raft.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a peer's queued messages reach its connection: a batch of frames encoded into one buffer and
 * flushed once, so that TLS wraps it as one record rather than one per message.
 */
class PeerLinkBatchingTest {
  private static final int LOCAL = 2;
  private static final int PEER = 1; // lower id: this side accepts, so the link never dials

  private final WriteCounter counter = new WriteCounter();
  private final EmbeddedChannel channel = new EmbeddedChannel(counter);
  private final TransportMetrics metrics =
      new TransportMetrics(new SimpleMeterRegistry(), Tags.empty(), LOCAL);
  private final PeerLink link =
      new PeerLink(
          PEER,
          new InetSocketAddress("127.0.0.1", 1),
          TransportConfig.builder(LOCAL).build(),
          channel.eventLoop(),
          new Bootstrap(),
          l -> null,
          metrics);

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    metrics.close();
  }

  @Test
  void messagesQueuedTogetherLeaveAsOneBufferAndOneFlush() {
    List<RaftMessage> sent = new ArrayList<>();
    for (int term = 1; term <= 20; term++) {
      sent.add(new VoteResponse(LOCAL, PEER, term, true, false));
    }
    sent.forEach(m -> assertThat(link.offer(3, m, frameBytes(m))).isTrue());

    link.attach(channel); // connected with the messages waiting: one drain takes them all
    channel.runPendingTasks();

    assertThat(counter.writes).isEqualTo(1);
    assertThat(counter.flushes).isEqualTo(1);
    assertThat(decodeAll()).containsExactlyElementsOf(terms(sent));
  }

  @Test
  void aBufferHoldsAtMostTheCoalescingLimitAndALargerFrameGoesAlone() {
    int big = PeerLink.MAX_COALESCED_BYTES; // with its header, more than one buffer takes
    List<RaftMessage> sent =
        List.of(
            new VoteResponse(LOCAL, PEER, 1, true, false),
            append(2, big),
            new VoteResponse(LOCAL, PEER, 3, true, false),
            append(4, big / 3),
            append(5, big / 3),
            append(6, big / 3));
    sent.forEach(m -> assertThat(link.offer(1, m, frameBytes(m))).isTrue());
    // As the transport's connections: the whole batch fits before the channel turns unwritable.
    channel
        .config()
        .setWriteBufferWaterMark(
            new WriteBufferWaterMark(
                NettyRaftTransport.WRITE_BUFFER_LOW_WATER_MARK_BYTES,
                NettyRaftTransport.WRITE_BUFFER_HIGH_WATER_MARK_BYTES));

    link.attach(channel);
    channel.runPendingTasks();

    // [vote], [big], [vote, a third, a third], [a third]: one flush for the batch.
    assertThat(counter.sizes)
        .hasSize(4)
        .allMatch(size -> size <= PeerLink.MAX_COALESCED_BYTES || size == frameBytes(sent.get(1)));
    assertThat(counter.flushes).isEqualTo(1);
    assertThat(decodeAll()).containsExactlyElementsOf(terms(sent));
  }

  private static AppendRequest append(long term, int payloadBytes) {
    return new AppendRequest(
        LOCAL,
        PEER,
        term,
        0,
        0,
        List.of(new RaftEntry(1, term, RaftEntry.Type.APPLICATION, 1, new byte[payloadBytes])),
        0);
  }

  private static int frameBytes(RaftMessage message) {
    return NettyRaftTransport.LENGTH_PREFIX_BYTES + RaftMessageCodec.encodedLength(message);
  }

  private static List<String> terms(List<RaftMessage> messages) {
    return messages.stream().map(m -> m.getClass().getSimpleName() + " " + m.term()).toList();
  }

  /** Every frame written to the channel, decoded: each message's type and term, in order. */
  private List<String> decodeAll() {
    ByteBuf all = Unpooled.buffer();
    for (ByteBuf written; (written = channel.readOutbound()) != null; ) {
      all.writeBytes(written);
      written.release();
    }
    RaftMessageCodec codec = new RaftMessageCodec();
    List<RaftMessage> messages = new ArrayList<>();
    while (all.isReadable()) {
      int length = all.readIntLE();
      ByteBuf frame = all.readRetainedSlice(length);
      try {
        messages.add(codec.decode(frame, PEER).message());
      } finally {
        frame.release();
      }
    }
    List<String> decoded = terms(messages);
    messages.forEach(RaftMessage::release);
    all.release();
    return decoded;
  }

  /** Counts what goes down the pipeline. */
  private static final class WriteCounter extends ChannelOutboundHandlerAdapter {
    int writes;
    int flushes;
    final List<Integer> sizes = new ArrayList<>();

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
      writes++;
      sizes.add(((ByteBuf) msg).readableBytes());
      ctx.write(msg, promise);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
      flushes++;
      ctx.flush();
    }
  }
}
