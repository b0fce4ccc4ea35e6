package io.tern.raft.storage;

import java.util.Arrays;

/** Runs of equal terms along the log: {@code (first index of the run, term)}, in index order. */
final class TermRuns {
  private long[] firstIndexes = new long[16];
  private long[] terms = new long[16];
  private int size;

  void clear() {
    size = 0;
  }

  /** Records that {@code index} has {@code term}; indexes must not go backwards. */
  void append(long index, long term) {
    if (size > 0) {
      if (index < firstIndexes[size - 1] || term < terms[size - 1]) {
        throw new IllegalStateException(
            "term runs out of order: " + index + "@" + term + " after " + terms[size - 1]);
      }
      if (terms[size - 1] == term) {
        return;
      }
    }
    if (size == firstIndexes.length) {
      firstIndexes = Arrays.copyOf(firstIndexes, size * 2);
      terms = Arrays.copyOf(terms, size * 2);
    }
    firstIndexes[size] = index;
    terms[size] = term;
    size++;
  }

  void truncateAfter(long index) {
    while (size > 0 && firstIndexes[size - 1] > index) {
      size--;
    }
  }

  /** The term of {@code index}, which must be at or after the first run. */
  long termAt(long index) {
    int lo = 0;
    int hi = size - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (firstIndexes[mid] <= index) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0) {
      throw new IllegalStateException("no term known for index " + index);
    }
    return terms[found];
  }

  /** The first index with a known term, or Long.MAX_VALUE if none. */
  long firstKnownIndex() {
    return size == 0 ? Long.MAX_VALUE : firstIndexes[0];
  }

  int size() {
    return size;
  }
}
