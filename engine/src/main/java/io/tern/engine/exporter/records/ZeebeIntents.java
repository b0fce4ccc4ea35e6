package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.ValueTypeMapping;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.ResultIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.protocol.ValueType;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Tern's value types and intents as Zeebe's. Tern named its value types and intents after Zeebe's,
 * so the table is built by name, once: a Tern constant whose name Zeebe 8.6 does not have maps to
 * nothing, which covers the intents Tern has of its own (a signal's or a deletion's ACKNOWLEDGE, a
 * signal subscription's TRIGGERED, ...) and any value type or intent added later (an exporter's own
 * records, say) without touching this class. {@link #NOT_EXPORTED} lists those that share a name
 * with Zeebe's but must still not be handed on.
 */
final class ZeebeIntents {
  /**
   * Zeebe answers a creation that awaits its result with a PROCESS_INSTANCE_RESULT, but never
   * writes one to its log, so exporters never see one; Tern logs it as the answer, sent to the
   * waiting client once it is committed.
   */
  private static final Set<Intent> NOT_EXPORTED =
      Set.of(ResultIntent.COMPLETED, ResultIntent.TERMINATED);

  /**
   * Tern's intents that Zeebe 8.6 writes under another name: a claim, which later Zeebe versions
   * log as CLAIMING, is ASSIGNING in 8.6.
   */
  private static final Map<Intent, String> RENAMED = Map.of(UserTaskIntent.CLAIMING, "ASSIGNING");

  private static final Map<ValueType, io.camunda.zeebe.protocol.record.ValueType> VALUE_TYPES;
  private static final Map<Intent, io.camunda.zeebe.protocol.record.intent.Intent> INTENTS;

  static {
    Map<ValueType, io.camunda.zeebe.protocol.record.ValueType> valueTypes = new HashMap<>();
    for (ValueType type : ValueType.values()) {
      io.camunda.zeebe.protocol.record.ValueType zeebe =
          byName(io.camunda.zeebe.protocol.record.ValueType.class, type.name());
      if (zeebe != null) {
        valueTypes.put(type, zeebe);
      }
    }
    Map<Intent, io.camunda.zeebe.protocol.record.intent.Intent> intents = new HashMap<>();
    for (Intent intent : Intents.all()) {
      io.camunda.zeebe.protocol.record.ValueType zeebeType = valueTypes.get(intent.valueType());
      if (zeebeType == null || NOT_EXPORTED.contains(intent)) {
        continue;
      }
      io.camunda.zeebe.protocol.record.intent.Intent zeebe =
          byName(
              ValueTypeMapping.get(zeebeType).getIntentClass(),
              RENAMED.getOrDefault(intent, intent.name()));
      if (zeebe != null) {
        intents.put(intent, zeebe);
      }
    }
    VALUE_TYPES = Collections.unmodifiableMap(valueTypes);
    INTENTS = Collections.unmodifiableMap(intents);
  }

  private ZeebeIntents() {}

  /** Zeebe's value type of the same name, or null if Zeebe 8.6 has none. */
  static io.camunda.zeebe.protocol.record.ValueType valueType(ValueType type) {
    return VALUE_TYPES.get(type);
  }

  /** Zeebe's intent for {@code intent}, or null if Zeebe writes no such record. */
  static io.camunda.zeebe.protocol.record.intent.Intent intent(Intent intent) {
    return INTENTS.get(intent);
  }

  private static <E extends Enum<E>> E byName(Class<E> type, String name) {
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException noSuchConstant) {
      return null;
    }
  }
}
