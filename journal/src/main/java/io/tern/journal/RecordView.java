package io.tern.journal;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Reusable zero-copy view of one frame; each reader owns one. */
final class RecordView implements JournalRecord {
  private final UnsafeBuffer data = new UnsafeBuffer(0, 0);
  private long index;
  private long asqn;
  private int checksum;

  void wrap(long index, long asqn, int checksum, long dataAddress, int length) {
    this.index = index;
    this.asqn = asqn;
    this.checksum = checksum;
    data.wrap(dataAddress, length);
  }

  @Override
  public long index() {
    return index;
  }

  @Override
  public long asqn() {
    return asqn;
  }

  @Override
  public int checksum() {
    return checksum;
  }

  @Override
  public DirectBuffer data() {
    return data;
  }

  @Override
  public String toString() {
    return "JournalRecord{index=" + index + ", asqn=" + asqn + ", length=" + data.capacity() + "}";
  }
}
