package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every test runs against both ways of running passes: a thread of its own, a Netty event loop. */
class DutyLoopTest {
  /** Shared by the event-loop variants, as a transport's thread is shared by a broker's groups. */
  private static final EventExecutor EVENT_LOOP = new DefaultEventExecutor();

  @AfterAll
  static void stopEventLoop() {
    EVENT_LOOP.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** No safety-net turns during a test: only wake-ups and deadlines may bring work to a duty. */
  private static DutyLoop newLoop(String kind) {
    long maxParkNs = TimeUnit.HOURS.toNanos(1);
    return switch (kind) {
      case "thread" -> new ThreadDutyLoop("test-loop", maxParkNs);
      case "eventLoop" -> new EventLoopDutyLoop("test-loop", EVENT_LOOP, maxParkNs);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  /** A duty that counts its turns and does work while {@link #pending} is set. */
  static class CountingDuty implements DutyLoop.Duty {
    final AtomicInteger turns = new AtomicInteger();
    final AtomicBoolean pending = new AtomicBoolean();
    final AtomicInteger worked = new AtomicInteger();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final CountDownLatch removed = new CountDownLatch(1);
    volatile long deadlineNs = NO_DEADLINE;

    @Override
    public int doWork(long nowNs) {
      turns.incrementAndGet();
      if (pending.compareAndSet(true, false)) {
        worked.incrementAndGet();
        return 1;
      }
      return 0;
    }

    @Override
    public long deadlineNs() {
      return deadlineNs;
    }

    @Override
    public boolean hasPendingWork() {
      return pending.get();
    }

    @Override
    public void onFailure(Throwable cause) {
      failure.set(cause);
    }

    @Override
    public void onRemoved() {
      removed.countDown();
    }
  }

  private static void await(java.util.function.BooleanSupplier condition) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(1))
        .until(condition::getAsBoolean);
  }

  /** Hands {@code duty} work {@code times} times, each announced by a wake-up, and awaits it. */
  private static void handWork(DutyLoop loop, CountingDuty duty, int times) throws Exception {
    int before = duty.worked.get();
    for (int i = 1; i <= times; i++) {
      duty.pending.set(true);
      loop.wake();
      int expected = before + i;
      await(() -> duty.worked.get() == expected);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"thread", "eventLoop"})
  void runsEveryDutyWorkHandedToItAfterAWakeUp(String kind) throws Exception {
    try (DutyLoop loop = newLoop(kind)) {
      CountingDuty first = new CountingDuty();
      CountingDuty second = new CountingDuty();
      loop.add(first);
      loop.add(second);
      for (int i = 1; i <= 200; i++) {
        (i % 2 == 0 ? first : second).pending.set(true);
        loop.wake();
        int expected = i;
        await(() -> first.worked.get() + second.worked.get() == expected);
      }
      assertThat(first.worked.get()).isEqualTo(100);
      assertThat(second.worked.get()).isEqualTo(100);
      assertThat(loop.dutyCount()).isEqualTo(2);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"thread", "eventLoop"})
  void aDeadlineGivesATurnWithoutAWakeUp(String kind) throws Exception {
    try (DutyLoop loop = newLoop(kind)) {
      CountingDuty duty = new CountingDuty();
      duty.deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
      loop.add(duty);
      await(() -> duty.turns.get() > 0);
      // Work that arrives silently (no wake) is only found by the turn the deadline brings.
      duty.pending.set(true);
      await(() -> duty.worked.get() == 1);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"thread", "eventLoop"})
  void aDutyThatThrowsIsDroppedAloneAndTheOthersGoOn(String kind) throws Exception {
    try (DutyLoop loop = newLoop(kind)) {
      IllegalStateException boom = new IllegalStateException("boom");
      CountingDuty failing =
          new CountingDuty() {
            @Override
            public int doWork(long nowNs) {
              super.doWork(nowNs);
              throw boom;
            }
          };
      CountingDuty healthy = new CountingDuty();
      loop.add(failing);
      loop.add(healthy);
      assertThat(failing.removed.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(failing.failure.get()).isSameAs(boom);
      int turnsWhenDropped = failing.turns.get();
      handWork(loop, healthy, 20);
      assertThat(failing.turns.get()).isEqualTo(turnsWhenDropped);
      assertThat(loop.dutyCount()).isEqualTo(1);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"thread", "eventLoop"})
  void aRemovedDutyNeverRunsAgainOnceTheFutureCompletes(String kind) throws Exception {
    try (DutyLoop loop = newLoop(kind)) {
      CountingDuty removedDuty = new CountingDuty();
      CountingDuty other = new CountingDuty();
      loop.add(removedDuty);
      loop.add(other);
      await(() -> removedDuty.turns.get() > 0);
      loop.remove(removedDuty).get(10, TimeUnit.SECONDS);
      assertThat(removedDuty.removed.getCount()).isZero();
      int turns = removedDuty.turns.get();
      removedDuty.pending.set(true);
      handWork(loop, other, 20);
      assertThat(removedDuty.turns.get()).isEqualTo(turns);
      assertThat(loop.dutyCount()).isEqualTo(1);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"thread", "eventLoop"})
  void aDutyRemovingItselfDuringItsTurnIsNotRunAgain(String kind) throws Exception {
    try (DutyLoop loop = newLoop(kind)) {
      AtomicReference<CompletableFuture<Void>> removal = new AtomicReference<>();
      CountingDuty self =
          new CountingDuty() {
            @Override
            public int doWork(long nowNs) {
              if (turns.get() == 0) {
                removal.set(loop.remove(this));
              }
              return super.doWork(nowNs);
            }
          };
      CountingDuty other = new CountingDuty();
      loop.add(self);
      loop.add(other);
      await(() -> removal.get() != null);
      assertThat(removal.get()).isDone(); // no deadlock waiting on its own loop
      handWork(loop, other, 20);
      assertThat(self.turns.get()).isEqualTo(1);
      assertThat(self.removed.getCount()).isZero();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"thread", "eventLoop"})
  void closeDropsTheDutiesStillThere(String kind) throws Exception {
    CountingDuty duty = new CountingDuty();
    DutyLoop loop = newLoop(kind);
    loop.add(duty);
    await(() -> duty.turns.get() > 0);
    loop.close();
    assertThat(duty.removed.getCount()).isZero();
    // A removal after close completes at once instead of waiting for a thread that is gone.
    assertThat(loop.remove(new CountingDuty()).get(1, TimeUnit.SECONDS)).isNull();
  }

  @org.junit.jupiter.api.Test
  void onAnEventLoopTurnsRunOnItAndWakeUpsFromItAreServed() throws Exception {
    try (DutyLoop loop = newLoop("eventLoop")) {
      AtomicBoolean turnsOnEventLoop = new AtomicBoolean(true);
      CountingDuty duty =
          new CountingDuty() {
            @Override
            public int doWork(long nowNs) {
              if (!EVENT_LOOP.inEventLoop() || !loop.isLoopThread()) {
                turnsOnEventLoop.set(false);
              }
              return super.doWork(nowNs);
            }
          };
      loop.add(duty);
      for (int i = 1; i <= 50; i++) {
        // As a message read by the transport: work handed over on the event loop itself.
        EVENT_LOOP.execute(
            () -> {
              duty.pending.set(true);
              loop.wake();
            });
        int expected = i;
        await(() -> duty.worked.get() == expected);
      }
      assertThat(turnsOnEventLoop).isTrue();
    }
  }

  /**
   * A broker shut down from an interrupted thread: close must still wait for the turn in progress
   * and drop the duties, or their storage is closed under a running turn.
   */
  @ParameterizedTest
  @ValueSource(strings = {"thread", "eventLoop"})
  void closeFromAnInterruptedThreadWaitsForTheTurnAndDropsTheDuties(String kind) throws Exception {
    DutyLoop loop = newLoop(kind);
    CountDownLatch inTurn = new CountDownLatch(1);
    CountDownLatch endTurn = new CountDownLatch(1);
    CountingDuty blocking =
        new CountingDuty() {
          @Override
          public int doWork(long nowNs) {
            if (pending.compareAndSet(true, false)) {
              inTurn.countDown();
              while (true) {
                try {
                  endTurn.await();
                  break;
                } catch (InterruptedException e) {
                  // only the test ends this turn
                }
              }
              return 1;
            }
            return 0;
          }
        };
    loop.add(blocking);
    blocking.pending.set(true);
    loop.wake();
    assertThat(inTurn.await(10, TimeUnit.SECONDS)).isTrue();
    AtomicBoolean droppedWhenCloseReturned = new AtomicBoolean();
    AtomicBoolean interruptKept = new AtomicBoolean();
    Thread closer =
        new Thread(
            () -> {
              Thread.currentThread().interrupt();
              loop.close();
              droppedWhenCloseReturned.set(blocking.removed.getCount() == 0);
              interruptKept.set(Thread.currentThread().isInterrupted());
            });

    closer.start();
    await(() -> closer.getState() == Thread.State.TIMED_WAITING || !closer.isAlive());
    endTurn.countDown();
    closer.join(TimeUnit.SECONDS.toMillis(10));

    assertThat(closer.isAlive()).isFalse();
    assertThat(droppedWhenCloseReturned).as("duties dropped before close returned").isTrue();
    assertThat(interruptKept).as("the closer's interrupt flag is set again").isTrue();
  }

  @org.junit.jupiter.api.Test
  void onAnEventLoopThatStoppedCloseAndRemoveStillDropTheDuties() throws Exception {
    EventExecutor executor = new DefaultEventExecutor();
    DutyLoop loop = new EventLoopDutyLoop("test-loop", executor, TimeUnit.HOURS.toNanos(1));
    CountingDuty removed = new CountingDuty();
    CountingDuty remaining = new CountingDuty();
    loop.add(removed);
    loop.add(remaining);
    await(() -> remaining.turns.get() > 0 && removed.turns.get() > 0);
    // The transport closed first (a broker shutting down out of order).
    executor.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    assertThat(loop.remove(removed).get(1, TimeUnit.SECONDS)).isNull();
    assertThat(removed.removed.getCount()).isZero();
    loop.close();
    assertThat(remaining.removed.getCount()).isZero();
  }
}
