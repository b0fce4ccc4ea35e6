package io.tern.benchmark.common;

import java.io.IOException;

/** One side of the append+flush latency phase: something that makes one entry durable per call. */
public interface DurableWrites extends AutoCloseable {
  /** Writes the next entry and returns once it is durable. */
  void writeDurably() throws IOException;

  /** True when no further entry fits without changing what is measured. */
  boolean isFull();

  @Override
  void close() throws IOException;
}
