package io.tern.journal;

import java.util.Arrays;

/**
 * Sparse index of one segment: for every {@code density}-th entry (counted from the segment's first
 * entry, which is always indexed) it keeps the entry's position, and the last asqn (and its entry's
 * index) among the segment's entries up to and including it. Seeks start at the closest point at or
 * before the target and step over at most {@code density - 1} frames.
 *
 * <p>Synchronized: the writer adds points while readers look them up. Both are rare (one add per
 * {@code density} appends, lookups only on seek), so a monitor costs nothing measurable.
 */
final class SegmentIndex {
  static final long NONE = -1;
  private static final int INITIAL_CAPACITY = 64;

  private final long firstIndex;
  private final int density;
  private long[] indexes = new long[INITIAL_CAPACITY];
  private int[] positions = new int[INITIAL_CAPACITY];
  private long[] asqnsUpTo = new long[INITIAL_CAPACITY];
  private long[] asqnIndexesUpTo = new long[INITIAL_CAPACITY];
  private int size;

  SegmentIndex(long firstIndex, int density) {
    this.firstIndex = firstIndex;
    this.density = density;
  }

  boolean isPoint(long index) {
    return (index - firstIndex) % density == 0;
  }

  synchronized void add(long index, int position, long asqnUpTo, long asqnIndexUpTo) {
    assert isPoint(index) : "not an index point: " + index;
    assert size == 0 || indexes[size - 1] < index : "index points out of order at " + index;
    if (size == indexes.length) {
      int capacity = size * 2;
      indexes = Arrays.copyOf(indexes, capacity);
      positions = Arrays.copyOf(positions, capacity);
      asqnsUpTo = Arrays.copyOf(asqnsUpTo, capacity);
      asqnIndexesUpTo = Arrays.copyOf(asqnIndexesUpTo, capacity);
    }
    indexes[size] = index;
    positions[size] = position;
    asqnsUpTo[size] = asqnUpTo;
    asqnIndexesUpTo[size] = asqnIndexUpTo;
    size++;
  }

  /** Drops every point above {@code index}. */
  synchronized void truncateAfter(long index) {
    while (size > 0 && indexes[size - 1] > index) {
      size--;
    }
  }

  synchronized void clear() {
    size = 0;
  }

  /** The point with the largest index that is {@code <= index}, or null when there is none. */
  synchronized Point floor(long index) {
    int lo = 0;
    int hi = size - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (indexes[mid] <= index) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found < 0 ? null : point(found);
  }

  /**
   * The last point at or below entry {@code maxIndex} whose asqn-up-to is {@code <= asqn} (points
   * with no asqn yet count as below), or null when there is none. The bound keeps out points of
   * entries the writer has staged but not yet published.
   */
  synchronized Point floorByAsqn(long asqn, long maxIndex) {
    int lo = 0;
    int hi = size - 1;
    while (hi >= 0 && indexes[hi] > maxIndex) {
      hi--; // at most the few points of one unpublished staging buffer
    }
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (asqnsUpTo[mid] <= asqn) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found < 0 ? null : point(found);
  }

  synchronized int size() {
    return size;
  }

  private Point point(int slot) {
    return new Point(indexes[slot], positions[slot], asqnsUpTo[slot], asqnIndexesUpTo[slot]);
  }

  /** One index point; allocated only on seeks. */
  record Point(long index, int position, long asqnUpTo, long asqnIndexUpTo) {}
}
