package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableMessageCorrelationRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableMessageRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableMessageStartEventSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableMessageSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessMessageSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableSignalRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableSignalSubscriptionRecordValue;
import io.tern.engine.workflow.value.MessageCorrelationValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.SignalValue;
import org.agrona.DirectBuffer;

/**
 * Messages and signals, and what waits for them. Tern holds the three kinds of message subscription
 * (the message partition's side, the process instance partition's side, and a start event's
 * correlation) in one value class; Zeebe has a value each.
 */
final class MessageValues {
  private final MessageValue message = new MessageValue();
  private final MessageSubscriptionValue subscription = new MessageSubscriptionValue();
  private final MessageCorrelationValue correlation = new MessageCorrelationValue();
  private final SignalValue signal = new SignalValue();
  private final SignalSubscriptionValue signalSubscription = new SignalSubscriptionValue();

  RecordValue message(DirectBuffer bytes) {
    MessageValue value = Values.read(message, MessageValue::new, bytes);
    return ImmutableMessageRecordValue.builder()
        .withName(value.name)
        .withCorrelationKey(value.correlationKey)
        .withMessageId(value.messageId)
        .withTimeToLive(value.timeToLiveMs)
        .withDeadline(value.deadlineMs)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  /** Tern's count of pending offers is its own. */
  RecordValue messageCorrelation(DirectBuffer bytes) {
    MessageCorrelationValue value = Values.read(correlation, MessageCorrelationValue::new, bytes);
    return ImmutableMessageCorrelationRecordValue.builder()
        .withName(value.name)
        .withCorrelationKey(value.correlationKey)
        .withMessageKey(value.messageKey)
        .withProcessInstanceKey(value.processInstanceKey)
        .withRequestId(value.requestId)
        .withRequestStreamId(value.requestStreamId)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  RecordValue messageSubscription(DirectBuffer bytes) {
    MessageSubscriptionValue value =
        Values.read(subscription, MessageSubscriptionValue::new, bytes);
    return ImmutableMessageSubscriptionRecordValue.builder()
        .withProcessInstanceKey(value.processInstanceKey)
        .withElementInstanceKey(value.elementInstanceKey)
        .withBpmnProcessId(value.bpmnProcessId)
        .withMessageName(value.messageName)
        .withCorrelationKey(value.correlationKey)
        .withMessageKey(value.messageKey)
        .withInterrupting(value.interrupting)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  RecordValue processMessageSubscription(DirectBuffer bytes) {
    MessageSubscriptionValue value =
        Values.read(subscription, MessageSubscriptionValue::new, bytes);
    return ImmutableProcessMessageSubscriptionRecordValue.builder()
        .withProcessInstanceKey(value.processInstanceKey)
        .withElementInstanceKey(value.elementInstanceKey)
        .withBpmnProcessId(value.bpmnProcessId)
        .withMessageKey(value.messageKey)
        .withMessageName(value.messageName)
        .withCorrelationKey(value.correlationKey)
        .withElementId(value.elementId)
        .withInterrupting(value.interrupting)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  /** Tern writes only CORRELATED: the instance a message started, at which start event. */
  RecordValue startEventSubscription(DirectBuffer bytes) {
    MessageSubscriptionValue value =
        Values.read(subscription, MessageSubscriptionValue::new, bytes);
    return ImmutableMessageStartEventSubscriptionRecordValue.builder()
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withBpmnProcessId(value.bpmnProcessId)
        .withStartEventId(value.elementId)
        .withMessageName(value.messageName)
        .withProcessInstanceKey(value.processInstanceKey)
        .withCorrelationKey(value.correlationKey)
        .withMessageKey(value.messageKey)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  RecordValue signal(DirectBuffer bytes) {
    SignalValue value = Values.read(signal, SignalValue::new, bytes);
    return ImmutableSignalRecordValue.builder()
        .withSignalName(value.signalName)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  /**
   * Zeebe names the catch event and its instance (-1 for a start event's subscription), as Tern's
   * element id and element instance key.
   */
  RecordValue signalSubscription(DirectBuffer bytes) {
    SignalSubscriptionValue value =
        Values.read(signalSubscription, SignalSubscriptionValue::new, bytes);
    return ImmutableSignalSubscriptionRecordValue.builder()
        .withProcessDefinitionKey(value.processDefinitionKey)
        .withBpmnProcessId(value.bpmnProcessId)
        .withCatchEventId(value.elementId)
        .withCatchEventInstanceKey(value.elementInstanceKey)
        .withSignalName(value.signalName)
        .withTenantId(Values.TENANT)
        .build();
  }
}
