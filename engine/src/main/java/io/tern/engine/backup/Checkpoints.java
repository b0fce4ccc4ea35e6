package io.tern.engine.backup;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.CheckpointIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbBytes;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A partition's backup checkpoints: the {@code CHECKPOINT CREATE} command's processor and the
 * CREATED event's applier, over the last checkpoint (id and position) in the partition's state.
 * Backup ids only increase: a CREATE whose id is not above the last checkpoint's is rejected, so a
 * backup id names one point of every partition's log, once. The state changes only through the
 * event, so replay and snapshots carry it on every member.
 *
 * <p>The leader's {@link Listener} hears of an accepted checkpoint twice: while the command is
 * processed ({@link Listener#checkpointProcessing}, before any later snapshot can be taken: the
 * snapshot it pins reflects less than the checkpoint) and once the CREATED event is committed
 * ({@link Listener#checkpointCommitted}); followers hear neither.
 */
public final class Checkpoints {
  /** See StateIds: 75 is reserved there for this family. */
  static final short COLUMN_FAMILY_ID = 75;

  private static final long LAST_KEY = 0;

  /** Told of accepted checkpoints on the leader, on the processor thread. */
  public interface Listener {
    /** The CREATE command with a new id is being processed; its result is not committed yet. */
    void checkpointProcessing(long backupId, long checkpointPosition);

    /** The CREATED event of {@code backupId} is committed. */
    void checkpointCommitted(long backupId, long checkpointPosition);

    Listener NONE =
        new Listener() {
          @Override
          public void checkpointProcessing(long backupId, long checkpointPosition) {}

          @Override
          public void checkpointCommitted(long backupId, long checkpointPosition) {}
        };
  }

  /** The last checkpoint as applied on this member; id and position -1 while there is none. */
  public record Last(long backupId, long position) {
    static final Last NONE = new Last(-1, -1);
  }

  private final ColumnFamily<DbLong, DbBytes> family;
  private final Listener listener;
  private final DbLong key = new DbLong(LAST_KEY);
  private final DbBytes value = new DbBytes();

  private Checkpoints(PartitionState state, Listener listener) {
    this.family = state.columnFamily(COLUMN_FAMILY_ID, new DbLong(), new DbBytes());
    this.listener = listener;
  }

  /** Registers the command's processor and the event's applier on {@code processors}. */
  public static RecordProcessors register(
      RecordProcessors processors, PartitionState state, Listener listener) {
    Checkpoints checkpoints = new Checkpoints(state, listener);
    return processors
        .onCommand(CheckpointIntent.CREATE, checkpoints::create)
        .onEvent(CheckpointIntent.CREATED, checkpoints::created);
  }

  /** The last checkpoint in {@code state}, read through a view that claims no column family. */
  public static Last read(PartitionState state) {
    DbBytes stored = new DbBytes();
    if (!state
        .readView(COLUMN_FAMILY_ID, new DbLong(), new DbBytes())
        .get(new DbLong(LAST_KEY), stored)) {
      return Last.NONE;
    }
    CheckpointValue last = CheckpointValue.read(stored.view(), 0, stored.length());
    return new Last(last.backupId(), last.position());
  }

  private Last last() {
    if (!family.get(key, value)) {
      return Last.NONE;
    }
    CheckpointValue last = CheckpointValue.read(value.view(), 0, value.length());
    return new Last(last.backupId(), last.position());
  }

  private void create(LoggedRecord command, ProcessingResult result) {
    CheckpointValue requested;
    try {
      requested = CheckpointValue.read(command.value(), 0, command.value().capacity());
    } catch (IllegalArgumentException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    if (requested.backupId() <= 0) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "a backup id must be a positive number, got " + requested.backupId());
      return;
    }
    Last last = last();
    if (requested.backupId() <= last.backupId()) {
      result.reject(
          RejectionType.INVALID_STATE,
          "backup id "
              + requested.backupId()
              + " is not above the last checkpoint's id "
              + last.backupId()
              + " of partition "
              + command.partitionId()
              + ": backup ids must increase");
      return;
    }
    long position = command.position();
    result.appendEvent(
        command.key(),
        CheckpointIntent.CREATED,
        new CheckpointValue(requested.backupId(), position));
    result.respondWithLastEvent();
    listener.checkpointProcessing(requested.backupId(), position);
    result.sideEffect(() -> listener.checkpointCommitted(requested.backupId(), position));
  }

  private void created(LoggedRecord event) {
    CheckpointValue checkpoint = CheckpointValue.read(event.value(), 0, event.value().capacity());
    byte[] bytes = new byte[CheckpointValue.LENGTH];
    checkpoint.write(new UnsafeBuffer(bytes), 0);
    family.put(key, value.set(bytes));
  }
}
