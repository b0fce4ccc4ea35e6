package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * <p>Rules: entries at or below the confirmed flushed index (from the newest flush record, see
 * {@link SegmentDescriptor.FlushRecord}) must be intact; anything wrong there is a {@link
 * JournalException.CorruptedJournal} naming the file and offset. Beyond it, the first missing or
 * invalid frame ends the journal: the torn tail is zeroed, later segments are deleted, and a
 * warning is logged.
 */
final class JournalLoader {
  private static final Logger LOG = LoggerFactory.getLogger(JournalLoader.class);

  private final JournalConfig config;
  private final SegmentFiles files;
  private long lastFlushedIndex;
  private boolean crashed;

  JournalLoader(JournalConfig config, SegmentFiles files) {
    this.config = config;
    this.files = files;
  }

  /** Entries at or below this index were confirmed durable before the journal was last closed. */
  long confirmedFlushedIndex() {
    return lastFlushedIndex;
  }

  /** True if the journal was not closed cleanly (known after {@link #load()}). */
  boolean crashed() {
    return crashed;
  }

  /** Loads the segments in index order; empty if the directory holds none. */
  List<Segment> load() {
    TreeMap<Long, Path> paths = files.listSegments();
    readFlushRecords(paths);
    List<Segment> segments = new ArrayList<>();
    try {
      loadInto(paths, segments);
    } catch (RuntimeException e) {
      // A refused open keeps nothing mapped or open: a caller may fix the files and retry.
      for (Segment segment : segments) {
        segment.releaseQuietly();
      }
      throw e;
    }
    return segments;
  }

  private void loadInto(TreeMap<Long, Path> paths, List<Segment> segments) {
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
        // Discarded: everything after it goes too, and the segment before it becomes the last
        // one, so frames left behind its end (pages that reached the disk out of order) must not
        // be found again later.
        if (previous != null) {
          previous.recovery().zeroFrom(previous.endPosition());
          SegmentDescriptor.clearHint(previous.buffer());
          previous.force(0, SegmentDescriptor.LENGTH);
        }
        cut = true;
        continue;
      }
      segments.add(segment);
      cut = recover(segment, previous, isLast);
    }
    if (cut || crashed) {
      files.syncDirectory();
    }
  }

  /**
   * Finds the newest flush record among the segments' descriptors. A journal with segments but no
   * record saying it was closed cleanly is recovered as after a crash.
   */
  private void readFlushRecords(TreeMap<Long, Path> paths) {
    SegmentDescriptor.FlushRecord newest = null;
    ByteBuffer bytes = ByteBuffer.allocateDirect(SegmentDescriptor.LENGTH);
    UnsafeBuffer descriptor = new UnsafeBuffer(bytes);
    Crc32c crc = new Crc32c();
    for (Path path : paths.values()) {
      bytes.clear();
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
        while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
          // read the whole descriptor
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to read journal segment " + path, e);
      }
      if (bytes.hasRemaining()) {
        continue; // judged with its frames below
      }
      // Read even when the rest of the descriptor is damaged: the slots carry their own CRC, and
      // the newest record lives in the segment holding the newest entries. Skipping it would take
      // an older segment's record for the truth and delete flushed entries as a torn tail; with
      // it, the damaged descriptor is reported as corruption below.
      SegmentDescriptor.FlushRecord record =
          SegmentDescriptor.readFlushRecord(descriptor, bytes, crc);
      if (record != null
          && (newest == null || record.lastFlushedIndex() >= newest.lastFlushedIndex())) {
        newest = record;
      }
    }
    lastFlushedIndex = newest == null ? 0 : newest.confirmedIndex();
    crashed = !paths.isEmpty() && (newest == null || !newest.cleanShutdown());
  }

  /** Maps and checks the descriptor; returns null for a file that never became a segment. */
  private Segment openSegment(long id, Path path, Segment previous, boolean isLast) {
    long fileSize = size(path);
    if (fileSize < SegmentDescriptor.LENGTH || fileSize > JournalConfig.MAX_SEGMENT_SIZE_BYTES) {
      return discardOrFail(path, previous, isLast, "file size " + fileSize + " is not valid");
    }
    MappedByteBuffer mapped = Segment.map(path, (int) fileSize);
    UnsafeBuffer buffer = new UnsafeBuffer(mapped);
    if (SegmentDescriptor.version(buffer) == 0 && isLast && nothingAfterStaticPart(buffer)) {
      // Renamed from the spare, but the crash came before its descriptor was written. (The version
      // is written last, and hint and flush records only after it: a zero version with either
      // present is damage, judged below like any invalid descriptor.)
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
    Segment segment = Segment.existing(path, mapped, config.indexDensity());
    // Resume the segment's flush-record sequence: a new record must outrank the ones on disk.
    segment.flushes().readFlushRecord();
    return segment;
  }

  private static boolean nothingAfterStaticPart(UnsafeBuffer buffer) {
    for (int offset = SegmentDescriptor.HINT_CRC_START;
        offset < SegmentDescriptor.LENGTH;
        offset += Long.BYTES) {
      if (buffer.getLong(offset) != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * A segment with a broken descriptor (or one that does not follow its predecessor) holds nothing
   * flushed if the previous segment already reaches the flushed index: the crash came before its
   * pages reached the disk. It is discarded with everything after it. Anything else is corruption.
   */
  private Segment discardOrFail(Path path, Segment previous, boolean isLast, String problem) {
    boolean nothingFlushedHere =
        previous == null ? lastFlushedIndex == 0 : previous.lastIndex() >= lastFlushedIndex;
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
            && hint <= lastFlushedIndex
            // Frames after the hint's end: the hint is stale (a roll that failed, then appends).
            && !segment.recovery().hasMarkerAt(SegmentDescriptor.hintEndPosition(buffer));
    if (trustHint) {
      segment
          .recovery()
          .trustHint(
              hint,
              SegmentDescriptor.hintEndPosition(buffer),
              SegmentDescriptor.hintLastAsqn(buffer));
      return false;
    }
    SegmentRecovery.ScanResult result = segment.recovery().scan(true, Long.MAX_VALUE);
    segment.recovery().adopt(result);
    if (crashed) {
      segment.flushes().forgetFlushed(); // the open's flush then vouches only for what it forced
    }
    long firstMissing = result.lastIndex() + 1;
    boolean endedEarly = !isLast && hint != SegmentDescriptor.NO_HINT && result.lastIndex() < hint;
    boolean torn = result.invalidReason() != null || endedEarly;
    if (!torn) {
      if (isLast && crashed) {
        // Pages after the last complete frame may hold parts of frames that never completed.
        segment.recovery().zeroFrom(result.endPosition());
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
    segment.recovery().zeroFrom(result.endPosition());
    SegmentDescriptor.clearHint(buffer);
    segment.force(0, SegmentDescriptor.LENGTH);
    return true;
  }

  private static long size(Path path) {
    try {
      return java.nio.file.Files.size(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
