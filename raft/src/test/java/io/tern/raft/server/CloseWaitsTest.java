package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.journal.Journal;
import io.tern.journal.JournalException;
import io.tern.journal.JournalReader;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.SnapshotMeta;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CloseWaitsTest {
  private static final long LONG_NS = TimeUnit.SECONDS.toNanos(20);
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path root;

  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void anInterruptedWaitGoesOnUntilTheFutureIsDoneAndKeepsTheFlag() {
    CompletableFuture<Void> future = new CompletableFuture<>();
    runWhenWaiting(Thread.currentThread(), () -> future.complete(null));
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
    runWhenWaiting(Thread.currentThread(), release::countDown);
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

  @Test
  void aPartitionWhoseTurnOutlastsTheCloseWaitKeepsItsStorageOpenUntilTheTurnEnds()
      throws Exception {
    BlockingStateMachine machine = new BlockingStateMachine();
    ThreadDutyLoop raftLoop = new ThreadDutyLoop("close-test-raft");
    ThreadDutyLoop flushLoop = new ThreadDutyLoop("close-test-flush");
    try {
      RaftPartition partition =
          new RaftPartition(
              1,
              1,
              List.of(new Member(1, 1)),
              TestCluster.fastConfig(root).build(),
              new LocalTransportHub().transport(1),
              machine,
              new SimpleMeterRegistry(),
              42,
              raftLoop,
              () -> flushLoop);
      machine.journal = partition.journal();
      await().atMost(TIMEOUT).until(() -> partition.role() == RaftRole.LEADER);
      await().atMost(TIMEOUT).until(() -> partition.commitIndex() >= 1); // the no-op entry
      machine.block.set(true);
      partition.propose("entry".getBytes(StandardCharsets.UTF_8));
      assertThat(machine.entered.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();

      long startNs = System.nanoTime();
      partition.close(TimeUnit.MILLISECONDS.toNanos(100)); // the turn is still in onCommit

      assertThat(System.nanoTime() - startNs)
          .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
      assertThat(isOpen(partition)).as("the storage, while the turn runs").isTrue();

      machine.release.countDown();
      await().atMost(TIMEOUT).until(() -> !isOpen(partition));
      assertThat(machine.readAfterRelease.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .as("what the turn read from the journal after close() returned")
          .isEqualTo(machine.blockedAt);
    } finally {
      machine.release.countDown();
      raftLoop.close();
      flushLoop.close();
    }
  }

  private static boolean isOpen(RaftPartition partition) {
    try (JournalReader reader = partition.journal().openReader()) {
      return true;
    } catch (JournalException.Closed e) {
      return false;
    }
  }

  /**
   * Once told to, blocks its next commit on the Raft thread until released, then reads the
   * committed entry from the journal (which must still be open under it).
   */
  private static final class BlockingStateMachine implements StateMachine {
    final AtomicBoolean block = new AtomicBoolean();
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final CompletableFuture<Long> readAfterRelease = new CompletableFuture<>();
    volatile long blockedAt;
    volatile Journal journal;

    @Override
    public void onCommit(long commitIndex) {
      if (!block.getAndSet(false)) {
        return;
      }
      blockedAt = commitIndex;
      entered.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      try (JournalReader reader = journal.openReader()) {
        reader.seek(commitIndex);
        readAfterRelease.complete(reader.next().index());
      } catch (RuntimeException e) {
        readAfterRelease.completeExceptionally(e);
      }
    }

    @Override
    public void onSnapshotInstalled(SnapshotMeta meta, Path directory) {}
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

  /**
   * Runs {@code action} once {@code waiter} is in a timed wait: the action must come while the wait
   * is under way, after the interrupt set before it was taken and swallowed (an interrupted thread
   * does not wait; it throws at once).
   */
  private static void runWhenWaiting(Thread waiter, Runnable action) {
    Thread thread =
        new Thread(
            () -> {
              await("the wait under way")
                  .atMost(TIMEOUT)
                  .pollInterval(Duration.ofMillis(1))
                  .until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
              action.run();
            });
    thread.setDaemon(true);
    thread.start();
  }
}
