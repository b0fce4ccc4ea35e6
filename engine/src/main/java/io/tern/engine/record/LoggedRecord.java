package io.tern.engine.record;

import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderDecoder;
import io.tern.engine.record.sbe.RecordDecoder;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A flyweight view of one record in a batch (in the log, or in a batch being built). Reused: it is
 * valid until it is wrapped again or the bytes under it change, so copy what must live longer.
 *
 * <p>Layout: an SBE message header, the Record block, then the rejection reason and the value as
 * length-prefixed bytes (see {@code tern-records.xml}).
 */
public final class LoggedRecord {
  private static final int REASON_LENGTH_BYTES = 2;
  private static final int VALUE_LENGTH_BYTES = 4;

  private final MessageHeaderDecoder header = new MessageHeaderDecoder();
  private final RecordDecoder decoder = new RecordDecoder();
  private final UnsafeBuffer value = new UnsafeBuffer(0, 0);
  private DirectBuffer buffer;
  private int offset;
  private int length;
  private int reasonOffset;
  private int reasonLength;

  /**
   * Wraps the record at {@code offset}; {@code limit} is where the bytes it may use end.
   *
   * @throws RecordFormatException if the bytes are not a record of this schema
   */
  public LoggedRecord wrap(DirectBuffer buffer, int offset, int limit) {
    if (limit - offset < MessageHeaderDecoder.ENCODED_LENGTH) {
      throw new RecordFormatException(
          "A record needs at least a header, " + (limit - offset) + " bytes left at " + offset);
    }
    header.wrap(buffer, offset);
    if (header.schemaId() != RecordDecoder.SCHEMA_ID
        || header.templateId() != RecordDecoder.TEMPLATE_ID) {
      throw new RecordFormatException(
          "Expected a record (schema "
              + RecordDecoder.SCHEMA_ID
              + ", template "
              + RecordDecoder.TEMPLATE_ID
              + ") at "
              + offset
              + ", found schema "
              + header.schemaId()
              + ", template "
              + header.templateId());
    }
    int blockStart = offset + MessageHeaderDecoder.ENCODED_LENGTH;
    decoder.wrap(buffer, blockStart, header.blockLength(), header.version());
    int at = blockStart + header.blockLength();
    checkRoom(at + REASON_LENGTH_BYTES, limit, offset);
    reasonLength = decoder.rejectionReasonLength();
    reasonOffset = at + REASON_LENGTH_BYTES;
    at = reasonOffset + reasonLength;
    checkRoom(at + VALUE_LENGTH_BYTES, limit, offset);
    decoder.limit(at);
    int valueLength = decoder.valueLength();
    int valueOffset = at + VALUE_LENGTH_BYTES;
    checkRoom(valueOffset + valueLength, limit, offset);
    value.wrap(buffer, valueOffset, valueLength);
    this.buffer = buffer;
    this.offset = offset;
    this.length = valueOffset + valueLength - offset;
    return this;
  }

  private static void checkRoom(int end, int limit, int offset) {
    if (end > limit || end < offset) {
      throw new RecordFormatException(
          "The record at " + offset + " runs past the end of its batch (" + limit + ")");
    }
  }

  /** Bytes this record takes in its batch. */
  public int length() {
    return length;
  }

  public int offset() {
    return offset;
  }

  public DirectBuffer buffer() {
    return buffer;
  }

  public long position() {
    return decoder.position();
  }

  public long sourceRecordPosition() {
    return decoder.sourceRecordPosition();
  }

  public long key() {
    return decoder.key();
  }

  public long timestamp() {
    return decoder.timestamp();
  }

  public long requestId() {
    return decoder.requestId();
  }

  public int requestStreamId() {
    return decoder.requestStreamId();
  }

  /** True if a client waits for the answer to this command. */
  public boolean hasRequest() {
    return decoder.requestId() >= 0;
  }

  public int partitionId() {
    return decoder.partitionId();
  }

  /** The value type, or null if its code is unknown here (see {@link #valueTypeCode()}). */
  public ValueType valueType() {
    return ValueType.ofCode(decoder.valueType());
  }

  /**
   * The intent, or null if the pair of codes is unknown here, e.g. a record of a newer version (see
   * {@link #valueTypeCode()} and {@link #intentCode()}).
   */
  public Intent intent() {
    return Intents.of(decoder.valueType(), decoder.intent());
  }

  /** The value type's code as the record holds it, known here or not. */
  public int valueTypeCode() {
    return decoder.valueType();
  }

  /** The intent's code as the record holds it, known here or not. */
  public int intentCode() {
    return decoder.intent();
  }

  public RecordType recordType() {
    return decoder.recordType();
  }

  public boolean isCommand() {
    return decoder.recordType() == RecordType.COMMAND;
  }

  public boolean isEvent() {
    return decoder.recordType() == RecordType.EVENT;
  }

  public RejectionType rejectionType() {
    return decoder.rejectionType();
  }

  /** The rejection's reason (allocates; rejections are rare). */
  public String rejectionReason() {
    return buffer.getStringWithoutLengthUtf8(reasonOffset, reasonLength);
  }

  /** A command already processed in the batch that wrote it. */
  public boolean isProcessed() {
    return decoder.processed() == BooleanType.TRUE;
  }

  /** The value's bytes, a view valid as long as this record's. */
  public DirectBuffer value() {
    return value;
  }

  /** The value as UTF-8 text (for tests and logs). */
  public String valueAsString() {
    byte[] bytes = new byte[value.capacity()];
    value.getBytes(0, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private String describeIntent() {
    Intent intent = intent();
    return intent == null ? "" : " (" + Intents.describe(intent) + ")";
  }

  @Override
  public String toString() {
    return recordType()
        + "{position="
        + position()
        + ", source="
        + sourceRecordPosition()
        + ", key="
        + key()
        + ", valueType="
        + valueTypeCode()
        + ", intent="
        + intentCode()
        + describeIntent()
        + (rejectionType() == RejectionType.NONE ? "" : ", rejection=" + rejectionType())
        + (isProcessed() ? ", processed" : "")
        + ", value="
        + value.capacity()
        + " bytes}";
  }
}
