package io.tern.raft.transport;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Points an Agrona buffer at a byte range of a Netty buffer, so SBE reads and writes in place. */
final class ByteBufViews {
  private ByteBufViews() {}

  /** {@code view} covers bytes {@code [index, index + length)} of {@code buf}, with no copy. */
  static void wrap(UnsafeBuffer view, ByteBuf buf, int index, int length) {
    if (buf.hasMemoryAddress()) {
      view.wrap(buf.memoryAddress() + index, length);
    } else if (buf.hasArray()) {
      view.wrap(buf.array(), buf.arrayOffset() + index, length);
    } else if (buf.nioBufferCount() == 1) {
      // Direct memory without Netty's Unsafe (the default on JDK 24+): Agrona finds the address.
      ByteBuffer nio = buf.nioBuffer(index, length);
      view.wrap(nio, nio.position(), length);
    } else {
      throw new IllegalArgumentException(
          "raft transport: need a contiguous buffer, got one of "
              + buf.nioBufferCount()
              + " segments");
    }
  }
}
