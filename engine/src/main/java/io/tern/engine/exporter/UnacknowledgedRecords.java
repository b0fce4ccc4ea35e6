package io.tern.engine.exporter;

/**
 * The records an exporter holds without having acknowledged them, as (position, timestamp) pairs in
 * log order: a ring of two primitive arrays, so that tracking costs no allocation per record. Only
 * the oldest pair is read (for the lag); acknowledging a position drops every pair at or before it.
 *
 * <p>An exporter that acknowledges rarely could hold millions of records: past {@link #MAX_RECORDS}
 * pairs, new ones are not kept. The oldest is then still right, and once those kept are
 * acknowledged the lag falls back to the next record not yet handed to the exporter, which
 * under-states it until the exporter catches up.
 */
final class UnacknowledgedRecords {
  /** The most pairs kept (16 bytes each: 16 MiB at most per exporter and partition). */
  static final int MAX_RECORDS = 1 << 20;

  private static final int INITIAL_RECORDS = 64;

  private long[] positions = new long[INITIAL_RECORDS];
  private long[] timestampsMs = new long[INITIAL_RECORDS];
  private int head;
  private int size;

  void add(long position, long timestampMs) {
    if (size == positions.length) {
      if (size == MAX_RECORDS) {
        return;
      }
      grow();
    }
    int tail = (head + size) & (positions.length - 1);
    positions[tail] = position;
    timestampsMs[tail] = timestampMs;
    size++;
  }

  /** Drops every record at or before {@code position}. */
  void acknowledge(long position) {
    while (size > 0 && positions[head] <= position) {
      head = (head + 1) & (positions.length - 1);
      size--;
    }
    if (size == 0) {
      head = 0;
    }
  }

  /** The oldest held record's timestamp, or 0 if none is held. */
  long oldestTimestampMs() {
    return size == 0 ? 0 : timestampsMs[head];
  }

  int size() {
    return size;
  }

  private void grow() {
    int capacity = positions.length * 2;
    long[] newPositions = new long[capacity];
    long[] newTimestamps = new long[capacity];
    for (int i = 0; i < size; i++) {
      int from = (head + i) & (positions.length - 1);
      newPositions[i] = positions[from];
      newTimestamps[i] = timestampsMs[from];
    }
    positions = newPositions;
    timestampsMs = newTimestamps;
    head = 0;
  }
}
