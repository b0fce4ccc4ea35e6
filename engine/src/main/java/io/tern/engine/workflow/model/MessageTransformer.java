package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.Message;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeSubscription;
import java.util.List;

/** Reads the message a catch event or receive task waits for: name and correlation key. */
final class MessageTransformer {
  private MessageTransformer() {}

  static EventDefinition.Message transform(FlowNode node, Message message, List<String> problems) {
    if (message == null || message.getName() == null || message.getName().isBlank()) {
      problems.add(describe(node) + ": it needs a message with a name");
      return null;
    }
    ZeebeSubscription subscription = message.getSingleExtensionElement(ZeebeSubscription.class);
    String correlationKey = subscription == null ? null : subscription.getCorrelationKey();
    if (correlationKey == null || correlationKey.isBlank()) {
      problems.add(
          describe(node)
              + ": its message '"
              + message.getName()
              + "' needs a zeebe:subscription correlationKey");
      return null;
    }
    MappingChecks.checkFeel(node, message.getName().strip(), problems);
    MappingChecks.checkFeel(node, correlationKey.strip(), problems);
    return new EventDefinition.Message(message.getName().strip(), correlationKey.strip());
  }
}
