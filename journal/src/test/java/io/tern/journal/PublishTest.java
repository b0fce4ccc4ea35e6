package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PWRITE mode collects appended frames in the writer's buffer: other threads see them once
 * published, the writer at once.
 */
class PublishTest {
  @TempDir Path directory;

  private final ExecutorService other = Executors.newSingleThreadExecutor();

  @AfterEach
  void stop() {
    other.shutdownNow();
  }

  private SegmentedJournal open() {
    return SegmentedJournal.open(
        JournalConfig.builder(directory)
            .segmentSizeBytes(4 * 1024 * 1024)
            .fitMaxEntrySizeToSegment()
            .build());
  }

  @Test
  void otherThreadsSeeAppendedEntriesOncePublished() throws Exception {
    try (SegmentedJournal journal = open();
        JournalReader reader = journal.openReader()) {
      journal.append(1, new UnsafeBuffer(new byte[100]));
      journal.append(2, new UnsafeBuffer(new byte[100]));
      assertThat(journal.getLastIndex()).isEqualTo(2);
      assertThat(onOtherThread(reader::hasNext)).as("unpublished").isFalse();
      // A flush on another thread makes durable only what was published: nothing here.
      onOtherThread(
          () -> {
            journal.flush();
            return null;
          });
      assertThat(journal.getLastFlushedIndex()).isZero();

      journal.publish();
      assertThat(onOtherThread(reader::hasNext)).isTrue();
      assertThat(onOtherThread(() -> reader.next().index())).isEqualTo(1);
      onOtherThread(
          () -> {
            journal.flush();
            return null;
          });
      assertThat(journal.getLastFlushedIndex()).isEqualTo(2);
    }
  }

  @Test
  void seekToAsqnOnAnotherThreadFindsTheFloorAmongPublishedEntries() throws Exception {
    try (SegmentedJournal journal =
            SegmentedJournal.open(
                JournalConfig.builder(directory)
                    .segmentSizeBytes(4 * 1024 * 1024)
                    .indexDensity(2)
                    .fitMaxEntrySizeToSegment()
                    .build());
        JournalReader reader = journal.openReader()) {
      for (long index = 1; index <= 3; index++) {
        journal.append(index * 10, new UnsafeBuffer(new byte[100]));
      }
      journal.publish();
      for (long index = 4; index <= 8; index++) {
        journal.append(index * 10, new UnsafeBuffer(new byte[100])); // staged, with index points
      }

      long found =
          onOtherThread(
              () -> {
                reader.seekToAsqn(1_000);
                return reader.hasNext() ? reader.next().index() : -1L;
              });

      assertThat(found).as("the published entry with the largest asqn").isEqualTo(3);
    }
  }

  @Test
  void anInterruptedWriterOrFlusherDoesNotBreakTheJournal() throws Exception {
    try (SegmentedJournal journal = open();
        JournalReader reader = journal.openReader()) {
      journal.append(1, new UnsafeBuffer(new byte[100]));
      Thread.currentThread().interrupt(); // e.g. an executor shutting down, or a stray interrupt
      try {
        journal.append(2, new UnsafeBuffer(new byte[100]));
        journal.publish(); // a pwrite by an interrupted thread closes an interruptible channel
        assertThat(Thread.currentThread().isInterrupted()).as("the flag is kept").isTrue();
      } finally {
        Thread.interrupted();
      }
      // A flush on another, interrupted thread writes its flush record through the same channel.
      onOtherThread(
          () -> {
            Thread.currentThread().interrupt();
            try {
              journal.flush();
            } finally {
              Thread.interrupted();
            }
            return null;
          });
      journal.append(3, new UnsafeBuffer(new byte[100]));
      journal.flush();
      assertThat(journal.getLastFlushedIndex()).isEqualTo(3);
      int read = 0;
      while (reader.hasNext()) {
        reader.next();
        read++;
      }
      assertThat(read).isEqualTo(3);
    }
  }

