package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every API edge of the journal, one behaviour per test. */
class SegmentedJournalTest {
  /** Room for exactly {@link #ENTRIES_PER_SEGMENT} entries of {@link #DATA_LENGTH} bytes. */
  private static final int DATA_LENGTH = 32;

  private static final int ENTRIES_PER_SEGMENT = 4;
  private static final int SEGMENT_SIZE =
      SegmentDescriptor.LENGTH + ENTRIES_PER_SEGMENT * FrameLayout.frameLength(DATA_LENGTH);

  @TempDir Path directory;
  @TempDir Path crashImages;
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable closeable : toClose) {
      closeable.close();
    }
  }

  private SegmentedJournal open() {
    return open(JournalConfig.builder(directory).segmentSizeBytes(SEGMENT_SIZE).indexDensity(2));
  }

  private SegmentedJournal open(JournalConfig.Builder builder) {
    SegmentedJournal journal = SegmentedJournal.open(builder.fitMaxEntrySizeToSegment().build());
    toClose.add(journal);
    return journal;
  }

  private JournalReader reader(Journal journal) {
    JournalReader reader = journal.openReader();
    toClose.add(reader);
    return reader;
  }

  private static UnsafeBuffer entry(long index) {
    byte[] bytes = String.format("entry-%026d", index).getBytes(StandardCharsets.US_ASCII);
    assertThat(bytes).hasSize(DATA_LENGTH);
    return new UnsafeBuffer(bytes);
  }

  private static String text(JournalRecord record) {
    return record.data().getStringWithoutLengthAscii(0, record.data().capacity());
  }

  private static void appendEntries(Journal journal, int count) {
    for (int i = 0; i < count; i++) {
      long index = journal.getLastIndex() + 1;
      assertThat(journal.append(index * 10, entry(index))).isEqualTo(index);
    }
  }

  private static List<Long> readIndexes(JournalReader reader) {
    List<Long> indexes = new ArrayList<>();
    while (reader.hasNext()) {
      JournalRecord record = reader.next();
      assertThat(text(record)).isEqualTo(text(entry(record.index()).byteArray()));
      indexes.add(record.index());
    }
    return indexes;
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.US_ASCII);
  }

  private long segmentFiles() throws Exception {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".log")).count();
    }
  }

  @Test
  void emptyJournal() {
    SegmentedJournal journal = open();
    assertThat(journal.isEmpty()).isTrue();
    assertThat(journal.getFirstIndex()).isEqualTo(1);
    assertThat(journal.getLastIndex()).isZero();
    assertThat(journal.getLastFlushedIndex()).isZero();
    JournalReader reader = reader(journal);
    assertThat(reader.hasNext()).isFalse();
    assertThat(reader.getNextIndex()).isEqualTo(1);
    assertThatThrownBy(reader::next).isInstanceOf(NoSuchElementException.class);
    assertThat(reader.seekToLast()).isEqualTo(1);
    assertThat(reader.seekToAsqn(100)).isEqualTo(1);
    journal.flush();
    assertThat(journal.getLastFlushedIndex()).isZero();
  }

  @Test
  void appendsAndReadsBackZeroCopy() {
    SegmentedJournal journal = open();
    appendEntries(journal, 3);
    JournalReader reader = reader(journal);
    JournalRecord first = reader.next();
    assertThat(first.index()).isEqualTo(1);
    assertThat(first.asqn()).isEqualTo(10);
    assertThat(text(first)).isEqualTo("entry-00000000000000000000000001");
    assertThat(readIndexes(reader)).containsExactly(2L, 3L);
  }

  @Test
  void readerSeesEntriesAppendedAfterItReachedTheEnd() {
    SegmentedJournal journal = open();
    JournalReader reader = reader(journal);
    assertThat(reader.hasNext()).isFalse();
    appendEntries(journal, 6);
    assertThat(readIndexes(reader)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }

  @Test
  void rollsOverAtTheExactSegmentBoundary() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, ENTRIES_PER_SEGMENT);
    assertThat(journal.segmentCount()).isEqualTo(1);
    appendEntries(journal, 1);
    assertThat(journal.segmentCount()).isEqualTo(2);
    appendEntries(journal, ENTRIES_PER_SEGMENT - 1);
    assertThat(journal.segmentCount()).isEqualTo(2);
    appendEntries(journal, 1);
    assertThat(journal.segmentCount()).isEqualTo(3);
    assertThat(segmentFiles()).isEqualTo(3);
    assertThat(readIndexes(reader(journal))).hasSize(2 * ENTRIES_PER_SEGMENT + 1);
  }

  @Test
  void emptyEntriesAreAllowed() {
    SegmentedJournal journal = open();
    journal.append(1, new UnsafeBuffer(new byte[0]));
    JournalRecord record = reader(journal).next();
    assertThat(record.data().capacity()).isZero();
  }

  @Test
  void seekPastTheEndPositionsAtTheEnd() {
    SegmentedJournal journal = open();
    appendEntries(journal, 10);
    JournalReader reader = reader(journal);
    assertThat(reader.seek(100)).isEqualTo(11);
    assertThat(reader.hasNext()).isFalse();
    appendEntries(journal, 1);
    assertThat(reader.next().index()).isEqualTo(11);
    assertThat(reader.seek(-5)).isEqualTo(1);
    assertThat(reader.seekToLast()).isEqualTo(11);
    assertThat(reader.next().index()).isEqualTo(11);
  }

  @Test
  void seeksToEveryIndexAcrossSegments() {
    SegmentedJournal journal = open();
    appendEntries(journal, 23);
    JournalReader reader = reader(journal);
    for (long index = 1; index <= 23; index++) {
      assertThat(reader.seek(index)).isEqualTo(index);
      assertThat(reader.next().index()).isEqualTo(index);
    }
  }

  @Test
  void seeksByAsqn() {
    SegmentedJournal journal = open();
    // asqn: 1 -> 10, 2 -> ignore, 3 -> 30, 4 -> ignore, 5..12 -> 50..120
    for (long index = 1; index <= 12; index++) {
      long asqn = (index == 2 || index == 4) ? Journal.ASQN_IGNORE : index * 10;
      journal.append(asqn, entry(index));
    }
    JournalReader reader = reader(journal);
    assertThat(reader.seekToAsqn(5)).as("below every asqn").isEqualTo(1);
    assertThat(reader.seekToAsqn(10)).isEqualTo(1);
    assertThat(reader.seekToAsqn(29)).as("skips ignored entry 2").isEqualTo(1);
    assertThat(reader.seekToAsqn(30)).isEqualTo(3);
    assertThat(reader.seekToAsqn(49)).as("skips ignored entry 4").isEqualTo(3);
    assertThat(reader.seekToAsqn(75)).isEqualTo(7);
    assertThat(reader.next().index()).isEqualTo(7);
    assertThat(reader.seekToAsqn(1_000)).isEqualTo(12);
    assertThat(reader.seekToAsqn(-1)).isEqualTo(1);
  }

  @Test
  void rejectsAsqnThatDoesNotIncrease() {
    SegmentedJournal journal = open();
    journal.append(5, entry(1));
    journal.append(Journal.ASQN_IGNORE, entry(2));
    assertThatThrownBy(() -> journal.append(5, entry(3)))
        .isInstanceOf(JournalException.InvalidAsqn.class)
        .hasMessageContaining("Invalid asqn 5")
        .hasMessageContaining("last asqn 5");
    assertThatThrownBy(() -> journal.append(-7, entry(3)))
        .isInstanceOf(JournalException.InvalidAsqn.class);
    assertThat(journal.getLastIndex()).isEqualTo(2);
  }

  @Test
  void rejectsEntriesAboveTheMaximumSize() {
    SegmentedJournal journal =
        open(
            JournalConfig.builder(directory)
                .segmentSizeBytes(SEGMENT_SIZE)
                .maxEntrySizeBytes(DATA_LENGTH));
    assertThatThrownBy(() -> journal.append(1, new UnsafeBuffer(new byte[DATA_LENGTH + 1])))
        .isInstanceOf(JournalException.EntryTooLarge.class)
        .hasMessageContaining("Entry of 33 bytes exceeds")
        .hasMessageContaining("maximum entry size of 32 bytes");
    assertThat(journal.isEmpty()).isTrue();
  }

  @Test
  void rejectsAMaximumEntrySizeThatCannotFitASegment() {
    assertThatThrownBy(
            () ->
                JournalConfig.builder(directory)
                    .segmentSizeBytes(SEGMENT_SIZE)
                    .maxEntrySizeBytes(SEGMENT_SIZE)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("journal.maxEntrySizeBytes");
  }

  @Test
  void settingsThatWouldSilentlyRunSomethingElseAreRefusedByName() {
    assertThatThrownBy(
            () ->
                JournalConfig.builder(directory)
                    .preallocateSegments(false)
                    .preallocation(JournalConfig.Preallocation.ZERO_ON_FLUSH)
                    .build())
        .hasMessageContaining("journal.preallocation ZERO_ON_FLUSH needs preallocated segments");
    assertThatThrownBy(() -> JournalConfig.builder(directory).name(null).build())
        .hasMessageContaining("journal.name must be non-empty");
    // The limit named is the largest entry that fits, frames being 8-byte aligned.
    assertThatThrownBy(
            () ->
                JournalConfig.builder(directory)
                    .segmentSizeBytes(SEGMENT_SIZE + 5)
                    .maxEntrySizeBytes(SEGMENT_SIZE)
                    .build())
        .hasMessageContaining(
            "("
                + ((SEGMENT_SIZE + 5 - SegmentDescriptor.LENGTH - FrameLayout.HEADER_LENGTH) & ~7)
                + " bytes");
  }

  @Test
  void rejectsAMaximumEntrySizeWhoseFrameLengthWouldOverflow() {
    for (int size : new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE - 31, Integer.MAX_VALUE - 38}) {
      assertThatThrownBy(() -> JournalConfig.builder(directory).maxEntrySizeBytes(size).build())
          .as("maxEntrySizeBytes %d", size)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("journal.maxEntrySizeBytes");
    }
  }

  @Test
  void aMaximumEntryExactlyFillsAnEmptySegment() {
    int largest = SEGMENT_SIZE - SegmentDescriptor.LENGTH - FrameLayout.HEADER_LENGTH;
    SegmentedJournal journal =
        open(
            JournalConfig.builder(directory)
                .segmentSizeBytes(SEGMENT_SIZE)
                .maxEntrySizeBytes(largest));
    journal.append(1, new UnsafeBuffer(new byte[1]));
    assertThat(journal.append(2, new UnsafeBuffer(new byte[largest]))).isEqualTo(2);
    assertThat(journal.segmentCount()).isEqualTo(2);
  }

  @Test
  void entryWriterSerializesInPlace() {
    SegmentedJournal journal = open();
    journal.append(
        1,
        new Journal.EntryWriter() {
          @Override
          public int length() {
            return 8;
          }

          @Override
          public void write(org.agrona.MutableDirectBuffer buffer, int offset) {
            buffer.putLong(offset, 42L);
          }
        });
    JournalRecord record = reader(journal).next();
    assertThat(record.data().capacity()).isEqualTo(8);
    assertThat(record.data().getLong(0)).isEqualTo(42L);
  }

  @Test
  void deleteAfterAcrossSegments() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 14);
    assertThat(journal.segmentCount()).isEqualTo(4);
    journal.deleteAfter(5);
    assertThat(journal.getLastIndex()).isEqualTo(5);
    assertThat(journal.segmentCount()).isEqualTo(2);
    assertThat(segmentFiles()).isEqualTo(2);
    appendEntries(journal, 3);
    assertThat(readIndexes(reader(journal))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    // The new entries 6..8 replaced the old ones, and the asqn check restarted from entry 5.
    assertThatThrownBy(() -> journal.append(80, entry(9)))
        .isInstanceOf(JournalException.InvalidAsqn.class);
  }

  @Test
  void deleteAfterAtASegmentsLastEntryAndToEmpty() {
    SegmentedJournal journal = open();
    appendEntries(journal, 10);
    journal.deleteAfter(ENTRIES_PER_SEGMENT);
    assertThat(journal.getLastIndex()).isEqualTo(ENTRIES_PER_SEGMENT);
    appendEntries(journal, 2);
    assertThat(readIndexes(reader(journal))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    journal.deleteAfter(0);
    assertThat(journal.isEmpty()).isTrue();
    assertThat(journal.getFirstIndex()).isEqualTo(1);
    appendEntries(journal, 1);
    assertThat(readIndexes(reader(journal))).containsExactly(1L);
  }

  @Test
  void deleteAfterLowersTheFlushedIndexAndSurvivesReopen() {
    SegmentedJournal journal = open();
    appendEntries(journal, 9);
    journal.flush();
    assertThat(journal.getLastFlushedIndex()).isEqualTo(9);
    journal.deleteAfter(6);
    assertThat(journal.getLastFlushedIndex()).isEqualTo(6);
    journal.close();
    SegmentedJournal reopened = open();
    assertThat(reopened.getLastIndex()).isEqualTo(6);
    assertThat(readIndexes(reader(reopened))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }

  /** What a crash leaves: the files as they are while the journal is open (page cache included). */
  private Path crashImage(String name) throws Exception {
    Path copy = crashImages.resolve(name);
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (!file.getFileName().toString().endsWith(".lock")) {
          Files.copy(file, copy.resolve(file.getFileName()));
        }
      }
    }
    return copy;
  }

  @Test
  void reopenAfterAProcessCrashForcesEverySegmentItRecovered() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 2);
    journal.flush();
    journal.flush(); // idle: the record is exact, entries 1..2 are confirmed
    appendEntries(journal, 9); // 3..11: the rest of segment 1, then segments 2 and 3
    journal.publish(); // in the page cache only, as a killed process leaves them
    Path crashed = crashImage("crash");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();

    SegmentedJournal recovered =
        open(
            JournalConfig.builder(crashed)
                .segmentSizeBytes(SEGMENT_SIZE)
                .indexDensity(2)
                .meterRegistry(registry));

    // The open's flush vouches for 3..11, so it must have forced every one of them, including
    // those in the segments before the last (which a flush after open would otherwise skip).
    assertThat(recovered.getLastFlushedIndex()).isEqualTo(11);
    assertThat(registry.get("tern.journal.flush.bytes").summary().totalAmount())
        .isGreaterThanOrEqualTo(9.0 * FrameLayout.frameLength(DATA_LENGTH));
    assertThat(readIndexes(reader(recovered))).hasSize(11);
  }

  /** Writes a valid hint into a closed segment's descriptor, as a roll's seal would. */
  private void writeHint(long segmentId, long lastIndex, int entries) {
    Path file = directory.resolve("journal-" + segmentId + ".log");
    java.nio.MappedByteBuffer mapped = Segment.map(file, SEGMENT_SIZE);
    try {
      int end = SegmentDescriptor.LENGTH + entries * FrameLayout.frameLength(DATA_LENGTH);
      SegmentDescriptor.writeHint(
          new UnsafeBuffer(mapped),
          mapped.duplicate(),
          new Crc32c(),
          lastIndex,
          end,
          lastIndex * 10);
      mapped.force();
    } finally {
      org.agrona.IoUtil.unmap(mapped);
    }
  }

  @Test
  void aStaleHintFollowedByFramesIsNotTrusted() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 6); // segments 1-4, 5-6
    journal.flush();
    journal.close();
    // As left by a roll that failed after sealing segment 1 at entry 2, then appends 3 and 4.
    writeHint(1, 2, 2);

    SegmentedJournal reopened = open();

    assertThat(reopened.getLastIndex()).isEqualTo(6);
    assertThat(readIndexes(reader(reopened))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }

  @Test
  void aHintOnTheLastSegmentIsClearedOnceItIsTheWritersAgain() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 3);
    journal.flush();
    journal.close();
    writeHint(1, 3, 3); // sealed by a roll whose next segment was never created

    SegmentedJournal reopened = open();
    appendEntries(reopened, 1); // entry 4 fits in segment 1
    reopened.flush();
    reopened.close();

    java.nio.MappedByteBuffer mapped =
        Segment.map(directory.resolve("journal-1.log"), SEGMENT_SIZE);
    try {
      assertThat(
              SegmentDescriptor.hintLastIndex(
                  new UnsafeBuffer(mapped), mapped.duplicate(), new Crc32c()))
          .as("a hint saying 3 would hide entry 4 from the next open")
          .isEqualTo(SegmentDescriptor.NO_HINT);
    } finally {
      org.agrona.IoUtil.unmap(mapped);
    }
    assertThat(readIndexes(reader(open()))).containsExactly(1L, 2L, 3L, 4L);
  }

  @Test
  void aFlushRecordWrittenAfterReopenOutranksTheOlderOnes() throws Exception {
    SegmentedJournal journal = open();
    for (int i = 0; i < 3; i++) {
      appendEntries(journal, 1);
      journal.flush(); // records in segment 1; the newest claims entry 3
    }
    appendEntries(journal, 3); // rolls into segment 2, where the next records go
    journal.flush();
    journal.close();
    SegmentedJournal reopened = open();
    reopened.deleteAfter(1); // writes a lower record into segment 1, which must outrank its others
    Path crashed = crashImage("crash");

    SegmentedJournal recovered =
        open(JournalConfig.builder(crashed).segmentSizeBytes(SEGMENT_SIZE).indexDensity(2));

    assertThat(recovered.getLastIndex()).isEqualTo(1);
    assertThat(readIndexes(reader(recovered))).containsExactly(1L);
  }

  @Test
  void deleteAfterBelowTheFirstIndexIsRejected() {
    SegmentedJournal journal = open();
    appendEntries(journal, 12);
    journal.deleteUntil(9);
    assertThatThrownBy(() -> journal.deleteAfter(2))
        .isInstanceOf(JournalException.InvalidIndex.class)
        .hasMessageContaining("the journal starts at 9");
  }

  @Test
  void compactionKeepsAFlushRecordInASegmentThatStays() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 4);
    journal.flush();
    journal.flush(); // exact record (4, 4) in segment 1
    appendEntries(journal, 1); // rolls: segment 2 holds 5 and no record yet
    journal.deleteUntil(5); // segment 1, with the only record, goes

    java.nio.MappedByteBuffer mapped =
        Segment.map(directory.resolve("journal-2.log"), SEGMENT_SIZE);
    try {
      SegmentDescriptor.FlushRecord record =
          SegmentDescriptor.readFlushRecord(
              new UnsafeBuffer(mapped), mapped.duplicate(), new Crc32c());
      assertThat(record).as("a flush record in the surviving segment").isNotNull();
      assertThat(record.lastFlushedIndex()).isEqualTo(4);
    } finally {
      org.agrona.IoUtil.unmap(mapped);
    }
    // A crash now that loses the unflushed entry 5 still reopens at the compaction point.
    Path crashed = crashImage("crash");
    SegmentedJournal recovered =
        open(JournalConfig.builder(crashed).segmentSizeBytes(SEGMENT_SIZE).indexDensity(2));
    assertThat(recovered.getFirstIndex()).isEqualTo(5);
    assertThat(recovered.getLastFlushedIndex()).isEqualTo(4);
  }

  @Test
  void deleteUntilDropsWholeSegmentsOnly() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 14); // segments: 1-4, 5-8, 9-12, 13-14
    journal.deleteUntil(7);
    assertThat(journal.getFirstIndex()).isEqualTo(5);
    assertThat(segmentFiles()).isEqualTo(3);
    journal.deleteUntil(13);
    assertThat(journal.getFirstIndex()).isEqualTo(13);
    journal.deleteUntil(1_000);
    assertThat(journal.getFirstIndex()).as("the writer's segment stays").isEqualTo(13);
    assertThat(readIndexes(reader(journal))).containsExactly(13L, 14L);
  }

  @Test
  void readerOnACompactedSegmentIsToldAndCanSeekAgain() {
    SegmentedJournal journal = open();
    appendEntries(journal, 14);
    JournalReader reader = reader(journal);
    assertThat(reader.next().index()).isEqualTo(1);
    journal.deleteUntil(9);
    assertThatThrownBy(reader::hasNext)
        .isInstanceOf(JournalException.PositionDeleted.class)
        .hasMessageContaining("compacted")
        .hasMessageContaining("starts at 9");
    assertThat(reader.seekToFirst()).isEqualTo(9);
    assertThat(readIndexes(reader)).containsExactly(9L, 10L, 11L, 12L, 13L, 14L);
  }

  @Test
  void readerAtTheEndOfACompactedSegmentContinues() {
    SegmentedJournal journal = open();
    appendEntries(journal, 10);
    JournalReader reader = reader(journal);
    for (int i = 0; i < ENTRIES_PER_SEGMENT; i++) {
      reader.next();
    }
    journal.deleteUntil(5);
    assertThat(readIndexes(reader)).containsExactly(5L, 6L, 7L, 8L, 9L, 10L);
  }

  @Test
  void readerPastATruncationIsToldAndReaderBeforeItContinues() {
    SegmentedJournal journal = open();
    appendEntries(journal, 10);
    JournalReader ahead = reader(journal);
    JournalReader behind = reader(journal);
    for (int i = 0; i < 8; i++) {
      ahead.next();
    }
    behind.next();
    journal.deleteAfter(5);
    appendEntries(journal, 5); // new entries 6..10 replace the old ones
    assertThatThrownBy(ahead::next)
        .isInstanceOf(JournalException.PositionDeleted.class)
        .hasMessageContaining("removed by truncation after index 5");
    assertThat(ahead.seek(6)).isEqualTo(6);
    assertThat(readIndexes(ahead)).containsExactly(6L, 7L, 8L, 9L, 10L);
    assertThat(readIndexes(behind)).containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
  }

  @Test
  void resetRestartsAtTheGivenIndex() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 10);
    journal.flush();
    JournalReader reader = reader(journal);
    reader.next();
    journal.reset(100);
    assertThat(journal.isEmpty()).isTrue();
    assertThat(journal.getFirstIndex()).isEqualTo(100);
    assertThat(journal.getLastIndex()).isEqualTo(99);
    assertThat(journal.getLastFlushedIndex()).isEqualTo(99);
    assertThat(segmentFiles()).isEqualTo(1);
    assertThatThrownBy(reader::hasNext).isInstanceOf(JournalException.PositionDeleted.class);
    assertThat(journal.append(1, entry(100))).isEqualTo(100);
    assertThat(reader.seekToFirst()).isEqualTo(100);
    assertThat(readIndexes(reader)).containsExactly(100L);
    journal.close();
    SegmentedJournal reopened = open();
    assertThat(reopened.getFirstIndex()).isEqualTo(100);
    assertThat(readIndexes(reader(reopened))).containsExactly(100L);
  }

  @Test
  void flushIsDurableAcrossReopenAndSkipsWhenNothingIsNew() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    SegmentedJournal journal =
        open(
            JournalConfig.builder(directory)
                .segmentSizeBytes(SEGMENT_SIZE)
                .meterRegistry(registry));
    appendEntries(journal, 6);
    journal.flush();
    journal.flush();
    assertThat(journal.getLastFlushedIndex()).isEqualTo(6);
    // One flush at open (nothing to do, so not counted) and one real flush.
    assertThat(registry.get("tern.journal.flush.latency").timer().count()).isEqualTo(1);
    // Append latency is sampled: the first append and then one in APPEND_LATENCY_SAMPLE_EVERY.
    assertThat(registry.get("tern.journal.append.latency").timer().count()).isEqualTo(1);
    assertThat(registry.get("tern.journal.flush.bytes").summary().totalAmount()).isPositive();
    assertThat(registry.get("tern.journal.last.flushed.index").gauge().value()).isEqualTo(6);
    journal.close();
    SegmentedJournal reopened = open();
    assertThat(reopened.getLastFlushedIndex()).isEqualTo(6);
    assertThat(readIndexes(reader(reopened))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }

  @Test
  void reopenTrustsSealedSegmentsAndStillReadsThem() {
    SegmentedJournal journal = open();
    appendEntries(journal, 17);
    journal.close();
    SegmentedJournal reopened = open();
    assertThat(reopened.getFirstIndex()).isEqualTo(1);
    assertThat(reopened.getLastIndex()).isEqualTo(17);
    JournalReader reader = reader(reopened);
    assertThat(reader.seek(6)).isEqualTo(6);
    assertThat(reader.seekToAsqn(115)).isEqualTo(11);
    reader.seekToFirst();
    assertThat(readIndexes(reader)).hasSize(17);
    assertThatThrownBy(() -> reopened.append(170, entry(18)))
        .as("the last asqn is recovered on open")
        .isInstanceOf(JournalException.InvalidAsqn.class);
    assertThat(reopened.append(180, entry(18))).isEqualTo(18);
  }

  @Test
  void fullVerificationOpensTheSameJournal() {
    SegmentedJournal journal = open();
    appendEntries(journal, 17);
    journal.close();
    SegmentedJournal reopened =
        open(
            JournalConfig.builder(directory)
                .segmentSizeBytes(SEGMENT_SIZE)
                .openVerification(JournalConfig.OpenVerification.FULL));
    assertThat(readIndexes(reader(reopened))).hasSize(17);
  }

  @Test
  void madviseOptionsDoNotChangeBehaviour() {
    for (JournalConfig.Madvise advice : JournalConfig.Madvise.values()) {
      Path dir = directory.resolve(advice.name());
      SegmentedJournal journal =
          open(JournalConfig.builder(dir).segmentSizeBytes(SEGMENT_SIZE).madvise(advice));
      appendEntries(journal, 9);
      assertThat(readIndexes(reader(journal))).hasSize(9);
    }
  }

  @Test
  void usingAClosedJournalOrReaderFailsClearly() {
    SegmentedJournal journal = open();
    JournalReader reader = journal.openReader();
    reader.close();
    assertThatThrownBy(reader::hasNext)
        .isInstanceOf(JournalException.Closed.class)
        .hasMessageContaining("reader is closed");
    journal.close();
    assertThatThrownBy(() -> journal.append(1, entry(1)))
        .isInstanceOf(JournalException.Closed.class)
        .hasMessageContaining(directory.toString());
  }

  @Test
  void refusesASecondOpenOfTheSameJournal() {
    SegmentedJournal journal = open();
    appendEntries(journal, 1);
    assertThatThrownBy(this::open)
        .isInstanceOf(JournalException.class)
        .hasMessageContaining("already open");
    journal.close();
    assertThat(open().getLastIndex()).as("the lock is released on close").isEqualTo(1);
  }

  @Test
  void aResetThatCannotCreateItsSegmentLeavesTheJournalAsItWas() {
    // Room for the first segment only: the disk is full from then on (the spare that open
    // prepares in the background fails too).
    java.util.concurrent.atomic.AtomicLong freeBytes = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicInteger checks =
        new java.util.concurrent.atomic.AtomicInteger();
    JournalConfig config =
        JournalConfig.builder(directory)
            .segmentSizeBytes(SEGMENT_SIZE)
            .indexDensity(2)
            .fitMaxEntrySizeToSegment()
            .build();
    SegmentedJournal journal =
        SegmentedJournal.open(
            config,
            new SegmentFiles(
                directory,
                "journal",
                () -> checks.getAndIncrement() == 0 ? Long.MAX_VALUE : freeBytes.get()));
    toClose.add(journal);
    appendEntries(journal, 3);
    journal.flush();

    assertThatThrownBy(() -> journal.reset(100))
        .isInstanceOf(JournalException.OutOfDiskSpace.class);

    assertThat(journal.getFirstIndex()).isEqualTo(1);
    assertThat(journal.getLastIndex()).isEqualTo(3);
    assertThat(readIndexes(reader(journal))).containsExactly(1L, 2L, 3L);
    appendEntries(journal, 1); // still fits the writer's segment
    journal.flush();
    assertThat(journal.getLastFlushedIndex()).isEqualTo(4);
    freeBytes.set(Long.MAX_VALUE); // space is back: the reset goes through
    journal.reset(100);
    assertThat(journal.getFirstIndex()).isEqualTo(100);
    assertThat(journal.append(1000, entry(100))).isEqualTo(100);
  }

  @Test
  void refusesToCreateASegmentWithoutFreeSpace() {
    JournalConfig config =
        JournalConfig.builder(directory)
            .segmentSizeBytes(SEGMENT_SIZE)
            .freeDiskSpaceReserveBytes(Long.MAX_VALUE / 2)
            .fitMaxEntrySizeToSegment()
            .build();
    assertThatThrownBy(() -> SegmentedJournal.open(config))
        .isInstanceOf(JournalException.OutOfDiskSpace.class)
        .hasMessageContaining("Not enough free disk space in " + directory);
  }

  @Test
  void aFileNamedLikeASegmentWithAnIdBeyondALongIsIgnored() throws Exception {
    SegmentedJournal journal = open();
    appendEntries(journal, 6);
    journal.close();
    toClose.remove(journal);
    Path stray = directory.resolve("journal-99999999999999999999.log");
    Files.write(stray, new byte[] {1, 2, 3});

    SegmentedJournal reopened = open();

    assertThat(reopened.getLastIndex()).isEqualTo(6);
    assertThat(readIndexes(reader(reopened))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(stray).as("left alone").exists();
  }
}
