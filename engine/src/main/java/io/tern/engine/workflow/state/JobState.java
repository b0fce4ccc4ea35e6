package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
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

  /** Failed: waiting for its back-off, or with no retries left (then an incident holds it). */
  public static final int FAILED = 3;

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

  private final ColumnFamily<DbLong, Job> jobs;
  private final ColumnFamily<DbCompositeKey<DbString, DbLong>, DbNil> activatable;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> deadlines;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> backoffs;

  private final DbLong key = new DbLong();
  private final DbString type = new DbString();
  private final DbCompositeKey<DbString, DbLong> typeAndKey = new DbCompositeKey<>(type, key);
  private final DbNil nothing = new DbNil();
  private final DbLong time = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> timeAndKey = new DbCompositeKey<>(time, key);

  public JobState(PartitionState state) {
    jobs = state.columnFamily(StateIds.JOBS, new DbLong(), new Job());
    activatable =
        state.columnFamily(
            StateIds.ACTIVATABLE_JOBS,
            new DbCompositeKey<>(new DbString(), new DbLong()),
            new DbNil());
    deadlines =
        state.columnFamily(
            StateIds.JOB_DEADLINES, new DbCompositeKey<>(new DbLong(), new DbLong()), new DbNil());
    backoffs =
        state.columnFamily(
            StateIds.JOB_BACKOFFS, new DbCompositeKey<>(new DbLong(), new DbLong()), new DbNil());
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

  /** Applier: the job was handed to a worker until {@code job.value.deadline}. */
  public void activate(long jobKey, Job job) {
    job.state = ACTIVATED;
    jobs.put(key.set(jobKey), job);
    type.set(job.value.type);
    key.set(jobKey);
    activatable.delete(typeAndKey);
    time.set(job.value.deadline);
    deadlines.put(timeAndKey, nothing);
  }

  /**
   * Applier: the job changes state ({@code job} holds the new value, {@code previous} what was
   * stored): the indexes follow.
   */
  public void update(long jobKey, Job previous, Job job) {
    unindex(jobKey, previous);
    jobs.put(key.set(jobKey), job);
    index(jobKey, job);
  }

  /** Applier: the job is done (completed, or its element terminated). */
  public void remove(long jobKey, Job job) {
    jobs.delete(key.set(jobKey));
    unindex(jobKey, job);
  }

  private void unindex(long jobKey, Job job) {
    key.set(jobKey);
    if (job.state == ACTIVATABLE) {
      type.set(job.value.type);
      activatable.delete(typeAndKey);
    } else if (job.state == ACTIVATED) {
      time.set(job.value.deadline);
      deadlines.delete(timeAndKey);
    } else if (job.state == FAILED && job.value.recurAt >= 0) {
      time.set(job.value.recurAt);
      backoffs.delete(timeAndKey);
    }
  }

  private void index(long jobKey, Job job) {
    key.set(jobKey);
    if (job.state == ACTIVATABLE) {
      type.set(job.value.type);
      activatable.put(typeAndKey, nothing);
    } else if (job.state == ACTIVATED) {
      time.set(job.value.deadline);
      deadlines.put(timeAndKey, nothing);
    } else if (job.state == FAILED && job.value.recurAt >= 0) {
      time.set(job.value.recurAt);
      backoffs.put(timeAndKey, nothing);
    }
  }

  /** Visits (due time, job key) of activated jobs by deadline, earliest first, while true. */
  public void forEachDeadline(DueVisitor visitor) {
    deadlines.forEach((k, v) -> visitor.visit(k.first().get(), k.second().get()));
  }

  /** Visits (due time, job key) of failed jobs by the end of their back-off, while true. */
  public void forEachBackoff(DueVisitor visitor) {
    backoffs.forEach((k, v) -> visitor.visit(k.first().get(), k.second().get()));
  }

  /** A visitor of a due-date index. */
  @FunctionalInterface
  public interface DueVisitor {
    boolean visit(long dueMs, long jobKey);
  }

  /**
   * Visits the keys of activatable jobs of {@code jobType}, oldest first, while it returns true.
   */
  public void forEachActivatable(String jobType, LongPredicate visitor) {
    activatable.forEachWithPrefix(new DbString(jobType), (k, v) -> visitor.test(k.second().get()));
  }
}
