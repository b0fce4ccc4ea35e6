package io.tern.raft.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalRaftLogTest {
  @TempDir Path directory;

  private SegmentedJournal openJournal() {
    return SegmentedJournal.open(
        JournalConfig.builder(directory).segmentSizeBytes(4096).fitMaxEntrySizeToSegment().build());
  }

  private static RaftEntry entry(long index, long term) {
    byte[] data = ("entry " + index).getBytes(StandardCharsets.UTF_8);
    return new RaftEntry(index, term, RaftEntry.Type.APPLICATION, index * 10, data);
  }

  @Test
  void aBatchHoldsAtMostMaxBatchEntriesHoweverSmallTheyAre() {
    try (SegmentedJournal journal =
        SegmentedJournal.open(
            JournalConfig.builder(directory).segmentSizeBytes(16 << 20).build())) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      int count = RaftLog.MAX_BATCH_ENTRIES + 100;
      for (int index = 1; index <= count; index++) {
        log.append(new RaftEntry(index, 1, RaftEntry.Type.APPLICATION, index, new byte[0]));
      }

      assertThat(log.entries(1, Integer.MAX_VALUE)).hasSize(RaftLog.MAX_BATCH_ENTRIES);
      assertThat(log.entries(RaftLog.MAX_BATCH_ENTRIES + 1, Integer.MAX_VALUE)).hasSize(100);
    }
  }

  /**
   * A follower appends entries that view a received frame, released right after the append: the log
   * must store the bytes and keep no view, or it would later replicate whatever reuses them.
   */
  @Test
  void appendsEntriesThatViewABorrowedBufferAndKeepsNoView() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      log.append(entry(1, 1)); // owned, so remembered: the views must not extend that window
      UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
      List<RaftEntry> expected = new ArrayList<>();
      for (long index = 2; index <= 4; index++) {
        RaftEntry owned = entry(index, 1);
        int offset = (int) index * 10;
        frame.putBytes(offset, owned.data());
        log.append(
            RaftEntry.view(
                index, 1, owned.type(), owned.asqn(), frame, offset, owned.dataLength()));
        expected.add(owned);
      }
      frame.setMemory(0, frame.capacity(), (byte) '!'); // the frame is reused

      assertThat(log.entries(2, Integer.MAX_VALUE)).isEqualTo(expected);
      assertThat(log.entries(2, Integer.MAX_VALUE)).noneMatch(RaftEntry::isView);
      assertThat(log.entry(3)).isEqualTo(expected.get(1));
      assertThat(log.entries(1, Integer.MAX_VALUE)).startsWith(entry(1, 1)).hasSize(4);
    }
  }

  @Test
  void storesEntriesWithTermsAndReadsThemBack() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      log.append(RaftEntry.noop(1, 1));
      log.append(entry(2, 1));
      log.append(entry(3, 2));

      assertThat(log.lastIndex()).isEqualTo(3);
      assertThat(log.term(0)).isZero();
      assertThat(log.term(1)).isEqualTo(1);
      assertThat(log.term(3)).isEqualTo(2);
      assertThat(log.term(4)).isEqualTo(-1);
      assertThat(log.entry(1).type()).isEqualTo(RaftEntry.Type.NOOP);
      assertThat(log.entry(3)).isEqualTo(entry(3, 2));
      assertThat(log.entries(2, 1)).as("at least one entry").containsExactly(entry(2, 1));
      assertThat(log.entries(2, 1 << 20)).containsExactly(entry(2, 1), entry(3, 2));
    }
  }

  /**
   * A configuration entry is stored with type 2 and no asqn: read back as one after a reopen, and
   * not an application entry for the journal's other readers (the engine skips it as a no-op).
   */
  @Test
  void storesConfigurationEntries() {
    io.tern.raft.Membership membership =
        io.tern.raft.Membership.ofVoters(
            java.util.List.of(new io.tern.raft.Member(1, 1), new io.tern.raft.Member(2, 1)));
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      log.append(RaftEntry.noop(1, 1));
      log.append(RaftEntry.config(2, 1, membership).withAsqn(99));
      log.append(entry(3, 1));
    }
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog reopened = new JournalRaftLog(journal, 0, 0);
      RaftEntry config = reopened.entry(2);

      assertThat(config.type()).isEqualTo(RaftEntry.Type.CONFIG);
      assertThat(config.asqn()).isEqualTo(RaftEntry.NO_ASQN);
      assertThat(config.membership()).isEqualTo(membership);
      assertThat(reopened.entry(3)).isEqualTo(entry(3, 1));
      assertThat(reopened.configEntries(1)).containsExactly(config);
      assertThat(reopened.configEntries(3)).isEmpty();
      assertThat(reopened.configEntries(4)).isEmpty();
      try (io.tern.journal.JournalReader reader = journal.openReader()) {
        reader.seek(1);
        assertThat(JournalRaftLog.isApplicationEntry(reader.next().data())).as("no-op").isFalse();
        assertThat(JournalRaftLog.isApplicationEntry(reader.next().data())).as("config").isFalse();
        assertThat(JournalRaftLog.isApplicationEntry(reader.next().data())).as("app").isTrue();
      }
    }
  }

  /**
   * The newest entries go out as they were appended, older ones are read back from the journal, and
   * a batch may mix both; the log reopened (nothing remembered) reads the same.
   */
  @Test
  void sendsRecentEntriesFromMemoryAndOlderOnesFromTheJournal() {
    int count = RecentEntries.SLOTS + 500;
    List<RaftEntry> appended = new ArrayList<>();
    try (SegmentedJournal journal =
        SegmentedJournal.open(
            JournalConfig.builder(directory).segmentSizeBytes(16 << 20).build())) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      for (int index = 1; index <= count; index++) {
        RaftEntry entry = entry(index, 1 + index / 700);
        appended.add(entry);
        log.append(entry);
      }

      assertThat(log.entry(count)).isSameAs(appended.get(count - 1));
      assertThat(log.entry(1)).isNotSameAs(appended.get(0)).isEqualTo(appended.get(0));
      List<RaftEntry> all = log.entries(1, Integer.MAX_VALUE);
      assertThat(all).containsExactlyElementsOf(appended);
      assertThat(all.get(count - 1)).isSameAs(appended.get(count - 1));
      assertThat(log.entries(400, Integer.MAX_VALUE))
          .containsExactlyElementsOf(appended.subList(399, count));
      log.close();
    }
    try (SegmentedJournal journal =
        SegmentedJournal.open(
            JournalConfig.builder(directory).segmentSizeBytes(16 << 20).build())) {
      JournalRaftLog reopened = new JournalRaftLog(journal, 0, 0);
      assertThat(reopened.entries(1, Integer.MAX_VALUE)).containsExactlyElementsOf(appended);
      reopened.close();
    }
  }

  @Test
  void truncationDropsEntriesAndTheirTerms() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      log.append(entry(1, 1));
      log.append(entry(2, 2));
      log.append(entry(3, 3));

      log.truncateAfter(1);
      log.append(entry(2, 4));

      assertThat(log.term(2)).isEqualTo(4);
      assertThat(log.entries(1, 1 << 20)).containsExactly(entry(1, 1), entry(2, 4));
      assertThat(log.entry(2)).isEqualTo(entry(2, 4));
      log.append(entry(3, 4));
      assertThat(log.entry(3)).as("not the truncated entry 3").isEqualTo(entry(3, 4));
    }
  }

  @Test
  void termRunsAreRebuiltOnReopen() {
    Random random = new Random(42);
    List<Long> termOf = new ArrayList<>();
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      long term = 1;
      for (long index = 1; index <= 500; index++) {
        if (random.nextInt(40) == 0) {
          term += 1 + random.nextInt(3);
        }
        log.append(entry(index, term));
        termOf.add(term);
      }
    }
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      for (long index = 1; index <= 500; index++) {
        assertThat(log.term(index)).as("term of %d", index).isEqualTo(termOf.get((int) index - 1));
      }
    }
  }

  @Test
  void resetRestartsAfterASnapshot() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      log.append(entry(1, 1));

      log.reset(100, 7);

      assertThat(log.firstIndex()).isEqualTo(101);
      assertThat(log.lastIndex()).isEqualTo(100);
      assertThat(log.term(100)).isEqualTo(7);
      log.append(entry(101, 8));
      assertThat(log.term(101)).isEqualTo(8);
    }
  }

  @Test
  void compactionKeepsTheSnapshotTermAndTheEntryBeforeTheFirst() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      for (long index = 1; index <= 400; index++) {
        log.append(entry(index, index <= 200 ? 1 : 2));
      }

      log.compact(300, 2, 250);

      long first = log.firstIndex();
      assertThat(first).as("whole segments below 251 go").isBetween(2L, 251L);
      assertThat(log.term(0)).as("index 0 is compacted away too").isEqualTo(-1);
      assertThat(log.term(first - 1)).as("the entry just compacted").isPositive();
      assertThat(log.term(300)).isEqualTo(2);
      assertThat(log.entry(first).index()).isEqualTo(first);
    }
  }

  @Test
  void aCompactedJournalWhoseSnapshotIsMissingIsRefusedAtOpen() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      for (long index = 1; index <= 400; index++) {
        log.append(entry(index, 1));
      }
      log.compact(300, 1, 250);
      long first = log.firstIndex();
      assertThat(first).isGreaterThan(2);

      // The snapshot at 300 is gone (damaged manifest, lost directory entry) and none is left.
      assertThatThrownBy(() -> new JournalRaftLog(journal, 0, 0))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("Raft log starts at entry " + first)
          .hasMessageContaining("entries 1.." + (first - 1) + " is missing or damaged");
      assertThat(journal.getLastIndex()).as("nothing was wiped").isEqualTo(400);
      assertThat(new JournalRaftLog(journal, 300, 1).term(400)).isEqualTo(1);

      // With a snapshot, a journal that starts beyond it is what a crash part-way through the
      // reset after an install leaves (old segments deleted oldest first): the reset is finished.
      new JournalRaftLog(journal, 100, 1);
      assertThat(journal.getFirstIndex()).isEqualTo(101);
      assertThat(journal.getLastIndex()).isEqualTo(100);
    }
  }

  @Test
  void aSnapshotNewerThanTheJournalResetsItOnOpen() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      log.append(entry(1, 1));
      log.append(entry(2, 1));
    }
    // A crash after a received snapshot (index 10) was installed, before the journal was reset.
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 10, 3);

      assertThat(log.firstIndex()).isEqualTo(11);
      assertThat(log.lastIndex()).isEqualTo(10);
      assertThat(log.lastTerm()).isEqualTo(3);
      log.append(entry(11, 3));
      assertThat(log.term(11)).isEqualTo(3);
    }
  }

  @Test
  void aJournalThatDisagreesWithTheSnapshotTermIsResetButOneThatAgreesIsKept() {
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 0, 0);
      for (long index = 1; index <= 5; index++) {
        log.append(entry(index, 1));
      }
    }
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 3, 1);
      assertThat(log.lastIndex()).as("entry 3 has the snapshot's term: keep the log").isEqualTo(5);
    }
    try (SegmentedJournal journal = openJournal()) {
      JournalRaftLog log = new JournalRaftLog(journal, 3, 2);
      assertThat(log.firstIndex()).as("entry 3 has another term: the snapshot wins").isEqualTo(4);
      assertThat(log.lastIndex()).isEqualTo(3);
    }
  }
}
