package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.Message;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeSubscription;
import io.tern.engine.workflow.feel.FeelStrings;
import java.util.List;
import java.util.Map;

/**
 * Reads the message a catch event or receive task waits for (name and correlation key), or the
 * message that starts a process.
 */
final class MessageTransformer {
  private static final FeelStrings NAMES = new FeelStrings();

  private MessageTransformer() {}

  /**
   * A message start event's message: its name only (a started instance has no variables yet to
   * correlate on), evaluated now if it is an expression, as the subscription opens at deployment.
   */
  static EventDefinition.Message transformStart(
      FlowNode node, Message message, List<String> problems) {
    if (message == null || message.getName() == null || message.getName().isBlank()) {
      problems.add(describe(node) + ": it needs a message with a name");
      return null;
    }
    String name = message.getName().strip();
    try {
      name = NAMES.evaluate(name, Map::of);
    } catch (FeelStrings.EvaluationException e) {
      problems.add(
          describe(node)
              + ": the message name of a start event is evaluated at deployment, without"
              + " variables, and '"
              + name
              + "' fails: "
              + e.getMessage());
      return null;
    }
    return new EventDefinition.Message(name, null);
  }

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
