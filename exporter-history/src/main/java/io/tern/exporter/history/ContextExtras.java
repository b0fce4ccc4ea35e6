package io.tern.exporter.history;

import io.camunda.zeebe.exporter.api.context.Context;
import java.lang.reflect.Method;
import java.time.InstantSource;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The parts of a {@code Context} that exporter API 8.5 and 8.6 added ({@code getPartitionId},
 * {@code getMeterRegistry}, {@code clock}). Tern compiles against the 8.3 API, whose interface
 * lacks them, while Tern's context declares them as public methods (docs/exporters.md); calling
 * them through the interface would not compile, so they are looked up on the context's class. A
 * context without them (another host) gives empty answers, and the exporter falls back: the
 * partition from the records, no metrics, the system clock.
 */
final class ContextExtras {
  private ContextExtras() {}

  static OptionalInt partitionId(Context context) {
    Object value = call(context, "getPartitionId");
    return value instanceof Integer id ? OptionalInt.of(id) : OptionalInt.empty();
  }

  /** The broker's registry, as an Object: Micrometer classes are touched only if there is one. */
  static Optional<Object> meterRegistry(Context context) {
    return Optional.ofNullable(call(context, "getMeterRegistry"));
  }

  static InstantSource clock(Context context) {
    Object value = call(context, "clock");
    return value instanceof InstantSource clock ? clock : InstantSource.system();
  }

  private static Object call(Context context, String name) {
    try {
      Method method = context.getClass().getMethod(name);
      return method.invoke(context);
    } catch (NoSuchMethodException e) {
      return null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      // A method that exists but fails (or a class that is not public) is a host's bug; the
      // fallbacks still work, so the exporter does not stop over it.
      return null;
    }
  }
}
