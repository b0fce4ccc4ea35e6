package io.tern.benchmark.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class StallWatchTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final AtomicLong clockNs = new AtomicLong(1_000 * MS);
  private long nextSleepNs = StallWatch.TICK_NS;
  private final StallWatch watch =
      StallWatch.manual(clockNs::get, ns -> clockNs.addAndGet(nextSleepNs));

  private void sleepFor(long ns) {
    nextSleepNs = ns;
    watch.checkOnce();
  }

  @Test
  void wakeUpsLessThanTheThresholdLateAreNoStall() {
    sleepFor(StallWatch.TICK_NS);
    sleepFor(StallWatch.TICK_NS + StallWatch.STALL_THRESHOLD_NS - 1);

    StallWatch.Stalls stalls = watch.snapshot();
    assertEquals(0, stalls.count());
    assertFalse(stalls.overlaps(0, Long.MAX_VALUE));
  }

  @Test
  void recordsALateWakeUpAsTheTimeTheThreadShouldHaveRun() {
    long startNs = clockNs.get();
    sleepFor(StallWatch.TICK_NS); // on time
    sleepFor(StallWatch.TICK_NS + 12 * MS); // 12 ms late
    sleepFor(StallWatch.TICK_NS);
    sleepFor(StallWatch.TICK_NS + 7 * MS);

    StallWatch.Stalls stalls = watch.snapshot();
    assertEquals(2, stalls.count());
    assertEquals(19 * MS, stalls.totalNs());
    assertEquals(12 * MS, stalls.longestNs());
    assertTrue(stalls.complete());
    // The first stall runs from 2 ms after the start (one tick done, the second due) to 14 ms.
    long firstFrom = startNs + 2 * StallWatch.TICK_NS;
    long firstTo = firstFrom + 12 * MS;
    assertTrue(stalls.overlaps(firstFrom - 5 * MS, firstFrom), "ends where the stall begins");
    assertTrue(stalls.overlaps(firstFrom + MS, firstFrom + 2 * MS), "inside it");
    assertTrue(stalls.overlaps(firstFrom - MS, firstTo + MS), "around it");
    assertTrue(stalls.overlaps(firstTo, firstTo + MS), "starts where it ends");
    assertFalse(stalls.overlaps(firstFrom - 5 * MS, firstFrom - 1), "before it");
    assertFalse(stalls.overlaps(firstTo + 1, firstTo + MS), "between the two");
    long secondFrom = firstTo + 2 * StallWatch.TICK_NS;
    assertTrue(stalls.overlaps(secondFrom + 3 * MS, secondFrom + 3 * MS), "in the second");
    assertFalse(stalls.overlaps(secondFrom + 8 * MS, secondFrom + 9 * MS), "after the last");
  }

  @Test
  void keepsCountingStallsItCannotKeep() {
    for (int i = 0; i <= StallWatch.MAX_STALLS_KEPT; i++) {
      sleepFor(StallWatch.TICK_NS + 6 * MS);
    }

    StallWatch.Stalls stalls = watch.snapshot();
    assertEquals(StallWatch.MAX_STALLS_KEPT + 1, stalls.count());
    assertEquals(StallWatch.MAX_STALLS_KEPT, stalls.starts().length);
    assertFalse(stalls.complete());
  }

  @Test
  void lateWakeUpsCountFromTheLastWakeUpSoTimeBetweenSleepsIsWatchedToo() {
    long startNs = clockNs.get();
    sleepFor(StallWatch.TICK_NS);
    clockNs.addAndGet(9 * MS); // the thread was held up after waking, before it slept again
    sleepFor(StallWatch.TICK_NS);

    StallWatch.Stalls stalls = watch.snapshot();
    assertEquals(1, stalls.count());
    assertEquals(startNs + 2 * StallWatch.TICK_NS, stalls.starts()[0]);
    assertEquals(9 * MS, stalls.totalNs());
  }

  @Test
  void sinceKeepsTheStallsThatEndAtOrAfterAMoment() {
    sleepFor(StallWatch.TICK_NS + 6 * MS);
    long firstEndNs = clockNs.get();
    sleepFor(StallWatch.TICK_NS + 10 * MS);
    sleepFor(StallWatch.TICK_NS + 7 * MS);

    StallWatch.Stalls all = watch.snapshot();
    StallWatch.Stalls later = all.since(firstEndNs + 1);
    assertEquals(2, later.count());
    assertEquals(17 * MS, later.totalNs());
    assertEquals(10 * MS, later.longestNs());
    assertFalse(later.overlaps(firstEndNs - MS, firstEndNs));
    assertEquals(3, all.since(firstEndNs).count(), "a stall ending at the moment is kept");
    assertEquals(0, all.since(Long.MAX_VALUE).count());
  }

  @Test
  void aRealWatchThreadEndsWhenStopped() {
    StallWatch real = StallWatch.start();
    // Ten ticks, so that stop() ends a thread that was ticking.
    Awaitility.await("ten ticks")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(2))
        .until(() -> real.ticks() >= 10);
    StallWatch.Stalls stalls = real.stop();

    assertFalse(real.threadAlive());
    // Whether this machine stalled is not for a unit test to judge; what it recorded must be sound.
    assertTrue(stalls.complete());
    for (int i = 0; i < stalls.starts().length; i++) {
      assertTrue(stalls.ends()[i] - stalls.starts()[i] >= StallWatch.STALL_THRESHOLD_NS);
    }
  }
}
