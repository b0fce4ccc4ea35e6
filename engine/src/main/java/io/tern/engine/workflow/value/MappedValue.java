package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A value whose fields are mapped to its SBE message once, in a {@link ValueFields} list shared by
 * the class: encode, decode and {@link #copyFrom} follow from it.
 *
 * @param <V> the value class itself
 */
public abstract class MappedValue<V extends MappedValue<V>> extends WorkflowValue {
  private final ValueFields<V> fields;
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final Object encoder;
  private final Object decoder;

  protected MappedValue(ValueFields<V> fields) {
    this.fields = fields;
    this.encoder = fields.newEncoder();
    this.decoder = fields.newDecoder();
  }

  /** Takes every field of {@code other} (byte arrays are shared, not copied). */
  public V copyFrom(V other) {
    fields.copy(other, self());
    return self();
  }

  @Override
  protected final int templateId() {
    return fields.templateId();
  }

  @Override
  protected final int encode(MutableDirectBuffer buffer, int offset) {
    return fields.encode(self(), encoder, header, buffer, offset);
  }

  @Override
  protected final void decode(
      DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    fields.decode(self(), decoder, buffer, offset, blockLength, version);
  }

  @SuppressWarnings("unchecked")
  private V self() {
    return (V) this;
  }
}
