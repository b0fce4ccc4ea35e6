package io.tern.benchmark.machine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
  private static volatile byte[] sink;

  @Test
  void countsTheBytesAllocatedByThreadsThatEndedToo() throws Exception {
    long before = ProcessCpu.allocatedBytes();
    assertTrue(before >= 0, "HotSpot reports allocation");
    Thread allocator =
        new Thread(
            () -> {
              for (int i = 0; i < 16; i++) {
                sink = new byte[1 << 20];
              }
            });
    allocator.start();
    allocator.join();
    for (int i = 0; i < 16; i++) {
      sink = new byte[1 << 20];
    }

    long allocated = ProcessCpu.allocatedBytes() - before;
    assertTrue(
        allocated >= 32L << 20, "allocated " + allocated + " bytes, expected 32 MiB or more");
  }
}
