package io.tern.journal;

import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens the segments of an existing journal and recovers from a crash.
 *
 * <p>Rules: entries at or below the last flushed index (from {@link MetaStore}) must be intact;
 * anything wrong there is a {@link JournalException.CorruptedJournal} naming the file and offset.
 * Beyond it, the first missing or invalid frame ends the journal: the torn tail is zeroed, later
 * segments are deleted, and a warning is logged.
 */
final class JournalLoader {
  private static final Logger LOG = LoggerFactory.getLogger(JournalLoader.class);

  private final JournalConfig config;
  private final SegmentFiles files;
  private final long lastFlushedIndex;
  private final boolean crashed;

  JournalLoader(JournalConfig config, SegmentFiles files, long lastFlushedIndex, boolean crashed) {
    this.config = config;
    this.files = files;
    this.lastFlushedIndex = lastFlushedIndex;
    this.crashed = crashed;
  }

  /** Loads the segments in index order; empty if the directory holds none. */
  List<Segment> load() {
    TreeMap<Long, Path> paths = files.listSegments();
    List<Segment> segments = new ArrayList<>();
    boolean cut = false;
    for (Map.Entry<Long, Path> entry : paths.entrySet()) {
      Path path = entry.getValue();
      if (cut) {
        LOG.warn("Deleting journal segment {}: it follows a torn tail that was cut off", path);
        files.delete(path);
        continue;
      }
      boolean isLast = entry.getKey().equals(paths.lastKey());
      Segment previous = segments.isEmpty() ? null : segments.get(segments.size() - 1);
      Segment segment = openSegment(entry.getKey(), path, previous, isLast);
      if (segment == null) {
        continue;
      }
      segments.add(segment);
      cut = recover(segment, previous, isLast);
    }
    if (cut || crashed) {
      files.syncDirectory();
    }
    return segments;
  }

  /** Maps and checks the descriptor; returns null for a file that never became a segment. */
  private Segment openSegment(long id, Path path, Segment previous, boolean isLast) {
    long fileSize = size(path);
    if (fileSize < SegmentDescriptor.LENGTH || fileSize > JournalConfig.MAX_SEGMENT_SIZE_BYTES) {
      return discardOrFail(path, previous, isLast, "file size " + fileSize + " is not valid");
    }
    MappedByteBuffer mapped = Segment.map(path, (int) fileSize);
    UnsafeBuffer buffer = new UnsafeBuffer(mapped);
    if (SegmentDescriptor.version(buffer) == 0 && isLast) {
      // Renamed from the spare, but the crash came before its descriptor was written.
      IoUtil.unmap(mapped);
      LOG.info("Deleting journal segment {}: it was never started", path);
      files.delete(path);
      return null;
    }
    String problem = null;
    if (!SegmentDescriptor.isValid(buffer, mapped.duplicate(), new Crc32c())) {
      problem = "segment descriptor is invalid (version or checksum)";
    } else if (SegmentDescriptor.id(buffer) != id) {
      problem = "descriptor id " + SegmentDescriptor.id(buffer) + " does not match the file name";
    } else if (SegmentDescriptor.size(buffer) != fileSize) {
      problem = "descriptor size " + SegmentDescriptor.size(buffer) + " != file size " + fileSize;
    } else if (previous != null
        && SegmentDescriptor.firstIndex(buffer) != previous.lastIndex() + 1) {
      problem =
          "first index "
              + SegmentDescriptor.firstIndex(buffer)
              + " does not follow the previous segment's last index "
              + previous.lastIndex();
    }
    if (problem != null) {
      IoUtil.unmap(mapped);
      return discardOrFail(path, previous, isLast, problem);
    }
    return Segment.existing(path, mapped, config.indexDensity());
  }

  /**
   * A last segment with a broken descriptor holds nothing flushed if the previous segment already
   * reaches the flushed index: the crash came while it was being started. Anything else is
   * corruption.
   */
  private Segment discardOrFail(Path path, Segment previous, boolean isLast, String problem) {
    boolean nothingFlushedHere =
        isLast
            && (previous == null
                ? lastFlushedIndex == 0
                : previous.lastIndex() >= lastFlushedIndex);
    if (!nothingFlushedHere) {
      throw new JournalException.CorruptedJournal(path, 0, problem);
    }
    LOG.warn("Deleting journal segment {} beyond the last flushed index: {}", path, problem);
    files.delete(path);
    return null;
  }

  /**
   * Determines the segment's last entry, by trusting its hint or by scanning.
   *
   * @return true if a torn tail was cut here, so later segments must go
   */
  private boolean recover(Segment segment, Segment previous, boolean isLast) {
    UnsafeBuffer buffer = segment.buffer();
    long hint = SegmentDescriptor.hintLastIndex(buffer, segment.newView(), new Crc32c());
    boolean trustHint =
        config.openVerification() == JournalConfig.OpenVerification.TAIL
            && !isLast
            && hint != SegmentDescriptor.NO_HINT
            && hint >= segment.firstIndex()
            && hint <= lastFlushedIndex;
    if (trustHint) {
      segment.trustHint(hint, SegmentDescriptor.hintEndPosition(buffer));
      return false;
    }
    Segment.ScanResult result = segment.scan(true, Long.MAX_VALUE);
    segment.adopt(result);
    long firstMissing = result.lastIndex() + 1;
    boolean endedEarly = !isLast && hint != SegmentDescriptor.NO_HINT && result.lastIndex() < hint;
    boolean torn = result.invalidReason() != null || endedEarly;
    if (!torn) {
      if (isLast && crashed) {
        // Pages after the last complete frame may hold parts of frames that never completed.
        segment.zeroFrom(result.endPosition());
      }
      return false;
    }
    String reason =
        result.invalidReason() != null
            ? result.invalidReason()
            : "frames end at entry " + result.lastIndex() + " but the segment hint says " + hint;
    if (firstMissing <= lastFlushedIndex) {
      throw new JournalException.CorruptedJournal(
          segment.file(),
          result.endPosition(),
          reason + " (entries up to " + lastFlushedIndex + " were flushed)");
    }
    LOG.warn(
        "Cutting the journal's torn tail at entry {} in {} at offset {} (last flushed index {}): {}",
        firstMissing,
        segment.file(),
        result.endPosition(),
        lastFlushedIndex,
        reason);
    segment.zeroFrom(result.endPosition());
    SegmentDescriptor.clearHint(buffer);
    segment.force(0, SegmentDescriptor.LENGTH);
    return true;
  }

  private static long size(Path path) {
    try {
      return java.nio.file.Files.size(path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
