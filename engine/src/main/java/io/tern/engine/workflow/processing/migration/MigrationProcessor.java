package io.tern.engine.workflow.processing.migration;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.state.UserTaskState;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.ProcessInstanceMigrationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.TimerValue;
import io.tern.engine.workflow.value.UserTaskValue;
import java.util.List;

/**
 * MigrateProcessInstance (MIGRATE): a running process instance moves to another process definition,
 * as in Zeebe 8.6. Everything is checked first ({@link MigrationPlan}); then each element instance,
 * scopes first, is ELEMENT_MIGRATED to its target element, its job or user task and incidents are
 * MIGRATED (a job keeps its type, retries and deadline, a user task its assignment and schedule),
 * and what it waits for follows ({@link MigrationCatchEvents}); with the process instance, what
 * compensation recorded is MIGRATED ({@link MigrationCompensations}). Nothing is evaluated again
 * (input mappings, job headers) but the catch events the target adds. MIGRATED, with the command's
 * value, answers the client.
 *
 * <p>Only the state changes: no element is activated, completed or terminated, so the instance goes
 * on from where it stood, on the target definition.
 */
public final class MigrationProcessor implements CommandProcessor {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final Behaviors behaviors;
  private final ProcessInstanceMigrationValue migration = new ProcessInstanceMigrationValue();
  private final ElementInstance root = new ElementInstance();
  private final JobState.Job job = new JobState.Job();
  private final UserTaskState.Task userTask = new UserTaskState.Task();
  private final IncidentValue incident = new IncidentValue();

  public MigrationProcessor(ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.state = state;
    this.behaviors = behaviors;
  }

  @Override
  public void process(LoggedRecord command, ProcessingResult result) {
    migration.readFrom(command.value());
    long processInstanceKey = command.key();
    migration.processInstanceKey = processInstanceKey;
    if (!state.instances().get(processInstanceKey, root) || root.value.flowScopeKey >= 0) {
      result.reject(
          RejectionType.NOT_FOUND,
          "Expected to migrate process instance but no process instance found with key '"
              + processInstanceKey
              + "'");
      return;
    }
    MigrationPlan plan = new MigrationPlan(state, root, migration, behaviors.catchEvents());
    MigrationPlan.Refusal refusal = plan.check();
    if (refusal != null) {
      result.reject(refusal.type(), refusal.reason());
      return;
    }
    for (MigrationPlan.Move move : plan.moves()) {
      migrate(result, move, plan.compensations());
    }
    result.appendEvent(processInstanceKey, MigrationIntent.MIGRATED, migration);
    result.respondWithLastEvent();
  }

  private void migrate(
      ProcessingResult result,
      MigrationPlan.Move move,
      List<MigrationCompensations.Moved> compensations) {
    long key = move.key();
    ProcessInstanceValue after = move.after();
    result.appendEvent(key, ProcessInstanceIntent.ELEMENT_MIGRATED, after);
    if (move.target() == null) {
      // What compensation recorded goes with the process instance, first, as later Zeebe
      // versions write it.
      migrateCompensations(result, compensations);
    }
    long jobKey = move.before().jobKey;
    if (jobKey >= 0 && state.jobs().get(jobKey, job)) {
      job.value.processDefinitionKey = after.processDefinitionKey;
      job.value.processDefinitionVersion = after.version;
      job.value.bpmnProcessId = after.bpmnProcessId;
      job.value.elementId = after.elementId;
      result.appendEvent(jobKey, JobIntent.MIGRATED, job.value);
      migrateIncident(result, state.incidents().ofJob(jobKey), after);
    }
    long userTaskKey = state.userTasks().ofElement(key);
    if (userTaskKey >= 0 && state.userTasks().get(userTaskKey, userTask)) {
      UserTaskValue moved = userTask.value;
      moved.processDefinitionKey = after.processDefinitionKey;
      moved.processDefinitionVersion = after.version;
      moved.bpmnProcessId = after.bpmnProcessId;
      moved.elementId = after.elementId;
      result.appendEvent(userTaskKey, UserTaskIntent.MIGRATED, moved);
    }
    migrateIncident(result, state.incidents().ofElement(key), after);
    MigrationCatchEvents.Moved events = move.events();
    if (events != null) {
      migrateCatchEvents(result, key, after, events);
    }
  }

  /** Keys, instance and scope keys stay: only the definition, activity and handler change. */
  private void migrateCompensations(
      ProcessingResult result, List<MigrationCompensations.Moved> compensations) {
    for (MigrationCompensations.Moved moved : compensations) {
      result.appendEvent(moved.key(), CompensationIntent.MIGRATED, moved.after());
    }
  }

  private void migrateIncident(
      ProcessingResult result, long incidentKey, ProcessInstanceValue after) {
    if (incidentKey >= 0 && state.incidents().get(incidentKey, incident)) {
      incident.processDefinitionKey = after.processDefinitionKey;
      incident.bpmnProcessId = after.bpmnProcessId;
      incident.elementId = after.elementId;
      result.appendEvent(incidentKey, IncidentIntent.MIGRATED, incident);
    }
  }

  /**
   * Closes what no mapping keeps (first: a kept subscription's new event id may equal a closed
   * one's old id), moves what is kept, opens what the target adds.
   */
  private void migrateCatchEvents(
      ProcessingResult result,
      long key,
      ProcessInstanceValue after,
      MigrationCatchEvents.Moved events) {
    if (!events.closed().isEmpty()) {
      behaviors.timers().cancelAll(result, key, events.closed()::contains);
      behaviors.subscriptions().closeAll(result, key, events.closed()::contains);
      behaviors.signals().closeAll(result, key, events.closed()::contains);
    }
    for (MigrationCatchEvents.KeptTimer kept : events.timers()) {
      TimerValue timer = kept.timer();
      timer.processDefinitionKey = after.processDefinitionKey;
      timer.bpmnProcessId = after.bpmnProcessId;
      timer.targetElementId = kept.targetId();
      result.appendEvent(kept.timerKey(), TimerIntent.MIGRATED, timer);
    }
    for (MigrationCatchEvents.KeptMessage kept : events.messages()) {
      behaviors.subscriptions().migrate(result, kept.subscription(), after, kept.target());
    }
    // Stored by catch event id: the old entries go, then the new ones come, in this one batch (one
    // by one, a move to an id another kept signal leaves would be deleted with it).
    for (MigrationCatchEvents.KeptSignal kept : events.signals()) {
      result.appendEvent(context.nextKey(), SignalSubscriptionIntent.DELETED, kept.subscription());
    }
    for (MigrationCatchEvents.KeptSignal kept : events.signals()) {
      SignalSubscriptionValue signal = kept.subscription();
      signal.processDefinitionKey = after.processDefinitionKey;
      signal.bpmnProcessId = after.bpmnProcessId;
      signal.elementId = kept.targetId();
      result.appendEvent(context.nextKey(), SignalSubscriptionIntent.CREATED, signal);
    }
    behaviors.catchEvents().open(result, key, after, events.opened());
  }
}
