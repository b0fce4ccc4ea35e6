package io.tern.benchmark.journal;

import io.tern.benchmark.common.DurableWrites;
import io.tern.benchmark.common.LatencySummary;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Phase 2 for one entry size: the journal's append+flush and its raw limits take turns in short
 * blocks of operations on files open side by side, each block starting with the next side, so that
 * all of them meet the same state of the disk.
 *
 * <p>Why not one measurement after the other: on a small VM the latency of a write+fdatasync moves
 * between levels for seconds at a time. Measured one after the other, the journal could meet one
 * level and its limit the other, and even rounds of a few seconds, side by side and alternated,
 * disagree with each other; short alternating blocks let both sides meet the same levels.
 */
final class InterleavedFlushLatency {
  /** Operations per side and turn: a few milliseconds, far shorter than the disk's swings. */
  static final int OPERATIONS_PER_TURN = 16;

  private InterleavedFlushLatency() {}

  /**
   * Each side's latencies, in the order the sides were given. Every side gets {@code warmupNs} of
   * warm-up (in turns too) and {@code durationNs} is shared by all.
   *
   * @throws IllegalStateException if a side was full before the measurement began
   */
  static List<LatencySummary> measure(
      List<DurableWrites> sides, long warmupNs, long durationNs, int maxSamplesPerSide)
      throws IOException {
    int count = sides.size();
    List<int[]> orders = orders(count);
    List<Histogram> histograms = new ArrayList<>(count);
    long[] elapsedNs = new long[count];
    for (int i = 0; i < count; i++) {
      histograms.add(LatencySummary.newHistogram());
    }
    int turn = 0;
    long warmupEndNs = System.nanoTime() + warmupNs * count;
    while (System.nanoTime() < warmupEndNs) {
      for (int index : orders.get(turn++ % orders.size())) {
        DurableWrites side = sides.get(index);
        for (int op = 0; op < OPERATIONS_PER_TURN && !side.isFull(); op++) {
          side.writeDurably();
        }
      }
    }
    for (int i = 0; i < count; i++) {
      if (sides.get(i).isFull()) {
        throw new IllegalStateException("Side " + i + " of the latency phase filled up in warm-up");
      }
    }
    long endNs = System.nanoTime() + durationNs;
    boolean more = true;
    while (more && System.nanoTime() < endNs) {
      for (int index : orders.get(turn++ % orders.size())) {
        DurableWrites side = sides.get(index);
        Histogram histogram = histograms.get(index);
        long nowNs = System.nanoTime();
        long turnStartNs = nowNs;
        for (int op = 0; op < OPERATIONS_PER_TURN; op++) {
          if (side.isFull() || histogram.getTotalCount() >= maxSamplesPerSide) {
            more = false; // every side stops together, so none is measured alone at the end
            break;
          }
          side.writeDurably();
          long doneNs = System.nanoTime();
          LatencySummary.record(histogram, doneNs - nowNs);
          nowNs = doneNs;
        }
        elapsedNs[index] += nowNs - turnStartNs;
      }
    }
    List<LatencySummary> summaries = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      summaries.add(LatencySummary.of(histograms.get(i), elapsedNs[i]));
    }
    return summaries;
  }

  /**
   * Every order of {@code count} sides, used in turn, so that each side follows each other side
   * (and the file it just synced) equally often.
   */
  static List<int[]> orders(int count) {
    List<int[]> orders = new ArrayList<>();
    permute(new int[count], new boolean[count], 0, orders);
    return orders;
  }

  private static void permute(int[] order, boolean[] used, int position, List<int[]> into) {
    if (position == order.length) {
      into.add(order.clone());
      return;
    }
    for (int side = 0; side < order.length; side++) {
      if (!used[side]) {
        used[side] = true;
        order[position] = side;
        permute(order, used, position + 1, into);
        used[side] = false;
      }
    }
  }
}
