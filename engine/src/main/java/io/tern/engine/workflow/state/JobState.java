package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbString;
import io.tern.engine.state.DbValue;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.JobValue;
import java.nio.ByteOrder;
import java.util.function.LongPredicate;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Jobs by key with their state, and the activatable jobs of each type in creation order. */
public final class JobState {
  public static final int ACTIVATABLE = 1;
  public static final int ACTIVATED = 2;

  /** A stored job: its state and value. */
  public static final class Job implements DbValue {
    public int state;
    public final JobValue value = new JobValue();

    @Override
    public int length() {
      return Integer.BYTES + value.length();
    }

    @Override
    public void write(MutableDirectBuffer buffer, int offset) {
      buffer.putInt(offset, state, ByteOrder.LITTLE_ENDIAN);
      value.write(buffer, offset + Integer.BYTES);
    }

    @Override
    public void wrap(DirectBuffer buffer, int offset, int length) {
      state = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
      value.wrap(buffer, offset + Integer.BYTES, length - Integer.BYTES);
    }
  }

  /** An empty value, for index entries. */
  private static final class Nothing implements DbValue {
    @Override
    public int length() {
      return 0;
    }

    @Override
    public void write(MutableDirectBuffer buffer, int offset) {}

    @Override
    public void wrap(DirectBuffer buffer, int offset, int length) {}
  }

  private final ColumnFamily<DbLong, Job> jobs;
  private final ColumnFamily<DbCompositeKey<DbString, DbLong>, Nothing> activatable;
  private final DbLong key = new DbLong();
  private final DbString type = new DbString();
  private final DbCompositeKey<DbString, DbLong> typeAndKey = new DbCompositeKey<>(type, key);
  private final Nothing nothing = new Nothing();

  public JobState(PartitionState state) {
    jobs = state.columnFamily(StateIds.JOBS, new DbLong(), new Job());
    activatable =
        state.columnFamily(
            StateIds.ACTIVATABLE_JOBS,
            new DbCompositeKey<>(new DbString(), new DbLong()),
            new Nothing());
  }

  public boolean get(long jobKey, Job into) {
    return jobs.get(key.set(jobKey), into);
  }

  /** Applier: a new job, activatable at once. */
  public void create(long jobKey, Job job) {
    job.state = ACTIVATABLE;
    jobs.put(key.set(jobKey), job);
    type.set(job.value.type);
    key.set(jobKey);
    activatable.put(typeAndKey, nothing);
  }

  /** Applier: the job was handed to a worker. */
  public void activate(long jobKey, Job job) {
    job.state = ACTIVATED;
    jobs.put(key.set(jobKey), job);
    type.set(job.value.type);
    key.set(jobKey);
    activatable.delete(typeAndKey);
  }

  /** Applier: the job is done (completed, or its element terminated). */
  public void remove(long jobKey, Job job) {
    jobs.delete(key.set(jobKey));
    type.set(job.value.type);
    key.set(jobKey);
    activatable.delete(typeAndKey);
  }

  /**
   * Visits the keys of activatable jobs of {@code jobType}, oldest first, while it returns true.
   */
  public void forEachActivatable(String jobType, LongPredicate visitor) {
    activatable.forEachWithPrefix(new DbString(jobType), (k, v) -> visitor.test(k.second().get()));
  }
}
