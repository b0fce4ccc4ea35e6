package io.tern.benchmark.common;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One page-aligned block of random bytes, seen both as an {@link UnsafeBuffer} (journal appends)
 * and a direct {@link ByteBuffer} (raw FileChannel writes, which copy from direct memory without an
 * intermediate buffer). Random content keeps any compression or deduplication below the file system
 * from flattering the figures.
 */
public final class Payload {
  /** Largest raw write block; also big enough for every entry size. */
  public static final int CAPACITY_BYTES = 1024 * 1024;

  private static final int PAGE_BYTES = 4096;

  private final ByteBuffer byteBuffer;
  private final UnsafeBuffer buffer;

  public Payload(long seed) {
    byteBuffer = BufferUtil.allocateDirectAligned(CAPACITY_BYTES, PAGE_BYTES);
    buffer = new UnsafeBuffer(byteBuffer);
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < CAPACITY_BYTES; i += Long.BYTES) {
      buffer.putLong(i, random.nextLong());
    }
  }

  public UnsafeBuffer buffer() {
    return buffer;
  }

  /**
   * A view of the first {@code lengthBytes}, positioned for one write. Callers keep their own view
   * (a ByteBuffer's position is mutable state) and reset it with {@link #rewind(ByteBuffer, int)}.
   */
  public ByteBuffer newView(int lengthBytes) {
    ByteBuffer view = byteBuffer.duplicate();
    rewind(view, lengthBytes);
    return view;
  }

  public static void rewind(ByteBuffer view, int lengthBytes) {
    view.limit(lengthBytes).position(0);
  }
}
