package io.tern.engine.partition;

import io.tern.raft.SnapshotMeta;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when a partition takes a snapshot, so that the replay after a restart stays short. A
 * fixed period alone is not enough: the first periodic snapshot comes a whole period after the
 * partition opens, and a broker that restarts more often than that replays its log from an old
 * snapshot or from nothing, a little more each time (the one-hour chaos run: kill-all restarts grew
 * from 26 s to 67 s, and a replaying new leader held processing up for up to 31 s). So besides the
 * period, a snapshot is taken
 *
 * <ul>
 *   <li>once the processor has caught up after start, if it processed anything since recovering:
 *       the replay just done is not repeated at the next restart;
 *   <li>whenever {@code everyRecords} positions were written since the last snapshot: replay is
 *       bounded by that many records, whatever the load.
 * </ul>
 *
 * <p>{@link #check()} and {@link #periodic()} run on the partition's timer thread (one at a time);
 * the snapshot itself runs on the processor thread as before. {@code everyRecords} 0 disables both
 * progress triggers and leaves the period alone.
 */
final class SnapshotTrigger {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotTrigger.class);

  /** How often progress is checked: small against the replay it saves. */
  static final long CHECK_INTERVAL_MS = 500;

  private final int partitionId;
  private final long everyRecords;
  private final LongSupplier processedPosition;
  private final LongSupplier recoveredPosition;
  private final BooleanSupplier caughtUp;
  private final Supplier<CompletableFuture<SnapshotMeta>> snapshot;

  // Timer thread only, but the completion of a snapshot may come from the processor thread.
  private volatile boolean inFlight;
  private volatile long lastSnapshotPosition = -1;
  private volatile boolean snapshotSinceStart;
  private volatile boolean caughtUpSnapshotTaken;

  /**
   * @param processedPosition the processor's last processed position (-1 before any)
   * @param recoveredPosition the processed position of the state as recovered at start (that of the
   *     snapshot it came from)
   * @param caughtUp whether the processor has caught up with what is committed
   * @param snapshot takes a snapshot; completes with null when nothing changed since the last
   */
  SnapshotTrigger(
      int partitionId,
      long everyRecords,
      LongSupplier processedPosition,
      LongSupplier recoveredPosition,
      BooleanSupplier caughtUp,
      Supplier<CompletableFuture<SnapshotMeta>> snapshot) {
    if (everyRecords < 0) {
      throw new IllegalArgumentException(
          "data.snapshotEveryRecords must be >= 0 (0 disables), got " + everyRecords);
    }
    this.partitionId = partitionId;
    this.everyRecords = everyRecords;
    this.processedPosition = processedPosition;
    this.recoveredPosition = recoveredPosition;
    this.caughtUp = caughtUp;
    this.snapshot = snapshot;
  }

  /** Takes a snapshot if progress calls for one. */
  void check() {
    if (everyRecords == 0 || inFlight) {
      return;
    }
    long position = processedPosition.getAsLong();
    long since = since();
    if (!caughtUpSnapshotTaken && caughtUp.getAsBoolean()) {
      if (position == since) {
        caughtUpSnapshotTaken = true; // nothing replayed or processed: the snapshot is current
      } else {
        take(position, "caught up after start", () -> caughtUpSnapshotTaken = true);
      }
    } else if (position - since >= everyRecords) {
      // Also while replaying: a long replay cut short by another crash is not repeated whole.
      take(position, position - since + " records since the last snapshot", () -> {});
    }
  }

  /** The position the last snapshot reflects: this trigger's last, or the one recovered from. */
  private long since() {
    return snapshotSinceStart ? lastSnapshotPosition : recoveredPosition.getAsLong();
  }

  /** The period's snapshot. */
  void periodic() {
    if (inFlight) {
      return;
    }
    take(processedPosition.getAsLong(), "periodic", () -> {});
  }

  private void take(long position, String why, Runnable onTaken) {
    inFlight = true;
    CompletableFuture<SnapshotMeta> taking;
    try {
      taking = snapshot.get();
    } catch (RuntimeException e) {
      inFlight = false;
      LOG.debug("Partition {}: snapshot ({}) not started", partitionId, why, e);
      return;
    }
    taking.whenComplete(
        (meta, error) -> {
          if (error != null) {
            LOG.debug("Partition {}: snapshot ({}) skipped", partitionId, why, error);
          } else {
            lastSnapshotPosition = position;
            snapshotSinceStart = true;
            onTaken.run();
            if (meta != null) {
              LOG.info(
                  "Partition {}: snapshot at index {} ({}, position {})",
                  partitionId,
                  meta.index(),
                  why,
                  position);
            }
          }
          inFlight = false;
        });
  }
}
