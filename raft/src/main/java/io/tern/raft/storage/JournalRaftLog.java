package io.tern.raft.storage;

import io.tern.journal.Journal;
import io.tern.journal.JournalReader;
import io.tern.journal.JournalRecord;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftLog;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The Raft log on the journal. Each journal entry is one Raft entry:
 *
 * <pre>
 *   0  term (long)
 *   8  type (byte: 0 application, 1 no-op), 7 bytes reserved
 *  16  data
 * </pre>
 *
 * The journal's asqn is the entry's asqn (no-ops use {@link Journal#ASQN_IGNORE}), so the stream
 * processor can seek by position. Terms are kept in memory as runs ({@link TermRuns}): a term
 * changes only with a leader, so there are few, and {@link #term(long)} never touches the disk.
 */
public final class JournalRaftLog implements RaftLog, AutoCloseable {
  /** Bytes before an entry's data in the journal. */
  public static final int HEADER_LENGTH = 16;

  private static final int TERM_OFFSET = 0;
  private static final int TYPE_OFFSET = 8;

  private final Journal journal;
  private final JournalReader reader;
  private final TermRuns terms = new TermRuns();
  private final EntryWriter writer = new EntryWriter();
  private final RecentEntries recent;
  private long snapshotIndex;
  private long snapshotTerm;

  /** The term of a stored entry, from its header. */
  public static long termOf(DirectBuffer data) {
    return data.getLong(TERM_OFFSET);
  }

  /**
   * True if the journal entry {@code data} holds an application entry (not a Raft no-op); its
   * application data starts at {@link #HEADER_LENGTH}. For readers of the journal other than Raft.
   */
  public static boolean isApplicationEntry(DirectBuffer data) {
    return data.getByte(TYPE_OFFSET) == TYPE_APPLICATION;
  }

  // The entry header's type byte. Logs written before configuration entries hold only 0 and 1.
  private static final byte TYPE_APPLICATION = 0;
  private static final byte TYPE_NOOP = 1;
  private static final byte TYPE_CONFIG = 2;

  private static byte typeByte(RaftEntry.Type type) {
    return switch (type) {
      case APPLICATION -> TYPE_APPLICATION;
      case NOOP -> TYPE_NOOP;
      case CONFIG -> TYPE_CONFIG;
    };
  }

  private static RaftEntry.Type typeOf(byte stored) {
    return switch (stored) {
      case TYPE_APPLICATION -> RaftEntry.Type.APPLICATION;
      case TYPE_NOOP -> RaftEntry.Type.NOOP;
      case TYPE_CONFIG -> RaftEntry.Type.CONFIG;
      default ->
          throw new IllegalStateException("raft: unknown entry type " + stored + " in the log");
    };
  }

  /**
   * @param snapshotIndex index of the latest snapshot (0 if none); the journal starts after it
   * @param snapshotTerm its term
   */
  public JournalRaftLog(Journal journal, long snapshotIndex, long snapshotTerm) {
    this(journal, snapshotIndex, snapshotTerm, RecentEntries.DEFAULT_MAX_BYTES);
  }

  /** As above, remembering at most {@code recentMaxBytes} of recent entries' data (tests). */
  JournalRaftLog(Journal journal, long snapshotIndex, long snapshotTerm, long recentMaxBytes) {
    this.recent = new RecentEntries(recentMaxBytes);
    this.journal = journal;
    this.reader = journal.openReader();
    this.snapshotIndex = snapshotIndex;
    this.snapshotTerm = snapshotTerm;
    long first = journal.getFirstIndex();
    if (snapshotIndex == 0 && first > 1) {
      // Compaction only ever drops entries a durable snapshot covers, and a reset only follows a
      // durable snapshot: without any snapshot, the one that covered the missing entries is gone
      // (damaged, deleted, or its directory entry lost). Starting would replay a log with a hole.
      // (With a snapshot, a journal starting beyond it is what a crash in the middle of a reset
      // leaves, and the reset below finishes the job.)
      reader.close();
      throw new IllegalStateException(
          "Raft log starts at entry "
              + first
              + " but there is no valid snapshot: the snapshot covering entries 1.."
              + (first - 1)
              + " is missing or damaged. Refusing to start the partition; restore its snapshot"
              + " directory, or delete the member's partition data so that it catches up from the"
              + " leader");
    }
    try {
      if (snapshotIndex > 0 && !journalContinuesSnapshot()) {
        // A crash between installing a received snapshot and resetting the journal, or a journal
        // that diverged from the snapshot: the snapshot wins (it holds only committed state).
        journal.reset(snapshotIndex + 1);
      }
      rebuildTermRuns();
    } catch (RuntimeException e) {
      reader.close(); // it would keep a segment mapped after the journal is closed
      throw e;
    }
  }

  /**
   * Releases this log's reader (which holds a reference on the segment it last read, keeping it
   * mapped). The journal itself belongs to the caller.
   */
  @Override
  public void close() {
    reader.close();
  }

  /** True if the journal holds the snapshot's last entry with its term, or starts right after. */
  private boolean journalContinuesSnapshot() {
    long first = journal.getFirstIndex();
    long last = journal.getLastIndex();
    if (first == snapshotIndex + 1) {
      return true;
    }
    return first <= snapshotIndex
        && last >= snapshotIndex
        && readTerm(snapshotIndex) == snapshotTerm;
  }

  /**
   * Finds the term runs by bisection: terms never decrease along the log, so a range whose ends
   * share a term is one run. Costs O(terms x log entries) reads instead of a scan of the log.
   */
  private void rebuildTermRuns() {
    terms.clear();
    long first = journal.getFirstIndex();
    long last = journal.getLastIndex();
    if (last >= first) {
      bisect(first, readTerm(first), last, readTerm(last));
    }
  }

  private void bisect(long lo, long termLo, long hi, long termHi) {
    if (termLo == termHi) {
      terms.append(lo, termLo);
      return;
    }
    if (hi == lo + 1) {
      terms.append(lo, termLo);
      terms.append(hi, termHi);
      return;
    }
    long mid = lo + (hi - lo) / 2;
    long termMid = readTerm(mid);
    bisect(lo, termLo, mid, termMid);
    // The run at mid may continue from the left half; append() merges equal terms.
    bisect(mid, termMid, hi, termHi);
  }

  private long readTerm(long index) {
    reader.seek(index);
    return reader.next().data().getLong(TERM_OFFSET);
  }

  @Override
  public long firstIndex() {
    return journal.getFirstIndex();
  }

  @Override
  public long lastIndex() {
    return journal.getLastIndex();
  }

  @Override
  public long term(long index) {
    if (index == 0) {
      return journal.getFirstIndex() <= 1
          ? 0
          : -1; // once compacted, index 0 is as gone as the entries after it
    }
    if (index == snapshotIndex) {
      return snapshotTerm;
    }
    // The entry just before the first is still known while this process saw it (runs are never
    // dropped from the front), so a follower right at the compaction point needs no snapshot.
    if (index < journal.getFirstIndex() - 1
        || index > journal.getLastIndex()
        || index < terms.firstKnownIndex()) {
      return -1;
    }
    return terms.termAt(index);
  }

  @Override
  public void append(RaftEntry entry) {
    if (entry.index() != journal.getLastIndex() + 1) {
      throw new IllegalArgumentException(
          "Raft entry " + entry.index() + " does not follow " + journal.getLastIndex());
    }
    writer.entry = entry;
    long asqn = entry.type() == RaftEntry.Type.APPLICATION ? entry.asqn() : Journal.ASQN_IGNORE;
    journal.append(asqn, writer);
    writer.entry = null; // a view must not outlive its frame, even unread
    terms.append(entry.index(), entry.term());
    if (entry.isView()) {
      // A follower's entry viewing a received frame, which is released after this append: not
      // kept (the window restarts at the next entry it may keep). Followers replicate nothing.
      return;
    }
    // Kept as a read from the journal would return it: the journal stores no asqn for a no-op or
    // a configuration.
    recent.add(
        entry.type() != RaftEntry.Type.APPLICATION && entry.asqn() != RaftEntry.NO_ASQN
            ? entry.withAsqn(RaftEntry.NO_ASQN)
            : entry);
  }

  @Override
  public void truncateAfter(long index) {
    journal.deleteAfter(index);
    terms.truncateAfter(index);
    recent.clear(); // rare: forgetting all is simpler than finding what was cut
  }

  @Override
  public List<RaftEntry> entries(long fromIndex, int maxBytes) {
    List<RaftEntry> batch = new ArrayList<>();
    if (fromIndex > journal.getLastIndex()) {
      return batch;
    }
    long lastIndex = journal.getLastIndex();
    int bytes = 0;
    boolean seeked = false;
    for (long index = fromIndex; index <= lastIndex; index++) {
      RaftEntry entry = recent.get(index);
      JournalRecord record = null;
      if (entry == null) {
        if (!seeked) {
          reader.seek(index);
          seeked = true;
        }
        if (!reader.hasNext()) {
          break;
        }
        record = reader.next();
        if (record.index() != index) {
          throw new IllegalArgumentException(
              "Raft log entries from "
                  + fromIndex
                  + " asked for, but the journal holds entries "
                  + journal.getFirstIndex()
                  + ".."
                  + journal.getLastIndex());
        }
      } else {
        seeked = false; // the reader no longer stands at the next index
      }
      int size = entry != null ? storedBytes(entry) : record.data().capacity();
      if (!batch.isEmpty() && (bytes + size > maxBytes || batch.size() >= MAX_BATCH_ENTRIES)) {
        break;
      }
      batch.add(entry != null ? entry : decode(record));
      bytes += size;
    }
    return batch;
  }

  /** Reads only each entry's type byte in place; decodes the configuration entries alone. */
  @Override
  public List<RaftEntry> configEntries(long fromIndex) {
    List<RaftEntry> found = new ArrayList<>();
    long from = Math.max(fromIndex, journal.getFirstIndex());
    if (from > journal.getLastIndex()) {
      return found;
    }
    reader.seek(from);
    while (reader.hasNext()) {
      JournalRecord record = reader.next();
      if (record.data().getByte(TYPE_OFFSET) == TYPE_CONFIG) {
        found.add(decode(record));
      }
    }
    return found;
  }

  @Override
  public RaftEntry entry(long index) {
    RaftEntry entry = recent.get(index);
    if (entry != null && index <= journal.getLastIndex()) {
      return entry;
    }
    reader.seek(index);
    return decode(reader.next());
  }

  @Override
  public void compact(long newSnapshotIndex, long newSnapshotTerm, long compactUpTo) {
    if (newSnapshotIndex > snapshotIndex) {
      snapshotIndex = newSnapshotIndex;
      snapshotTerm = newSnapshotTerm;
    }
    // The journal drops whole segments below the given index, so it may keep more.
    journal.deleteUntil(Math.min(compactUpTo, snapshotIndex) + 1);
  }

  /** After a snapshot install: the journal restarts after the snapshot. */
  @Override
  public void reset(long newSnapshotIndex, long newSnapshotTerm) {
    journal.reset(newSnapshotIndex + 1);
    snapshotIndex = newSnapshotIndex;
    snapshotTerm = newSnapshotTerm;
    terms.clear();
    recent.clear();
  }

  private static RaftEntry decode(JournalRecord record) {
    DirectBuffer data = record.data();
    long term = data.getLong(TERM_OFFSET);
    RaftEntry.Type type = typeOf(data.getByte(TYPE_OFFSET));
    byte[] payload = new byte[data.capacity() - HEADER_LENGTH];
    data.getBytes(HEADER_LENGTH, payload);
    long asqn = type == RaftEntry.Type.APPLICATION ? record.asqn() : RaftEntry.NO_ASQN;
    return new RaftEntry(record.index(), term, type, asqn, payload);
  }

  /** The bytes an entry takes in the journal: its header and data. */
  private static int storedBytes(RaftEntry entry) {
    return HEADER_LENGTH + entry.dataLength();
  }

  /** Serializes straight into the mapped segment (no intermediate buffer). */
  private static final class EntryWriter implements Journal.EntryWriter {
    private RaftEntry entry;

    @Override
    public int length() {
      return storedBytes(entry);
    }

    @Override
    public void write(MutableDirectBuffer buffer, int offset) {
      buffer.putLong(offset + TERM_OFFSET, entry.term());
      buffer.putByte(offset + TYPE_OFFSET, typeByte(entry.type()));
      buffer.setMemory(offset + TYPE_OFFSET + 1, 7, (byte) 0);
      entry.copyDataTo(buffer, offset + HEADER_LENGTH);
    }
  }
}
