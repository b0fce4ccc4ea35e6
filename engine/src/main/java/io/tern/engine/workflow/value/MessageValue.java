package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.MessageValueDecoder;
import io.tern.engine.record.sbe.MessageValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A published message: name, correlation key, time to live, id and variables. */
public final class MessageValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final MessageValueEncoder encoder = new MessageValueEncoder();
  private final MessageValueDecoder decoder = new MessageValueDecoder();

  public long timeToLiveMs;
  public long deadlineMs = -1;
  public String name = "";
  public String correlationKey = "";
  public String messageId = "";
  public byte[] variables = new byte[0];

  @Override
  protected int templateId() {
    return MessageValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .timeToLiveMs(timeToLiveMs)
        .deadline(deadlineMs)
        .name(name)
        .correlationKey(correlationKey)
        .messageId(messageId)
        .putVariables(variables, 0, variables.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    timeToLiveMs = decoder.timeToLiveMs();
    deadlineMs = decoder.deadline();
    name = decoder.name();
    correlationKey = decoder.correlationKey();
    messageId = decoder.messageId();
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
  }
}
