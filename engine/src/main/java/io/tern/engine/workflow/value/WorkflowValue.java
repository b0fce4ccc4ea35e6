package io.tern.engine.workflow.value;

import io.tern.engine.record.RecordFormatException;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.MessageHeaderDecoder;
import io.tern.engine.state.DbValue;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A workflow record's value: plain fields, encoded as an SBE message of the record schema (so the
 * value says which schema version wrote it). The same bytes go into records and into the state.
 */
public abstract class WorkflowValue implements RecordValue, DbValue {
  private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(256);
  private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
  private int encodedLength = -1;

  /** Encodes the fields (header included) at {@code offset}; returns the bytes written. */
  protected abstract int encode(MutableDirectBuffer buffer, int offset);

  /** Reads the fields from a message whose header was checked. */
  protected abstract void decode(
      DirectBuffer buffer, int offset, int blockLength, int version, int length);

  protected abstract int templateId();

  @Override
  public int length() {
    encodedLength = encode(scratch, 0);
    return encodedLength;
  }

  /**
   * Encodes this value, as a field of another, into {@link #encoded()} (the buffer {@link
   * #length()} encodes into); returns the bytes written.
   */
  final int encodeOwn() {
    return encode(scratch, 0);
  }

  /** The buffer {@link #encodeOwn()} encodes into. */
  final DirectBuffer encoded() {
    return scratch;
  }

  @Override
  public void write(MutableDirectBuffer buffer, int offset) {
    if (encodedLength < 0) {
      length();
    }
    buffer.putBytes(offset, scratch, 0, encodedLength);
    encodedLength = -1;
  }

  @Override
  public void wrap(DirectBuffer buffer, int offset, int length) {
    MessageHeaderDecoder header = headerDecoder.wrap(buffer, offset);
    if (length < MessageHeaderDecoder.ENCODED_LENGTH
        || header.schemaId() != MessageHeaderDecoder.SCHEMA_ID
        || header.templateId() != templateId()) {
      throw new RecordFormatException(
          getClass().getSimpleName()
              + " expected (template "
              + templateId()
              + "), found template "
              + header.templateId());
    }
    decode(
        buffer,
        offset + MessageHeaderDecoder.ENCODED_LENGTH,
        header.blockLength(),
        header.version(),
        length);
  }

  /** Decodes this value from a record's value bytes. */
  public <T extends WorkflowValue> T readFrom(DirectBuffer value) {
    wrap(value, 0, value.capacity());
    @SuppressWarnings("unchecked")
    T self = (T) this;
    return self;
  }

  static byte[] bytes(DirectBuffer buffer, int offset, int length) {
    byte[] bytes = new byte[length];
    buffer.getBytes(offset, bytes);
    return bytes;
  }
}
