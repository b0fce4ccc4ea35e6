package io.tern.journal;

import java.nio.ByteBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Flushing one {@link Segment}: forcing the frames written since the last flush (and the descriptor
 * when it changed) in one msync, and the flush records kept in the descriptor (see {@link
 * SegmentDescriptor.FlushRecord}). Called under the journal's flush lock, or while the journal is
 * being opened.
 */
final class SegmentFlushes {
  private final Segment segment;
  private final UnsafeBuffer buffer;
  private final ByteBuffer view;
  private final Crc32c crc = new Crc32c();

  /** A flush record is encoded here, then written into its slot through the channel. */
  private final ByteBuffer recordView =
      ByteBuffer.allocateDirect(SegmentDescriptor.FLUSH_SLOT_LENGTH);

  private final UnsafeBuffer recordBuffer = new UnsafeBuffer(recordView);

  /** Where the frames forced so far end. */
  private int flushedPosition;

  /** The descriptor changed (started, sealed, unsealed) and the next flush must force it. */
  private volatile boolean descriptorDirty;

  private long sequence;

  SegmentFlushes(Segment segment) {
    this.segment = segment;
    this.buffer = segment.buffer();
    this.view = segment.newView();
  }

  /** A new segment: its descriptor is to be forced, it has no frames. */
  void startEmpty() {
    descriptorDirty = true;
    flushedPosition = SegmentDescriptor.LENGTH;
  }

  /** After open: the frames up to {@code position} are on disk. */
  void resumeFlushedAt(int position) {
    flushedPosition = position;
  }

  /**
   * After a crash, frames found by the open-time scan may exist only in the page cache (a killed
   * process leaves its writes there): the next flush must force all of them, not only what was
   * written since the open.
   */
  void forgetFlushed() {
    flushedPosition = SegmentDescriptor.LENGTH;
  }

  /** Frames from {@code position} on were removed: they are no longer forced. */
  void lowerFlushedPosition(int position) {
    flushedPosition = Math.min(flushedPosition, position);
  }

  /** The next flush forces the descriptor too. */
  void markDescriptorDirty() {
    descriptorDirty = true;
  }

  /**
   * Forces the frames written since the last flush, and the descriptor if it changed (or if {@code
   * withDescriptor}), in one msync.
   *
   * @return bytes in the forced ranges that were written since the last flush
   */
  long flush(boolean withDescriptor) {
    int end = segment.endPosition();
    long bytes = Math.max(0, end - flushedPosition);
    // Zeros written ahead (SegmentZeroFill#zeroAhead) go to disk in the same sync as the frames.
    int forceEnd = Math.max(end, segment.zeroFill().takeZerosToForceEnd());
    if (withDescriptor || descriptorDirty) {
      descriptorDirty = false;
      segment.force(0, forceEnd);
      bytes += SegmentDescriptor.LENGTH;
    } else if (forceEnd > flushedPosition) {
      segment.force(flushedPosition, forceEnd - flushedPosition);
    }
    flushedPosition = Math.max(flushedPosition, end);
    return bytes;
  }

  /** Bytes of published frames not yet forced. */
  int unflushedBytes() {
    return Math.max(0, segment.endPosition() - flushedPosition);
  }

  /** Writes a flush record (not forced). */
  void writeFlushRecord(long lastFlushedIndex, long confirmedIndex, boolean cleanShutdown) {
    SegmentDescriptor.FlushRecord record =
        new SegmentDescriptor.FlushRecord(
            lastFlushedIndex, confirmedIndex, ++sequence, cleanShutdown);
    int slot = SegmentDescriptor.flushSlotOffset(record.sequence());
    // Through the channel like the frames, or the descriptor page would be written through the
    // mapping on every flush and cost every flush the write-protection of mapped pages.
    SegmentDescriptor.writeFlushRecord(recordBuffer, recordView, 0, crc, record);
    segment.writeThroughChannel(slot, recordView.clear()); // all 32 bytes of the slot
  }

  /** The newest valid flush record of this segment, or null; also resumes its sequence. */
  SegmentDescriptor.FlushRecord readFlushRecord() {
    SegmentDescriptor.FlushRecord record = SegmentDescriptor.readFlushRecord(buffer, view, crc);
    if (record != null) {
      sequence = Math.max(sequence, record.sequence());
    }
    return record;
  }
}
