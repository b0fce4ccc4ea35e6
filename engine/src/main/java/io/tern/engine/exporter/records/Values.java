package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.value.TenantOwned;
import io.tern.engine.workflow.value.WorkflowValue;
import java.util.function.Supplier;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** What the value families share: reading Tern's value, and Zeebe's defaults. */
final class Values {
  /** No bytes: read as a value of defaults (for a command whose bytes cannot be read). */
  static final DirectBuffer NONE = new UnsafeBuffer(new byte[0]);

  /** Tern has no tenants: every record belongs to Zeebe's default tenant. */
  static final String TENANT = TenantOwned.DEFAULT_TENANT_IDENTIFIER;

  private Values() {}

  /**
   * {@code bytes} read into {@code reused} (a mapper reads one record at a time), or, for {@link
   * #NONE}, a new value of defaults.
   */
  static <T extends WorkflowValue> T read(T reused, Supplier<T> defaults, DirectBuffer bytes) {
    return bytes.capacity() == 0 ? defaults.get() : reused.readFrom(bytes);
  }
}
