package io.tern.engine.partition;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.SnapshotMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SnapshotTriggerTest {
  private final AtomicLong position = new AtomicLong(0);
  private final AtomicLong recovered = new AtomicLong(0);
  private final AtomicBoolean caughtUp = new AtomicBoolean(false);
  private final List<CompletableFuture<SnapshotMeta>> taken = new ArrayList<>();

  private SnapshotTrigger trigger(long everyRecords) {
    return new SnapshotTrigger(
        1,
        everyRecords,
        position::get,
        recovered::get,
        caughtUp::get,
        () -> {
          CompletableFuture<SnapshotMeta> snapshot = new CompletableFuture<>();
          taken.add(snapshot);
          return snapshot;
        });
  }

  private static SnapshotMeta meta() {
    return new SnapshotMeta(10, 1, 0, 1);
  }

  @Test
  void aSnapshotIsTakenOnceTheProcessorCaughtUpAfterReplaying() {
    SnapshotTrigger trigger = trigger(100_000);
    recovered.set(500); // recovered from a snapshot of position 500
    position.set(500);
    trigger.check();
    position.set(40_000); // replaying
    trigger.check();
    assertThat(taken).as("none while replaying").isEmpty();

    caughtUp.set(true);
    trigger.check();
    assertThat(taken).hasSize(1);
    trigger.check();
    assertThat(taken).as("one at a time").hasSize(1);

    taken.get(0).complete(meta());
    position.set(40_010);
    trigger.check();
    assertThat(taken).as("once only after start").hasSize(1);
  }

  @Test
  void nothingReplayedOrProcessedTakesNoSnapshotAtCatchUp() {
    SnapshotTrigger trigger = trigger(100_000);
    recovered.set(500);
    position.set(500);
    trigger.check();
    caughtUp.set(true);
    trigger.check();
    trigger.check();
    assertThat(taken).isEmpty();
  }

  @Test
  void aReplayThatEndedBeforeTheFirstCheckStillSnapshots() {
    SnapshotTrigger trigger = trigger(100_000);
    recovered.set(500);
    position.set(40_000);
    caughtUp.set(true);
    trigger.check();
    assertThat(taken).hasSize(1);
  }

  @Test
  void aLongReplaySnapshotsEveryNRecordsBeforeItCatchesUp() {
    SnapshotTrigger trigger = trigger(1_000);
    position.set(999);
    trigger.check();
    assertThat(taken).isEmpty();
    position.set(1_500);
    trigger.check();
    assertThat(taken).hasSize(1);
  }

  @Test
  void aSnapshotIsTakenEveryNRecords() {
    SnapshotTrigger trigger = trigger(1_000);
    caughtUp.set(true);
    position.set(0);
    trigger.check();
    trigger.check(); // caught up, nothing moved
    position.set(999);
    trigger.check();
    assertThat(taken).isEmpty();

    position.set(1_000);
    trigger.check();
    assertThat(taken).hasSize(1);
    taken.get(0).complete(meta());

    position.set(1_999);
    trigger.check();
    assertThat(taken).as("counted from the last snapshot").hasSize(1);
    position.set(2_000);
    trigger.check();
    assertThat(taken).hasSize(2);
  }

  @Test
  void aFailedSnapshotIsTriedAgainAtTheNextCheck() {
    SnapshotTrigger trigger = trigger(1_000);
    caughtUp.set(true);
    position.set(0);
    trigger.check();
    trigger.check();
    position.set(5_000);
    trigger.check();
    taken.get(0).completeExceptionally(new IllegalStateException("already being taken"));
    trigger.check();
    assertThat(taken).hasSize(2);
  }

  @Test
  void aPeriodicSnapshotRestartsTheCount() {
    SnapshotTrigger trigger = trigger(1_000);
    caughtUp.set(true);
    position.set(0);
    trigger.check();
    trigger.check();
    position.set(900);
    trigger.periodic();
    taken.get(0).complete(meta());
    position.set(1_500);
    trigger.check();
    assertThat(taken).hasSize(1);
  }

  @Test
  void zeroRecordsDisablesProgressSnapshotsButNotThePeriod() {
    SnapshotTrigger trigger = trigger(0);
    position.set(0);
    trigger.check();
    position.set(1_000_000);
    caughtUp.set(true);
    trigger.check();
    assertThat(taken).isEmpty();
    trigger.periodic();
    assertThat(taken).hasSize(1);
  }
}
