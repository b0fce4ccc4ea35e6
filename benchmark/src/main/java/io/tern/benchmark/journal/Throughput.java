package io.tern.benchmark.journal;

/**
 * Entries and payload bytes moved in a measured time. MB are decimal (10^6 bytes), as disk vendors
 * and the targets ("1 GB/s") count them.
 */
record Throughput(long entries, long bytes, long elapsedNs) {

  double entriesPerS() {
    return entries / seconds();
  }

  double throughputMbPerS() {
    return bytes / 1e6 / seconds();
  }

  double seconds() {
    return Math.max(elapsedNs, 1) / 1e9;
  }
}
