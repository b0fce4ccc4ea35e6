package io.tern.engine.workflow.processing.behavior.signals;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.SignalValue;
import java.util.function.Predicate;

/**
 * Signal subscriptions on the process instance's side, opened when an element that waits for a
 * signal is entered (a catch event, an activity's boundary events, a scope's event subprocesses)
 * and closed when it is left; and signals thrown by throw and end events, broadcast from this
 * partition as the gateway's would be ({@code SignalBroadcastProcessor}).
 */
public final class SignalBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final SignalSubscriptionValue subscription = new SignalSubscriptionValue();

  public SignalBehavior(ProcessingContext context, WorkflowState state) {
    this.context = context;
    this.state = state;
  }

  /** Element instance {@code key} waits for signal {@code signalName} to trigger {@code target}. */
  public void open(
      ProcessingResult result,
      long key,
      ProcessInstanceValue element,
      ExecutableElement target,
      String signalName) {
    subscription.elementInstanceKey = key;
    subscription.processInstanceKey = element.processInstanceKey;
    subscription.processDefinitionKey = element.processDefinitionKey;
    subscription.signalName = signalName;
    subscription.bpmnProcessId = element.bpmnProcessId;
    subscription.elementId = target.id();
    result.appendEvent(context.nextKey(), SignalSubscriptionIntent.CREATED, subscription);
  }

  /** Element instance {@code key} is left: it waits for no signal any more. */
  public void closeAll(ProcessingResult result, long key) {
    closeAll(result, key, id -> true);
  }

  /** Closes the subscriptions of element instance {@code key} whose event {@code matches}. */
  public void closeAll(ProcessingResult result, long key, Predicate<String> matches) {
    for (SignalSubscriptionValue open : state.signals().ofElement(key)) {
      if (matches.test(open.elementId)) {
        close(result, open);
      }
    }
  }

  /** Closes one subscription (a signal consumed it). */
  public void close(ProcessingResult result, SignalSubscriptionValue open) {
    result.appendEvent(context.nextKey(), SignalSubscriptionIntent.DELETED, open);
  }

  /**
   * A signal throw or end event broadcasts signal {@code signalName} with {@code variablesJson} (a
   * JSON object): a BROADCAST command on this partition, which sends it on to the others.
   */
  public void broadcast(ProcessingResult result, String signalName, byte[] variablesJson) {
    SignalValue signal = new SignalValue();
    signal.signalName = signalName;
    signal.variables = variablesJson;
    result.appendCommand(context.nextKey(), SignalIntent.BROADCAST, signal);
  }
}
