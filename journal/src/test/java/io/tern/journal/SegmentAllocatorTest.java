package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.micrometer.core.instrument.Tags;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spare segment's page warming never holds up the writer, and covers what the writer needs at
 * its pace.
 */
class SegmentAllocatorTest {
  private static final int SEGMENT_BYTES = 1024 * 1024;
  private static final int PAGE_BYTES = 4096;
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;

  /** The allocator's clock: it reads the writer's pace from it, and tests move it. */
  private final AtomicLong nanoClock = new AtomicLong();

  /** Pages the warming was about to read, in order; a new file starts at offset 0. */
  private final List<Integer> warmedOffsets = new CopyOnWriteArrayList<>();

  private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
  private Thread.UncaughtExceptionHandler previousHandler;

  @BeforeEach
  void catchAllocatorFailures() {
    // An assertion failing on the allocator's thread would otherwise only be printed.
    previousHandler = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
  }

  @AfterEach
  void restoreHandler() {
    Thread.setDefaultUncaughtExceptionHandler(previousHandler);
  }

  @Test
  void takingTheSpareDoesNotWaitForItsWarming() throws Exception {
    CountDownLatch warmingPaused = new CountDownLatch(1);
    CountDownLatch releaseWarming = new CountDownLatch(1);
    AtomicInteger files = new AtomicInteger();
    SegmentAllocator allocator =
        allocator(
            offset -> {
              warmedOffsets.add(offset);
              if (offset == 0 && files.incrementAndGet() == 1) {
                // The first spare: pause the warming at its first page until the test says so.
                warmingPaused.countDown();
                await(releaseWarming);
              }
            });
    try {
      allocator.prepareSpare();
      assertThat(warmingPaused.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

      Path first = dir.resolve("journal-1.log");
      assertTimeoutPreemptively(WAIT, () -> allocator.takeSpare(first));
      // The writer fills the file while its warming is still under way.
      writeOnes(first, PAGE_BYTES);
      releaseWarming.countDown();

      Path second = dir.resolve("journal-2.log");
      assertTimeoutPreemptively(WAIT, () -> allocator.takeSpare(second));
      assertThat(Files.size(second)).isEqualTo(SEGMENT_BYTES);
    } finally {
      releaseWarming.countDown();
      allocator.close();
    }
    // The first file's warming stopped at the page where it was paused.
    assertThat(warmedOffsets.subList(0, 2)).containsExactly(0, 0);
    assertThat(uncaught).isEmpty();
  }

  @Test
  void aSpareNobodyTakesIsWarmedWhole() throws Exception {
    CountDownLatch lastPage = new CountDownLatch(1);
    SegmentAllocator allocator =
        allocator(
            offset -> {
              warmedOffsets.add(offset);
              if (offset == SEGMENT_BYTES - PAGE_BYTES) {
                lastPage.countDown();
              }
            });
    try {
      allocator.prepareSpare();
      assertThat(lastPage.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    } finally {
      allocator.close();
    }
    assertThat(warmedOffsets).hasSize(SEGMENT_BYTES / PAGE_BYTES);
    assertThat(uncaught).isEmpty();
  }

  @Test
  void closeStopsAWarmingUnderWay() throws Exception {
    CountDownLatch warmingPaused = new CountDownLatch(1);
    CountDownLatch releaseWarming = new CountDownLatch(1);
    AtomicBoolean pausedOnce = new AtomicBoolean();
    SegmentAllocator allocator =
        allocator(
            offset -> {
              warmedOffsets.add(offset);
              if (offset == PAGE_BYTES && pausedOnce.compareAndSet(false, true)) {
                warmingPaused.countDown();
                await(releaseWarming);
              }
            });
    allocator.prepareSpare();
    assertThat(warmingPaused.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    Thread closer = new Thread(allocator::close);
    closer.start();
    // close() marks the warming stopped, then waits for the thread; only then may it go on.
    Awaitility.await()
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(1))
        .until(() -> closer.getState() == Thread.State.TIMED_WAITING || !closer.isAlive());
    releaseWarming.countDown();
    closer.join(WAIT.toMillis());
    assertThat(closer.isAlive()).isFalse();
    assertThat(warmedOffsets).containsExactly(0, PAGE_BYTES);
    assertThat(uncaught).isEmpty();
  }

  /**
   * A journal closed by an interrupted thread must still wait for its allocator: a spare created
   * after close returned would land in a directory the caller may be deleting.
   */
  @Test
  void anInterruptedCloseStillWaitsForTheAllocatorAndKeepsTheFlag() throws Exception {
    CountDownLatch warmingPaused = new CountDownLatch(1);
    CountDownLatch releaseWarming = new CountDownLatch(1);
    AtomicBoolean pausedOnce = new AtomicBoolean();
    SegmentAllocator allocator =
        allocator(
            offset -> {
              if (pausedOnce.compareAndSet(false, true)) {
                warmingPaused.countDown();
                await(releaseWarming);
              }
            });
    allocator.prepareSpare();
    assertThat(warmingPaused.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    AtomicBoolean flagKept = new AtomicBoolean();
    Thread closer =
        new Thread(
            () -> {
              Thread.currentThread().interrupt();
              allocator.close();
              flagKept.set(Thread.currentThread().isInterrupted());
            });
    closer.start();
    Awaitility.await("close to wait for the allocator's thread")
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(1))
        .until(() -> closer.getState() == Thread.State.TIMED_WAITING);
    releaseWarming.countDown();
    closer.join(WAIT.toMillis());
    assertThat(closer.isAlive()).isFalse();
    assertThat(flagKept).as("the interrupt flag is kept").isTrue();
    assertThat(uncaught).isEmpty();
  }

  @Test
  void warmBytesCoverWhatTheWriterWritesInTheNextSecondAtItsPace() {
    long segment = 32L * 1024 * 1024;
    long second = TimeUnit.SECONDS.toNanos(1);
    assertThat(SegmentAllocator.warmBytes(segment, second / 10)).isEqualTo(segment);
    assertThat(SegmentAllocator.warmBytes(segment, second)).isEqualTo(segment);
    // A Raft journal at about 1 MB/s: one second's worth, whole pages.
    assertThat(SegmentAllocator.warmBytes(segment, 32 * second)).isEqualTo(1024 * 1024);
    assertThat(SegmentAllocator.warmBytes(segment, 30 * second))
        .isBetween(1024L * 1024, 1024L * 1024 + 100 * 1024)
        .matches(bytes -> bytes % PAGE_BYTES == 0, "whole pages");
    assertThat(SegmentAllocator.warmBytes(segment, 100_000 * second)).isEqualTo(PAGE_BYTES);
  }

  @Test
  void aSpareIsWarmedAtTheWritersPaceOfTheSegmentBefore() throws Exception {
    int segmentBytes = 4 * 1024 * 1024;
    List<Integer> warmedPerFile = new CopyOnWriteArrayList<>();
    SegmentAllocator allocator =
        allocator(
            segmentBytes,
            offset -> {
              if (offset == 0) {
                warmedPerFile.add(0);
              }
              int last = warmedPerFile.size() - 1;
              warmedPerFile.set(last, warmedPerFile.get(last) + 1);
            });
    try {
      allocator.prepareSpare(); // at open: the pace is unknown
      awaitIdle(allocator);
      allocator.takeSpare(dir.resolve("journal-1.log")); // the first taken after open: unknown
      awaitIdle(allocator);
      allocator.takeSpare(dir.resolve("journal-2.log")); // filled at once: a fast writer
      awaitIdle(allocator);
      // The writer's pace is measured from how long a segment took: this one, 1.5 s.
      nanoClock.addAndGet(1_500_000_000L);
      allocator.takeSpare(dir.resolve("journal-3.log")); // filled in 1.5 s or more
      awaitIdle(allocator);
    } finally {
      allocator.close();
    }
    int initialPages = SegmentAllocator.INITIAL_WARM_BYTES / PAGE_BYTES;
    assertThat(warmedPerFile).hasSize(4);
    assertThat(warmedPerFile.subList(0, 2)).containsExactly(initialPages, initialPages);
    assertThat(warmedPerFile.get(2)).isEqualTo(segmentBytes / PAGE_BYTES);
    // At most two thirds: what the writer, at its pace, writes in a second.
    assertThat(warmedPerFile.get(3))
        .isPositive()
        .isLessThanOrEqualTo(segmentBytes * 2 / 3 / PAGE_BYTES);
    assertThat(uncaught).isEmpty();
  }

  /** Waits until the allocator's thread has done everything queued before. */
  private static void awaitIdle(SegmentAllocator allocator) throws InterruptedException {
    CountDownLatch idle = new CountDownLatch(1);
    allocator.executor().execute(idle::countDown);
    assertThat(idle.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
  }

  private SegmentAllocator allocator(IntConsumer beforeWarmingPage) {
    return allocator(SEGMENT_BYTES, beforeWarmingPage);
  }

  private SegmentAllocator allocator(int segmentBytes, IntConsumer beforeWarmingPage) {
    JournalConfig config =
        JournalConfig.builder(dir)
            .segmentSizeBytes(segmentBytes)
            .fitMaxEntrySizeToSegment()
            .freeDiskSpaceReserveBytes(0)
            .build();
    return new SegmentAllocator(
        new SegmentFiles(dir, config.name()),
        config,
        new JournalMetrics(null, Tags.empty()),
        new AtomicBoolean(),
        beforeWarmingPage,
        nanoClock::get);
  }

  private static void writeOnes(Path file, int offset) throws IOException {
    ByteBuffer ones = ByteBuffer.allocate(PAGE_BYTES);
    while (ones.hasRemaining()) {
      ones.put((byte) 1);
    }
    ones.flip();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.write(ones, offset);
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
