package io.tern.engine.workflow.processing.compensation;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;

/** The appliers of compensation subscription events. */
public final class CompensationAppliers {
  private final WorkflowState state;
  private final CompensationSubscriptionValue subscription = new CompensationSubscriptionValue();
  private final ElementInstance scope = new ElementInstance();

  private CompensationAppliers(WorkflowState state) {
    this.state = state;
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    new CompensationAppliers(state).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(
            CompensationIntent.CREATED,
            event -> state.compensations().put(event.key(), subscription.readFrom(event.value())))
        .onEvent(CompensationIntent.TRIGGERED, this::triggered)
        .onEvent(CompensationIntent.COMPLETED, this::remove)
        .onEvent(CompensationIntent.DELETED, this::remove)
        // Replaced whole: its process instance, scope and keys stay, so does its place by scope.
        .onEvent(
            CompensationIntent.MIGRATED,
            event -> state.compensations().put(event.key(), subscription.readFrom(event.value())));
  }

  /**
   * Its handler is on its way: the scope it runs in holds a token for it, as for a flow's target.
   */
  private void triggered(LoggedRecord event) {
    subscription.readFrom(event.value());
    state.compensations().put(event.key(), subscription);
    if (subscription.hasHandler() && state.instances().get(subscription.handlerScopeKey, scope)) {
      scope.activeChildren++;
      state.instances().put(subscription.handlerScopeKey, scope);
    }
  }

  private void remove(LoggedRecord event) {
    subscription.readFrom(event.value());
    state.compensations().remove(subscription.processInstanceKey, event.key());
  }
}
