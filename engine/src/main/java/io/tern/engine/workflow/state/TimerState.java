package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.TimerValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Timers by key, by due date (so the next due ones are one range scan away) and by the element
 * instance they belong to (so leaving an element cancels its timers).
 */
public final class TimerState {
  private final ColumnFamily<DbLong, TimerValue> timers;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> dueDates;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> byElement;
  private final DbLong key = new DbLong();
  private final DbLong first = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> firstAndKey = new DbCompositeKey<>(first, key);
  private final DbNil nil = new DbNil();

  public TimerState(PartitionState state) {
    timers = state.columnFamily(StateIds.TIMERS, new DbLong(), new TimerValue());
    dueDates =
        state.columnFamily(
            StateIds.TIMER_DUE_DATES, new DbCompositeKey<>(new DbLong(), new DbLong()), nil);
    byElement =
        state.columnFamily(
            StateIds.TIMERS_BY_ELEMENT, new DbCompositeKey<>(new DbLong(), new DbLong()), nil);
  }

  public boolean get(long timerKey, TimerValue into) {
    return timers.get(key.set(timerKey), into);
  }

  /** Applier of CREATED. */
  public void put(long timerKey, TimerValue timer) {
    timers.put(key.set(timerKey), timer);
    first.set(timer.dueDateMs);
    dueDates.put(firstAndKey, nil);
    first.set(timer.elementInstanceKey);
    byElement.put(firstAndKey, nil);
  }

  /** Applier of TRIGGERED and CANCELED. */
  public void remove(long timerKey, TimerValue timer) {
    timers.delete(key.set(timerKey));
    first.set(timer.dueDateMs);
    dueDates.delete(firstAndKey);
    first.set(timer.elementInstanceKey);
    byElement.delete(firstAndKey);
  }

  /** The keys of the timers of an element instance. */
  public List<Long> ofElement(long elementInstanceKey) {
    List<Long> keys = new ArrayList<>();
    byElement.forEachWithPrefix(
        new DbLong(elementInstanceKey),
        (k, v) -> {
          keys.add(k.second().get());
          return true;
        });
    return keys;
  }

  /** Visits (due date, timer key), earliest first, while the visitor returns true. */
  public void forEachDue(JobState.DueVisitor visitor) {
    dueDates.forEach((k, v) -> visitor.visit(k.first().get(), k.second().get()));
  }
}
