package io.tern.raft.transport;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The transport's wire format for tests that play a peer over a plain socket. */
final class WireFrames {
  private WireFrames() {}

  /** A 4-byte little-endian length, then the message. */
  static byte[] frame(byte[] message) {
    return ByteBuffer.allocate(4 + message.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putInt(message.length)
        .put(message)
        .array();
  }

  static byte[] readFrame(InputStream in) throws IOException {
    DataInputStream data = new DataInputStream(in);
    int length = Integer.reverseBytes(data.readInt());
    byte[] message = new byte[length];
    data.readFully(message);
    return message;
  }
}
