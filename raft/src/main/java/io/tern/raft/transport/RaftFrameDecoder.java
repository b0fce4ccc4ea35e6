package io.tern.raft.transport;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteOrder;

/**
 * Splits the stream into length-prefixed frames. Until the handshake has named a known peer, a
 * frame may be at most {@link #HANDSHAKE_FRAME_BYTES}: anyone can open a connection, and without
 * this a stranger could make the broker buffer a full {@code maxFrameBytes} (4 MiB by default) per
 * connection before saying who it is. After the handshake the transport's {@code maxFrameBytes}
 * applies.
 */
final class RaftFrameDecoder extends LengthFieldBasedFrameDecoder {
  /**
   * Room for a handshake of this version and of newer ones that add fields, with space to spare.
   */
  static final int HANDSHAKE_FRAME_BYTES = TransportConfig.MIN_MAX_FRAME_BYTES;

  /** The first byte of a TLS connection (a handshake record), read here as part of a length. */
  private static final byte TLS_HANDSHAKE_RECORD = 0x16;

  private boolean handshakeDone;

  RaftFrameDecoder(int maxFrameBytes) {
    super(
        ByteOrder.LITTLE_ENDIAN,
        maxFrameBytes,
        0,
        NettyRaftTransport.LENGTH_PREFIX_BYTES,
        0,
        NettyRaftTransport.LENGTH_PREFIX_BYTES,
        true);
  }

  /** The peer is known: frames up to {@code maxFrameBytes} from now on. */
  void handshakeDone() {
    handshakeDone = true;
  }

  @Override
  protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
    // Read here rather than by the superclass, which wraps the buffer in a new byte-order view for
    // every frame.
    long frameLength = buf.getUnsignedIntLE(offset);
    if (!handshakeDone && frameLength + length > HANDSHAKE_FRAME_BYTES) {
      if (buf.getByte(offset) == TLS_HANDSHAKE_RECORD) {
        throw new TooLongFrameException(
            "a TLS handshake where a Raft handshake was expected: the peer uses TLS and this"
                + " broker does not (enable it on every broker or on none)");
      }
      throw new TooLongFrameException(
          "a frame of "
              + (frameLength + length)
              + " bytes before the handshake, above the "
              + HANDSHAKE_FRAME_BYTES
              + " allowed until the peer has said who it is");
    }
    return frameLength;
  }
}
