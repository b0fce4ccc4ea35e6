package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code journal.preallocation = zero-on-flush}, the default: flushes write zeros ahead. */
class ZeroOnFlushTest {
  private static final int SEGMENT_BYTES = 32 * 1024 * 1024;
  private static final int PAGE_FLUSH_BYTES = 16 * 1024;
  private static final int MAX_PAYLOAD_BYTES = 20 * 1024;
  private static final long SEED = 42;

  @TempDir Path directory;

  @Test
  void flushesOfAPageOrMoreWriteAtMostOneChunkOfZerosEach() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    List<Double> zerosPerFlush = new ArrayList<>();
    try (SegmentedJournal journal = SegmentedJournal.open(config(registry).build())) {
      for (int i = 1; i <= 120; i++) {
        double before = zeroBytes(registry);
        journal.append(i, new UnsafeBuffer(new byte[PAGE_FLUSH_BYTES]));
        journal.flush();
        zerosPerFlush.add(zeroBytes(registry) - before);
      }
    }
    // The share of page-sized flushes starts at 0 and needs a few flushes to pass 3/4; from then
    // on the lead builds up one refill per flush, so no single flush writes more than that.
    int firstZeroing = -1;
    for (int i = 0; i < zerosPerFlush.size(); i++) {
      if (zerosPerFlush.get(i) > 0) {
        firstZeroing = i;
        break;
      }
    }
    assertThat(firstZeroing).isBetween(10, 40);
    assertThat(zerosPerFlush).containsOnly(0.0, (double) ZeroOnFlush.REFILL_BYTES);
    assertThat(zerosPerFlush.get(firstZeroing + 1)).isEqualTo(ZeroOnFlush.REFILL_BYTES);
  }

  /**
   * The zeros go through the channel the journal writes its frames with: a flushing thread whose
   * interrupt flag is set must not close it (a FileChannel closes itself for every thread then).
   */
  @Test
  void anInterruptedFlushingThreadWritesZerosAndLeavesTheJournalWritable() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (SegmentedJournal journal = SegmentedJournal.open(config(registry).build())) {
      long index = 0;
      while (zeroBytes(registry) == 0) {
        index = journal.append(index + 1, new UnsafeBuffer(payload(index + 1, PAGE_FLUSH_BYTES)));
        journal.flush();
        assertThat(index).as("zeros written ahead within 100 page-sized flushes").isLessThan(100);
      }
      double zerosBefore = zeroBytes(registry);

      for (int i = 0; i < 64; i++) {
        index = journal.append(index + 1, new UnsafeBuffer(payload(index + 1, PAGE_FLUSH_BYTES)));
        Thread.currentThread().interrupt();
        journal.flush();
        assertThat(Thread.interrupted()).as("the interrupt is kept for its owner").isTrue();
      }

      assertThat(zeroBytes(registry)).isGreaterThan(zerosBefore);
      try (JournalReader reader = journal.openReader()) {
        for (long expected = 1; expected <= index; expected++) {
          assertThat(reader.hasNext()).isTrue();
          JournalRecord record = reader.next();
          byte[] read = new byte[record.data().capacity()];
          record.data().getBytes(0, read);
          assertThat(read).isEqualTo(payload(expected, PAGE_FLUSH_BYTES));
        }
      }
    } finally {
      Thread.interrupted();
    }
  }

  private static byte[] payload(long index, int length) {
    byte[] payload = new byte[length];
    Arrays.fill(payload, (byte) index);
    return payload;
  }

  @Test
  void theLeadIsToppedUpOnceTheFramesHaveUsedARefillOfIt() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    int flushesWithZeros = 0;
    double framesBytes = 0;
    try (SegmentedJournal journal = SegmentedJournal.open(config(registry).build())) {
      // 1,500 x 16 KiB = 24 MiB of frames: three times the largest lead, within one segment.
      for (int i = 1; i <= 1_500; i++) {
        double before = zeroBytes(registry);
        journal.append(i, new UnsafeBuffer(new byte[PAGE_FLUSH_BYTES]));
        journal.flush();
        framesBytes += FrameLayout.frameLength(PAGE_FLUSH_BYTES);
        if (zeroBytes(registry) > before) {
          flushesWithZeros++;
        }
      }
    }
    // Zeros stay ahead of the frames: about the frames' bytes plus one lead, never far more.
    assertThat(zeroBytes(registry))
        .isBetween(
            framesBytes, framesBytes + ZeroOnFlush.MAX_LEAD_BYTES + ZeroOnFlush.REFILL_BYTES);
    // Each refill is one chunk, so about one flush in REFILL_BYTES / 16 KiB = 16 writes zeros.
    double refills = zeroBytes(registry) / ZeroOnFlush.REFILL_BYTES;
    assertThat((double) flushesWithZeros).isEqualTo(refills);
    assertThat(flushesWithZeros).isBetween(1_500 / 16, (1_500 + 512) / 16 + 2);
  }

  /** Flushes larger than a refill outrun the zeros: they stop for the segment, and say so once. */
  @Test
  void flushesLargerThanARefillOvertakeTheZerosWhichStopForTheSegment() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    int flushBytes = 2 * ZeroOnFlush.REFILL_BYTES;
    double zerosWhenOvertaken = -1;
    try (SegmentedJournal journal = SegmentedJournal.open(config(registry).build())) {
      for (int i = 1; i <= 60; i++) { // 30 MiB, within the first 32 MiB segment
        journal.append(i, new UnsafeBuffer(new byte[flushBytes]));
        journal.flush();
        if (zerosWhenOvertaken < 0 && overtaken(registry) > 0) {
          zerosWhenOvertaken = zeroBytes(registry);
        }
      }
    }
    assertThat(zerosWhenOvertaken).as("zeros written before they were overtaken").isPositive();
    assertThat(overtaken(registry)).isEqualTo(1);
    assertThat(zeroBytes(registry)).isEqualTo(zerosWhenOvertaken);
  }

  @Test
  void flushesSmallerThanAPageGetNoZeros() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (SegmentedJournal journal = SegmentedJournal.open(config(registry).build())) {
      for (int i = 1; i <= 200; i++) {
        journal.append(i, new UnsafeBuffer(new byte[1024]));
        journal.flush();
      }
    }
    assertThat(zeroBytes(registry)).isZero();
  }

  /** The default where it applies; a journal without preallocated segments has plain fallocate. */
  @Test
  void isTheDefaultWithPreallocatedSegmentsOnly() {
    assertThat(JournalConfig.builder(directory).build().preallocation())
        .isEqualTo(JournalConfig.Preallocation.ZERO_ON_FLUSH);
    assertThat(JournalConfig.builder(directory).preallocateSegments(false).build().preallocation())
        .isEqualTo(JournalConfig.Preallocation.FALLOCATE);
    assertThatThrownBy(
            () ->
                JournalConfig.builder(directory)
                    .preallocateSegments(false)
                    .preallocation(JournalConfig.Preallocation.ZERO_ON_FLUSH)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs preallocated segments");
  }

  /**
   * A writer appends and publishes while another thread flushes (and so writes zeros) as fast as it
   * can, over many rolls of small segments; the writer stays at most a few entries ahead of the
   * flushes, so that flushes (and their zeros) run between its appends all the time. Any zero
   * written over a frame fails its checksum or loses the entry when everything is read back after a
   * reopen.
   */
  @ParameterizedTest
  @ValueSource(ints = {3 * 1024 * 1024, 8 * 1024 * 1024})
  void zerosWrittenByAnotherThreadsFlushesNeverOverwriteFrames(int segmentBytes) throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    JournalConfig config =
        config(registry).segmentSizeBytes(segmentBytes).fitMaxEntrySizeToSegment().build();
    int entries = 3_000; // about 36 MiB
    int maxUnflushedEntries = 3;
    try (SegmentedJournal journal = SegmentedJournal.open(config)) {
      AtomicBoolean writing = new AtomicBoolean(true);
      CompletableFuture<Void> flusher =
          CompletableFuture.runAsync(
              () -> {
                while (writing.get()) {
                  journal.flush();
                }
              });
      Random lengths = new Random(SEED);
      byte[] payload = new byte[MAX_PAYLOAD_BYTES];
      for (int i = 1; i <= entries; i++) {
        int length = payloadLength(lengths);
        Arrays.fill(payload, 0, length, (byte) i);
        journal.append(i, new UnsafeBuffer(payload, 0, length));
        journal.publish();
        while (journal.getLastFlushedIndex() < i - maxUnflushedEntries && !flusher.isDone()) {
          Thread.onSpinWait();
        }
      }
      writing.set(false);
      flusher.get();
    }
    assertThat(zeroBytes(registry)).as("zeros written").isPositive();
    Random lengths = new Random(SEED);
    try (SegmentedJournal journal = SegmentedJournal.open(config);
        JournalReader reader = journal.openReader()) {
      assertThat(journal.getLastIndex()).isEqualTo(entries);
      reader.seekToFirst();
      for (int i = 1; i <= entries; i++) {
        int length = payloadLength(lengths);
        JournalRecord record = reader.next();
        assertThat(record.index()).isEqualTo(i);
        assertThat(record.data().capacity()).as("entry %d", i).isEqualTo(length);
        assertThat(record.data().getByte(0)).as("entry %d", i).isEqualTo((byte) i);
        assertThat(record.data().getByte(length - 1)).as("entry %d", i).isEqualTo((byte) i);
      }
      assertThat(reader.hasNext()).isFalse();
    }
  }

  /** A page or more, so that the flushes write zeros. */
  private static int payloadLength(Random random) {
    return 4096 + random.nextInt(MAX_PAYLOAD_BYTES - 4096);
  }

  private JournalConfig.Builder config(SimpleMeterRegistry registry) {
    return JournalConfig.builder(directory)
        .segmentSizeBytes(SEGMENT_BYTES)
        .preallocation(JournalConfig.Preallocation.ZERO_ON_FLUSH)
        .meterRegistry(registry);
  }

  private static double overtaken(SimpleMeterRegistry registry) {
    var counter = registry.find("tern.journal.zero.fill.overtaken").counter();
    return counter == null ? 0 : counter.count();
  }

  private static double zeroBytes(SimpleMeterRegistry registry) {
    var counter = registry.find("tern.journal.zero.fill.bytes").counter();
    return counter == null ? 0 : counter.count();
  }
}
