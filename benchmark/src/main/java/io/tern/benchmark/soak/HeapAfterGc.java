package io.tern.benchmark.soak;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/** This process' heap left by the latest collection of each heap pool: the soak client's own. */
final class HeapAfterGc {
  private HeapAfterGc() {}

  static double megabytes() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
      if (afterGc != null) {
        used += afterGc.getUsed();
      }
    }
    return used / (1024.0 * 1024.0);
  }
}
