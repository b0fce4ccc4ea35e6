package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.EventBasedGateway;
import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.IntermediateCatchEvent;
import io.camunda.zeebe.model.bpmn.instance.MessageEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.SequenceFlow;
import io.camunda.zeebe.model.bpmn.instance.SignalEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.TimerEventDefinition;
import java.util.List;

/** Checks what an event-based gateway leads to, reporting problems naming the gateway. */
final class EventGatewayCheck {
  private EventGatewayCheck() {}

  /** An event-based gateway leads to timer, message and signal catch events only (as Zeebe's). */
  static boolean check(EventBasedGateway gateway, List<String> problems) {
    boolean valid = true;
    for (SequenceFlow flow : gateway.getOutgoing()) {
      FlowNode target = flow.getTarget();
      if (!(target instanceof IntermediateCatchEvent catchEvent)
          || !(EventDefinitions.only(catchEvent, TimerEventDefinition.class)
              || EventDefinitions.only(catchEvent, MessageEventDefinition.class)
              || EventDefinitions.only(catchEvent, SignalEventDefinition.class))) {
        problems.add(
            describe(gateway)
                + ": an event-based gateway may lead to timer, message and signal intermediate"
                + " catch events only, but its flow '"
                + flow.getId()
                + "' leads to "
                + describe(target));
        valid = false;
      }
    }
    return valid;
  }
}
