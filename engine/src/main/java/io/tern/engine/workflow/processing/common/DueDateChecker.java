package io.tern.engine.workflow.processing.common;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingScheduler;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.state.JobState;

/**
 * Writes a command for each entity (a job past its deadline or back-off, a timer) whose due time
 * has come, woken by the processing scheduler at the earliest due time in the index, never by
 * polling. The command's processor checks the job again, so a command written twice does nothing
 * the second time.
 */
public final class DueDateChecker {
  /** Commands written per run; the rest follow in the next run, at once. */
  static final int MAX_COMMANDS_PER_RUN = 1000;

  /** Reads one due-date index. */
  @FunctionalInterface
  public interface Index {
    void forEach(JobState.DueVisitor visitor);
  }

  private final ProcessingContext context;
  private final Index index;
  private final Intent intent;
  private final RecordValue empty;
  private ProcessingScheduler.Scheduled next;

  /**
   * @param empty the value of the commands written (the processor reads the entity from state)
   */
  public DueDateChecker(ProcessingContext context, Index index, Intent intent, RecordValue empty) {
    this.empty = empty;
    this.context = context;
    this.index = index;
    this.intent = intent;
  }

  /** This member starts processing: look at the index afresh. */
  public void onProcessingStarted() {
    next = null;
    long[] earliest = {-1};
    index.forEach(
        (dueMs, jobKey) -> {
          earliest[0] = dueMs;
          return false;
        });
    if (earliest[0] >= 0) {
      scheduleAt(earliest[0]);
    }
  }

  /**
   * Something becomes due at {@code dueMs}: a local side effect of the batch that set it, run once
   * that batch commits, or once it is written with processing.uncommittedTimers.
   */
  public void scheduleAt(long dueMs) {
    if (next != null && next.dueAtMs() <= dueMs) {
      return;
    }
    if (next != null) {
      next.cancel();
    }
    next = context.scheduler().runAt(dueMs, this::run);
  }

  private void run(ProcessingScheduler.TaskCommands commands) {
    next = null;
    long nowMs = context.nowMs();
    int[] written = {0};
    long[] nextDue = {-1};
    index.forEach(
        (dueMs, key) -> {
          if (dueMs > nowMs) {
            nextDue[0] = dueMs;
            return false;
          }
          commands.appendCommand(key, intent, empty);
          return ++written[0] < MAX_COMMANDS_PER_RUN;
        });
    if (written[0] == MAX_COMMANDS_PER_RUN) {
      scheduleAt(nowMs);
    } else if (nextDue[0] >= 0) {
      scheduleAt(nextDue[0]);
    }
  }
}
