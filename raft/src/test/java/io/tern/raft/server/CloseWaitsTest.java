package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CloseWaitsTest {
  private static final long LONG_NS = TimeUnit.SECONDS.toNanos(20);

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void anInterruptedWaitGoesOnUntilTheFutureIsDoneAndKeepsTheFlag() {
    CompletableFuture<Void> future = new CompletableFuture<>();
    runLater(200, () -> future.complete(null));
    Thread.currentThread().interrupt();

    boolean done = CloseWaits.await(future, LONG_NS);

    assertThat(done).isTrue();
    assertThat(future).isDone();
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }

  @Test
  void aFailedFutureCountsAsDone() {
    assertThat(
            CloseWaits.await(
                CompletableFuture.failedFuture(new IllegalStateException("broken")), LONG_NS))
        .isTrue();
  }

  @Test
  void aFutureNotDoneInTimeIsReportedAndTheFlagIsKept() {
    Thread.currentThread().interrupt();

    long startNs = System.nanoTime();
    boolean done = CloseWaits.await(new CompletableFuture<>(), TimeUnit.MILLISECONDS.toNanos(100));

    assertThat(done).isFalse();
    assertThat(System.nanoTime() - startNs)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }

  @Test
  void anInterruptedJoinWaitsForTheThreadToEnd() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Thread worker = startWaiting(release);
    runLater(200, release::countDown);
    Thread.currentThread().interrupt();

    boolean ended = CloseWaits.join(worker, LONG_NS);

    assertThat(ended).isTrue();
    assertThat(worker.isAlive()).isFalse();
    assertThat(Thread.currentThread().isInterrupted()).isTrue();
  }

  @Test
  void aThreadStillRunningAfterTheBoundIsReported() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Thread worker = startWaiting(release);
    try {
      assertThat(CloseWaits.join(worker, TimeUnit.MILLISECONDS.toNanos(100))).isFalse();
    } finally {
      release.countDown();
      worker.join();
    }
  }

  private static Thread startWaiting(CountDownLatch release) {
    Thread worker =
        new Thread(
            () -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    worker.start();
    return worker;
  }

  private static void runLater(long delayMs, Runnable action) {
    Thread thread =
        new Thread(
            () -> {
              try {
                Thread.sleep(delayMs);
              } catch (InterruptedException e) {
                return;
              }
              action.run();
            });
    thread.setDaemon(true);
    thread.start();
  }
}
