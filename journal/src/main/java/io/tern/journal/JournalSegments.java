package io.tern.journal;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The segments of a {@link SegmentedJournal} in index order, and the files behind them: a new
 * segment is made from the allocator's spare, a deleted one leaves the set before its file is
 * removed, and lookups find the segment that holds an index. Kept apart from the journal so that
 * the journal reads as what it does with its segments, not how it keeps them.
 *
 * <p>Readers and flushes on other threads look segments up concurrently (the set is a concurrent
 * skip list, keyed by each segment's first index); only the writer thread adds segments, and it
 * removes them only under the journal's structure and flush locks.
 */
final class JournalSegments {
  private final JournalConfig config;
  private final SegmentFiles files;
  private final SegmentAllocator allocator;
  private final ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();

  JournalSegments(JournalConfig config, SegmentFiles files, SegmentAllocator allocator) {
    this.config = config;
    this.files = files;
    this.allocator = allocator;
  }

  /** Adds a segment found when the journal was opened. */
  void add(Segment segment) {
    segments.put(segment.firstIndex(), segment);
  }

  /**
   * Makes the allocator's spare file segment {@code id}, whose first entry will be {@code
   * firstIndex}, and adds it.
   *
   * @throws JournalException.OutOfDiskSpace if there is no room for it
   */
  Segment create(long id, long firstIndex) {
    Path path = files.segmentPath(id);
    allocator.takeSpare(path);
    var mapped = Segment.map(path, config.segmentSizeBytes());
    Segment segment = Segment.initialize(path, mapped, id, firstIndex, config.indexDensity());
    NativeIo.madvise(segment.address(), config.segmentSizeBytes(), config.madvise());
    segments.put(firstIndex, segment);
    return segment;
  }

  /**
   * Removes {@code segment} from the set and deletes its file; the mapping goes once the last
   * reader positioned in it lets go.
   */
  void delete(Segment segment) {
    segments.remove(segment.firstIndex());
    files.delete(segment.file());
    segment.markDeleted();
    segment.release();
  }

  /** Deletes every segment after {@code keep}, newest first, then syncs the directory if any. */
  void deleteAfter(Segment keep) {
    boolean deletedAny = false;
    for (Segment segment : segments.descendingMap().headMap(keep.firstIndex()).values()) {
      delete(segment);
      deletedAny = true;
    }
    if (deletedAny) {
      files.syncDirectory();
    }
  }

  /**
   * Deletes, oldest first, the segments before {@code current} whose entries all lie below {@code
   * index}; the caller syncs the directory.
   *
   * @return whether any segment was deleted
   */
  boolean deleteWhollyBelow(long index, Segment current) {
    boolean deletedAny = false;
    for (Segment segment : segments.values()) {
      if (segment == current || segment.lastIndex() >= index) {
        break;
      }
      delete(segment);
      deletedAny = true;
    }
    return deletedAny;
  }

  /** The first segment {@link #deleteWhollyBelow} would keep. */
  Segment firstKeptBelow(long index, Segment current) {
    for (Segment segment : segments.values()) {
      if (segment == current || segment.lastIndex() >= index) {
        return segment;
      }
    }
    throw new IllegalStateException("the writer's segment " + current + " is not in the journal");
  }

  /** Deletes every segment, oldest first: a crash part-way leaves a suffix of the journal. */
  void deleteAll() {
    for (Segment segment : segments.values()) {
      delete(segment);
    }
  }

  /** Makes the creation and deletion of segment files durable. */
  void syncDirectory() {
    files.syncDirectory();
  }

  /** The segment that holds {@code index}, which must not be below the first segment. */
  Segment holding(long index) {
    return segments.floorEntry(index).getValue();
  }

  /** The segment that holds {@code index}, the first one if it is below them all (readers). */
  Segment segmentFor(long index) {
    Map.Entry<Long, Segment> entry = segments.floorEntry(index);
    return entry == null ? segments.firstEntry().getValue() : entry.getValue();
  }

  /** The segment whose first entry is {@code index}, or null. */
  Segment startingAt(long index) {
    return segments.get(index);
  }

  /** The segment holding {@code fromIndex} and those after it, up to {@code end} (excluded). */
  Collection<Segment> fromUntil(long fromIndex, Segment end) {
    return segments.subMap(segments.floorKey(fromIndex), end.firstIndex()).values();
  }

  Collection<Segment> all() {
    return segments.values();
  }

  Iterable<Segment> descending() {
    return segments.descendingMap().values();
  }

  /** The first index of the first segment. */
  long firstIndex() {
    return segments.firstKey();
  }

  Segment last() {
    return segments.lastEntry().getValue();
  }

  int size() {
    return segments.size();
  }

  /** Forgets every segment (closing; the caller released them). */
  void clear() {
    segments.clear();
  }

  /**
   * The newest asqn in the journal; {@code current}, the writer's segment, knows its own, older
   * ones are scanned. {@link SegmentIndex#NONE} if no entry has one.
   */
  long lastAsqn(Segment current) {
    for (Segment segment : descending()) {
      long asqn =
          segment == current
              ? segment.writer().lastAsqn()
              : segment.frames().lastAsqnUpTo(segment.lastIndex())[0];
      if (asqn != SegmentIndex.NONE) {
        return asqn;
      }
    }
    return SegmentIndex.NONE;
  }
}
