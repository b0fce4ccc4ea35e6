package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.TimerValueDecoder;
import io.tern.engine.record.sbe.TimerValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A timer: when it is due, and which event of which element instance it triggers. */
public final class TimerValue extends WorkflowValue {
  /** {@link #repetitions} of a cycle without end. */
  public static final int UNBOUNDED = -1;

  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final TimerValueEncoder encoder = new TimerValueEncoder();
  private final TimerValueDecoder decoder = new TimerValueDecoder();

  /** The catch event waiting, or the activity a boundary event is attached to. */
  public long elementInstanceKey = -1;

  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public long dueDateMs;

  /** Firings left, this one included, or {@link #UNBOUNDED}. */
  public int repetitions = 1;

  /** Between firings of a cycle; -1 for a timer that fires once. */
  public long intervalMs = -1;

  public String targetElementId = "";
  public String bpmnProcessId = "";

  public TimerValue copyFrom(TimerValue other) {
    elementInstanceKey = other.elementInstanceKey;
    processInstanceKey = other.processInstanceKey;
    processDefinitionKey = other.processDefinitionKey;
    dueDateMs = other.dueDateMs;
    repetitions = other.repetitions;
    intervalMs = other.intervalMs;
    targetElementId = other.targetElementId;
    bpmnProcessId = other.bpmnProcessId;
    return this;
  }

  @Override
  protected int templateId() {
    return TimerValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .elementInstanceKey(elementInstanceKey)
        .processInstanceKey(processInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .dueDate(dueDateMs)
        .repetitions(repetitions)
        .intervalMs(intervalMs)
        .targetElementId(targetElementId)
        .bpmnProcessId(bpmnProcessId);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    elementInstanceKey = decoder.elementInstanceKey();
    processInstanceKey = decoder.processInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    dueDateMs = decoder.dueDate();
    repetitions = decoder.repetitions();
    intervalMs = decoder.intervalMs();
    targetElementId = decoder.targetElementId();
    bpmnProcessId = decoder.bpmnProcessId();
  }
}
