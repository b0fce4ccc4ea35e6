package io.tern.journal;

import java.nio.ByteBuffer;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.StampedLock;

/**
 * A {@link JournalReader} over a {@link SegmentedJournal}. It holds a reference to the segment it
 * is positioned in, so that segment stays mapped even if compaction deletes it meanwhile.
 *
 * <p>Reads run under an optimistic read of the journal's structure lock: a frame is returned only
 * if no truncation or compaction started while it was read and checked.
 */
final class SegmentedJournalReader implements JournalReader {
  private final SegmentedJournal journal;
  private final StampedLock lock;
  private final Crc32c crc = new Crc32c();
  private final RecordView record = new RecordView();

  private Segment segment;
  private ByteBuffer view;
  private int position;
  private long nextIndex;
  private long epoch;
  private boolean closed;

  SegmentedJournalReader(SegmentedJournal journal) {
    this.journal = journal;
    this.lock = journal.structureLock();
    seekToFirst();
  }

  @Override
  public long seek(long index) {
    ensureOpen();
    long stamp = lock.readLock();
    try {
      return seekLocked(index);
    } finally {
      lock.unlockRead(stamp);
    }
  }

  private long seekLocked(long index) {
    epoch = journal.truncations().epoch();
    long first = journal.getFirstIndex();
    long last = journal.readableLastIndex();
    long target = Math.max(first, Math.min(index, last + 1));
    if (!switchTo(journal.segmentFor(target))) {
      throw new IllegalStateException("segment deleted while the structure lock was held");
    }
    position = segment.frames().positionOf(target);
    nextIndex = target;
    return target;
  }

  @Override
  public long seekToFirst() {
    return seek(journal.getFirstIndex());
  }

  @Override
  public long seekToLast() {
    ensureOpen();
    long stamp = lock.readLock();
    try {
      return seekLocked(Math.max(journal.getFirstIndex(), journal.readableLastIndex()));
    } finally {
      lock.unlockRead(stamp);
    }
  }

  @Override
  public long seekToAsqn(long asqn) {
    ensureOpen();
    long stamp = lock.readLock();
    try {
      if (asqn >= 0) {
        for (Segment candidate : journal.segmentsDescending()) {
          long firstAsqn = candidate.frames().firstAsqn();
          if (firstAsqn != SegmentIndex.NONE && firstAsqn <= asqn) {
            long index = candidate.frames().indexOfAsqnFloor(asqn);
            assert index != SegmentIndex.NONE : "segment's first asqn qualifies";
            return seekLocked(index);
          }
        }
      }
      return seekLocked(journal.getFirstIndex());
    } finally {
      lock.unlockRead(stamp);
    }
  }

  @Override
  public long getNextIndex() {
    return nextIndex;
  }

  @Override
  public boolean hasNext() {
    ensureOpen();
    validatePosition();
    return nextIndex <= journal.readableLastIndex();
  }

  @Override
  public JournalRecord next() {
    while (true) {
      ensureOpen();
      validatePosition();
      long stamp = lock.tryOptimisticRead();
      // Checked again inside the optimistic read: a truncation or compaction may have finished
      // between validatePosition() and taking the stamp.
      if (stamp == 0
          || journal.truncations().epoch() != epoch
          || nextIndex < journal.getFirstIndex()) {
        Thread.onSpinWait();
        continue;
      }
      if (nextIndex > journal.readableLastIndex()) {
        if (lock.validate(stamp)) {
          throw new NoSuchElementException("No entry at index " + nextIndex + " yet");
        }
        continue;
      }
      int frameLength = segment.frames().readFrame(position, nextIndex, view, crc, record);
      if (frameLength == SegmentFrames.NO_FRAME) {
        Segment following = journal.segmentStartingAt(nextIndex);
        if (!lock.validate(stamp)) {
          continue;
        }
        if (following == null || following == segment) {
          throw new JournalException.CorruptedJournal(
              segment.file(), position, "entry " + nextIndex + " is missing");
        }
        if (switchTo(following)) {
          position = SegmentDescriptor.LENGTH;
        }
        continue;
      }
      if (!lock.validate(stamp)) {
        continue;
      }
      if (frameLength == SegmentFrames.INVALID_FRAME) {
        throw new JournalException.CorruptedJournal(
            segment.file(),
            position,
            segment.frames().describeInvalidFrame(position, nextIndex, view, crc));
      }
      position += frameLength;
      nextIndex++;
      return record;
    }
  }

  /**
   * After a truncation, either re-seeks (nothing this reader returned was removed) or reports the
   * position as deleted. After compaction past the reader, reports it as deleted.
   */
  private void validatePosition() {
    long currentEpoch = journal.truncations().epoch();
    if (currentEpoch != epoch) {
      long stamp = lock.readLock();
      try {
        long lowest = journal.truncations().lowestTruncationSince(epoch);
        if (lowest == TruncationHistory.UNKNOWN || nextIndex - 1 > lowest) {
          throw new JournalException.PositionDeleted(
              "Entries this reader returned (up to "
                  + (nextIndex - 1)
                  + ") were removed by truncation"
                  + (lowest == TruncationHistory.UNKNOWN ? "" : " after index " + lowest)
                  + "; seek again");
        }
        if (nextIndex >= journal.getFirstIndex()) {
          seekLocked(nextIndex);
        }
      } finally {
        lock.unlockRead(stamp);
      }
    }
    if (nextIndex < journal.getFirstIndex()) {
      throw new JournalException.PositionDeleted(
          "Reader at index "
              + nextIndex
              + " is on a compacted range: the journal now starts at "
              + journal.getFirstIndex()
              + "; seek again");
    }
  }

  private boolean switchTo(Segment target) {
    if (target == segment) {
      return true;
    }
    if (!target.retain()) {
      return false;
    }
    if (segment != null) {
      segment.release();
    }
    segment = target;
    view = target.newView();
    return true;
  }

  private void ensureOpen() {
    if (closed) {
      throw new JournalException.Closed("Journal reader");
    }
    if (journal.isClosed()) {
      throw new JournalException.Closed("Journal " + journal.config().directory());
    }
  }

  @Override
  public String toString() {
    return "Reader{segment="
        + segment
        + ", position="
        + position
        + ", nextIndex="
        + nextIndex
        + ", epoch="
        + epoch
        + "}";
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (segment != null) {
      segment.release();
      segment = null;
    }
  }
}
