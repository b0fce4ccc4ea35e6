package io.tern.engine.workflow.processing.behavior.triggers;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;

/**
 * Event-based gateways. An active one waits for the timers and messages of the catch events after
 * it ({@link CatchEventBehavior} subscribes the gateway instance to them). The first to come wins:
 * it is remembered as the gateway's pending trigger (so a second one is refused), and the gateway
 * completes, which cancels the other timers and subscriptions, and takes only the flow to the event
 * that came; that event completes at once.
 */
public final class EventBasedGatewayBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final ProcessEventValue trigger = new ProcessEventValue();
  private final ProcessInstanceValue completion = new ProcessInstanceValue();

  public EventBasedGatewayBehavior(ProcessingContext context, WorkflowState state) {
    this.context = context;
    this.state = state;
  }

  /**
   * The timer or message of {@code event}, a catch event after gateway instance {@code gatewayKey},
   * came with {@code variablesJson}. False, doing nothing, if the gateway is no longer waiting or
   * another event came first.
   */
  public boolean trigger(
      ProcessingResult result,
      long gatewayKey,
      ElementInstance gateway,
      ExecutableElement event,
      byte[] variablesJson) {
    if (gateway.state != ProcessInstanceIntent.ELEMENT_ACTIVATED
        || state.pendingBoundaries().has(gatewayKey)) {
      return false;
    }
    trigger.scopeKey = gatewayKey;
    trigger.processInstanceKey = gateway.value.processInstanceKey;
    trigger.processDefinitionKey = gateway.value.processDefinitionKey;
    trigger.interrupting = true; // remembered until the gateway completes
    trigger.targetElementId = event.id();
    trigger.bpmnProcessId = gateway.value.bpmnProcessId;
    trigger.variables = variablesJson;
    result.appendEvent(context.nextKey(), ProcessEventIntent.TRIGGERED, trigger);
    completion.copyFrom(gateway.value);
    result.appendCommand(gatewayKey, ProcessInstanceIntent.COMPLETE_ELEMENT, completion);
    return true;
  }

  /**
   * The event that came first for gateway instance {@code gatewayKey}, read into {@code into}
   * (before the gateway completes, which forgets it); false if none did.
   */
  public boolean triggered(long gatewayKey, ProcessEventValue into) {
    return state.pendingBoundaries().get(gatewayKey, into);
  }
}