  @Test
  void theWritersOwnReadsAndFlushesSeeEverything() {
    try (SegmentedJournal journal = open();
        JournalReader reader = journal.openReader()) {
      journal.append(1, new UnsafeBuffer(new byte[] {7}));
      assertThat(reader.hasNext()).isTrue();
      assertThat(reader.next().data().getByte(0)).isEqualTo((byte) 7);
      journal.append(2, new UnsafeBuffer(new byte[] {8}));
      journal.flush();
      assertThat(journal.getLastFlushedIndex()).isEqualTo(2);
    }
  }

  @Test
  void closeWritesWhatWasStaged() {
    try (SegmentedJournal journal = open()) {
      for (int i = 1; i <= 10; i++) {
        journal.append(i, new UnsafeBuffer(new byte[] {(byte) i}));
      }
    }
    try (SegmentedJournal journal = open();
        JournalReader reader = journal.openReader()) {
      assertThat(journal.getLastIndex()).isEqualTo(10);
      for (int i = 1; i <= 10; i++) {
        assertThat(reader.next().data().getByte(0)).isEqualTo((byte) i);
      }
    }
  }

  @Test
  void entriesBeyondTheBufferAndOneLargerThanItArriveWhole() throws Exception {
    int small = 1000;
    int smallEntries = 3 * FrameStaging.WRITE_BUFFER_BYTES / small;
    byte[] large = new byte[FrameStaging.WRITE_BUFFER_BYTES + 1];
    large[large.length - 1] = 42;
    try (SegmentedJournal journal = open();
        JournalReader reader = journal.openReader()) {
      byte[] entry = new byte[small];
      for (int i = 1; i <= smallEntries; i++) {
        entry[small - 1] = (byte) i;
        journal.append(i, new UnsafeBuffer(entry));
      }
      journal.append(smallEntries + 1, new UnsafeBuffer(large));
      journal.append(smallEntries + 2, new UnsafeBuffer(entry));
      journal.publish();
      onOtherThread(
          () -> {
            for (int i = 1; i <= smallEntries; i++) {
              JournalRecord record = reader.next();
              assertThat(record.index()).isEqualTo(i);
              assertThat(record.data().getByte(small - 1)).isEqualTo((byte) i);
            }
            JournalRecord record = reader.next();
            assertThat(record.data().capacity()).isEqualTo(large.length);
            assertThat(record.data().getByte(large.length - 1)).isEqualTo((byte) 42);
            assertThat(reader.next().index()).isEqualTo(smallEntries + 2);
            assertThat(reader.hasNext()).isFalse();
            return null;
          });
    }
  }

  @Test
  void truncationWritesStagedFramesFirstAndResetDropsThem() {
    try (SegmentedJournal journal = open()) {
      for (int i = 1; i <= 5; i++) {
        journal.append(i, new UnsafeBuffer(new byte[] {(byte) i}));
      }
      journal.deleteAfter(3);
      assertThat(journal.getLastIndex()).isEqualTo(3);
      journal.append(4, new UnsafeBuffer(new byte[] {44}));
      try (JournalReader reader = journal.openReader()) {
        reader.seek(3);
        assertThat(reader.next().data().getByte(0)).isEqualTo((byte) 3);
        assertThat(reader.next().data().getByte(0)).isEqualTo((byte) 44);
      }
      journal.append(5, new UnsafeBuffer(new byte[] {55}));
      journal.reset(100);
      assertThat(journal.getLastIndex()).isEqualTo(99);
      journal.append(6, new UnsafeBuffer(new byte[] {66}));
    }
    try (SegmentedJournal journal = open();
        JournalReader reader = journal.openReader()) {
      assertThat(journal.getFirstIndex()).isEqualTo(100);
      assertThat(reader.next().data().getByte(0)).isEqualTo((byte) 66);
      assertThat(reader.hasNext()).isFalse();
    }
  }

  private <T> T onOtherThread(java.util.concurrent.Callable<T> task) throws Exception {
    return CompletableFuture.supplyAsync(
            () -> {
              try {
                return task.call();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            },
            other)
        .get();
  }
}
