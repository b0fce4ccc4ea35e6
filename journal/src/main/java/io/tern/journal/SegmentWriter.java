package io.tern.journal;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The writer's side of one {@link Segment}: appends frames, publishes them, seals the segment when
 * the journal rolls past it and truncates it. Writer thread only, except {@link #truncateAfter},
 * which the journal calls with its structure and flush locks held.
 *
 * <p>A frame is assembled in the journal's {@link FrameStaging} and published by {@link
 * #writeStaged}, which writes the staged frames with one positional write; the mapping is only
 * read.
 */
final class SegmentWriter {
  private final Segment segment;
  private final UnsafeBuffer buffer;
  private final ByteBuffer view;
  private final Crc32c crc = new Crc32c();

  private long lastAsqn = SegmentIndex.NONE;
  private long lastAsqnIndex = SegmentIndex.NONE;

  /**
   * Where the writer's frames end and the last of them, including frames still held in the
   * journal's {@link FrameStaging}; the segment's published end trails them until {@link
   * #writeStaged} publishes those frames.
   */
  private int appendPosition = SegmentDescriptor.LENGTH;

  private long appendLastIndex;

  /** Position of the first frame in the staging buffer; meaningful while it holds frames. */
  private int stagedFrom;

  SegmentWriter(Segment segment) {
    this.segment = segment;
    this.buffer = segment.buffer();
    this.view = segment.newView();
    this.appendLastIndex = segment.firstIndex() - 1;
  }

  /**
   * Stages one frame, copying from {@code src} or letting {@code writer} serialize into the staging
   * buffer.
   *
   * @param staging the journal's staging buffer
   * @return false when the frame does not fit in the rest of this segment
   */
  boolean append(
      long entryIndex,
      long asqn,
      DirectBuffer src,
      int srcOffset,
      int length,
      Journal.EntryWriter writer,
      FrameStaging staging) {
    assert entryIndex == appendLastIndex + 1
        : "expected index " + (appendLastIndex + 1) + ": " + entryIndex;
    assert segment.isRetained() && !segment.isDeleted() : "append to released " + segment;
    int position = appendPosition;
    int frameLength = FrameLayout.frameLength(length);
    if ((long) position + frameLength > segment.sizeBytes()) {
      return false;
    }
    ZeroFillFence fence = segment.zeroFill().startedFence();
    if (fence != null) {
      fence.beforeWrite(position + frameLength);
    }
    if (!staging.hasRoomFor(frameLength)) {
      writeStaged(staging);
      staging.growFor(frameLength);
    }
    if (staging.isEmpty()) {
      stagedFrom = position;
    }
    staging.add(entryIndex, asqn, src, srcOffset, length, writer);
    onFrameAppended(entryIndex, asqn, position, frameLength);
    return true;
  }

  /**
   * Writes the frames held in {@code staging} (all of this segment's, appended last) to the file
   * and publishes them to readers and the flusher.
   */
  void writeStaged(FrameStaging staging) {
    if (!staging.isEmpty()) {
      segment.writeThroughChannel(stagedFrom, staging.frames());
      staging.clear();
      segment.publish(appendPosition, appendLastIndex);
    }
  }

  private void onFrameAppended(long entryIndex, long asqn, int position, int frameLength) {
    if (asqn != Journal.ASQN_IGNORE) {
      lastAsqn = asqn;
      lastAsqnIndex = entryIndex;
    }
    SegmentIndex index = segment.index();
    if (index.isPoint(entryIndex)) {
      index.add(entryIndex, position, lastAsqn, lastAsqnIndex);
    }
    appendPosition = position + frameLength;
    appendLastIndex = entryIndex;
  }

  /** Where the writer's frames end, staged ones included. */
  int appendPosition() {
    return appendPosition;
  }

  /** Sets where frames end, for the writer and readers alike (nothing is staged). */
  void setEnd(int position, long lastIndex) {
    appendPosition = position;
    appendLastIndex = lastIndex;
    segment.publish(position, lastIndex);
  }

  /**
   * Resumes after open: frames end at {@code position}, the last being {@code lastIndex}; the last
   * asqn among them is {@code lastAsqn}, in entry {@code lastAsqnIndex} ({@link SegmentIndex#NONE}
   * if not known).
   */
  void resume(int position, long lastIndex, long lastAsqn, long lastAsqnIndex) {
    setEnd(position, lastIndex);
    this.lastAsqn = lastAsqn;
    this.lastAsqnIndex = lastAsqnIndex;
  }

  /** Records where the writer stopped; open uses it to skip scanning this segment. */
  void seal() {
    assert appendLastIndex == segment.lastIndex() : "sealing " + segment + " with staged frames";
    SegmentDescriptor.writeHint(
        buffer, view, crc, segment.lastIndex(), segment.endPosition(), lastAsqn);
    segment.flushes().markDescriptorDirty();
  }

  /**
   * Clears the hint of a segment that stays (or becomes again) the writer's: after a roll that
   * failed to create the next segment, or at open. A stale hint that reached the disk next to a
   * flush record vouching for later entries of this segment would make the next open trust it and
   * lose them. The next flush forces the descriptor.
   */
  void unseal() {
    if (SegmentDescriptor.hintLastIndex(buffer, view, crc) != SegmentDescriptor.NO_HINT) {
      SegmentDescriptor.clearHint(buffer);
      segment.flushes().markDescriptorDirty();
    }
  }

  /**
   * Removes the frames after {@code afterIndex}: zeroes them (keeping the invariant that bytes
   * after the last frame are zero, so no stale frame can reappear) and forces the change to disk.
   * Clears the hint: the segment becomes the writer's segment again.
   */
  void truncateAfter(long afterIndex) {
    long lastIndex = segment.lastIndex();
    assert afterIndex >= segment.firstIndex() - 1 && afterIndex <= lastIndex;
    assert appendLastIndex == lastIndex : "truncating " + segment + " with frames still staged";
    segment.recovery().ensureIndexed();
    if (afterIndex == lastIndex) {
      SegmentDescriptor.clearHint(buffer);
      segment.force(0, SegmentDescriptor.LENGTH);
      return;
    }
    int from =
        afterIndex < segment.firstIndex()
            ? SegmentDescriptor.LENGTH
            : segment.frames().positionAfter(afterIndex);
    int to = segment.endPosition();
    buffer.setMemory(from, to - from, (byte) 0);
    SegmentDescriptor.clearHint(buffer);
    segment.force(0, to);
    segment.index().truncateAfter(afterIndex);
    setEnd(from, afterIndex);
    segment.flushes().lowerFlushedPosition(from);
    recomputeLastAsqn();
  }

  /**
   * Recomputes the last asqn and its index by scanning; needed when the segment becomes the
   * writer's again after it was opened from its hint.
   */
  void recomputeLastAsqn() {
    long[] asqnAndIndex = segment.frames().lastAsqnUpTo(segment.lastIndex());
    lastAsqn = asqnAndIndex[0];
    lastAsqnIndex = asqnAndIndex[1];
  }

  /** The last asqn in this segment. {@link SegmentIndex#NONE} if none. */
  long lastAsqn() {
    return lastAsqn;
  }
}
