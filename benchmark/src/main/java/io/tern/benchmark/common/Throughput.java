package io.tern.benchmark.common;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Entries and payload bytes moved in a measured time. MB are decimal (10^6 bytes), as disk vendors
 * and the targets ("1 GB/s") count them.
 */
public record Throughput(long entries, long bytes, long elapsedNs) {

  public double entriesPerS() {
    return entries / seconds();
  }

  public double throughputMbPerS() {
    return bytes / 1e6 / seconds();
  }

  /** The measurement with the median throughput; {@code rounds} is not empty. */
  public static Throughput median(Throughput[] rounds) {
    Throughput[] sorted = rounds.clone();
    Arrays.sort(sorted, Comparator.comparingDouble(Throughput::throughputMbPerS));
    return sorted[(sorted.length - 1) / 2];
  }

  public double seconds() {
    return Math.max(elapsedNs, 1) / 1e9;
  }
}
