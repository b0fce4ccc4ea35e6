package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a flush request wakes the flush loop; the loop here only counts wake-ups. */
class FlusherTest {
  @TempDir Path directory;

  /** A loop that never runs by itself: the test takes its turns. */
  private static final class CountingLoop extends DutyLoop {
    final AtomicInteger wakes = new AtomicInteger();

    CountingLoop() {
      super("counting", MAX_PARK_NS);
    }

    @Override
    void wake() {
      wakes.incrementAndGet();
    }

    @Override
    boolean isLoopThread() {
      return true;
    }

    @Override
    boolean isAlive() {
      return true;
    }

    @Override
    public void close() {}
  }

  private static void append(SegmentedJournal journal, int count) {
    for (int i = 0; i < count; i++) {
      journal.append(SegmentedJournal.ASQN_IGNORE, new UnsafeBuffer(new byte[16]));
    }
    journal.publish();
  }

  @Test
  void aRequestBelowAnEarlierOneStillWakesTheLoopAfterATruncation() {
    CountingLoop loop = new CountingLoop();
    try (SegmentedJournal journal =
        SegmentedJournal.open(JournalConfig.builder(directory).build())) {
      AtomicInteger flushed = new AtomicInteger();
      Flusher flusher = new Flusher(loop, journal, 0, flushed::incrementAndGet);
      int wakesAtStart = loop.wakes.get();

      append(journal, 20);
      flusher.request(20);
      assertThat(loop.wakes.get()).isEqualTo(wakesAtStart + 1);
      assertThat(flusher.doWork(System.nanoTime())).isEqualTo(1);
      assertThat(journal.getLastFlushedIndex()).isEqualTo(20);

      // A deposed leader's tail is replaced: the new entries are below the last request.
      journal.deleteAfter(10);
      append(journal, 5);
      flusher.request(15);
      assertThat(loop.wakes.get())
          .as("a request for unflushed entries must wake the loop, not wait for its safety net")
          .isEqualTo(wakesAtStart + 2);
      assertThat(flusher.doWork(System.nanoTime())).isEqualTo(1);
      assertThat(journal.getLastFlushedIndex()).isEqualTo(15);

      flusher.request(12); // covered by the last flush
      assertThat(loop.wakes.get()).isEqualTo(wakesAtStart + 2);
      assertThat(flushed.get()).isEqualTo(2);

      // Raft repeats its request every round until the flush lands: one wake-up is enough.
      append(journal, 1);
      flusher.request(16);
      flusher.request(16);
      flusher.request(16);
      assertThat(loop.wakes.get()).isEqualTo(wakesAtStart + 3);
    }
  }

  @Test
  void theSameRequestAfterATruncationWakesTheLoop() {
    CountingLoop loop = new CountingLoop();
    try (SegmentedJournal journal =
        SegmentedJournal.open(JournalConfig.builder(directory).build())) {
      Flusher flusher = new Flusher(loop, journal, 0, () -> {});
      append(journal, 20);
      flusher.request(20);
      assertThat(flusher.doWork(System.nanoTime())).isEqualTo(1);
      int wakesAfterFlush = loop.wakes.get();

      // A new leader replaces entries 11-20 with 10 others: the same last index, unflushed.
      journal.deleteAfter(10);
      append(journal, 10);
      flusher.request(20);

      assertThat(loop.wakes.get())
          .as("the loop flushed index 20 once and parked: it must hear of the new entries")
          .isEqualTo(wakesAfterFlush + 1);
      assertThat(flusher.doWork(System.nanoTime())).isEqualTo(1);
      assertThat(journal.getLastFlushedIndex()).isEqualTo(20);
      flusher.request(20);
      assertThat(loop.wakes.get()).as("covered now").isEqualTo(wakesAfterFlush + 1);
    }
  }
}
