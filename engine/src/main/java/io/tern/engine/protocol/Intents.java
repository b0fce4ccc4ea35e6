package io.tern.engine.protocol;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every intent, and the lookup from the codes in the log and on the wire: array tables indexed by
 * code, so a lookup allocates nothing.
 */
public final class Intents {
  private static final List<Intent> ALL;

  /** By value type code, then intent code; null where there is none. */
  private static final Intent[][] BY_CODE;

  static {
    Intent[][] groups = {
      DeploymentIntent.values(),
      CreationIntent.values(),
      ProcessInstanceIntent.values(),
      JobIntent.values(),
      JobBatchIntent.values(),
      VariableIntent.values(),
      IncidentIntent.values(),
      TimerIntent.values(),
      ProcessEventIntent.values(),
      VariableDocumentIntent.values(),
      MessageIntent.values(),
      MessageSubscriptionIntent.values(),
      ProcessMessageSubscriptionIntent.values(),
      ResultIntent.values(),
      DeploymentDistributionIntent.values(),
      MessageStartEventSubscriptionIntent.values(),
      DecisionEvaluationIntent.values(),
      SignalIntent.values(),
      SignalSubscriptionIntent.values(),
      ResourceDeletionIntent.values(),
      ModificationIntent.values(),
      MigrationIntent.values(),
      CompensationIntent.values(),
      UserTaskIntent.values(),
      MessageCorrelationIntent.values(),
      ExporterIntent.values(),
      CheckpointIntent.values(),
    };
    int maxType = 0;
    for (ValueType type : ValueType.values()) {
      maxType = Math.max(maxType, type.code());
    }
    Intent[][] byCode = new Intent[maxType + 1][];
    List<Intent> all = new ArrayList<>();
    for (Intent[] group : groups) {
      ValueType type = group[0].valueType();
      if (byCode[type.code()] != null) {
        throw new IllegalStateException("two enums of intents for value type " + type);
      }
      int maxIntent = 0;
      for (Intent intent : group) {
        maxIntent = Math.max(maxIntent, intent.code());
      }
      Intent[] table = new Intent[maxIntent + 1];
      for (Intent intent : group) {
        if (intent.valueType() != type || table[intent.code()] != null) {
          throw new IllegalStateException(
              type + " " + intent.name() + ": its code " + intent.code() + " is taken");
        }
        table[intent.code()] = intent;
        all.add(intent);
      }
      byCode[type.code()] = table;
    }
    for (ValueType type : ValueType.values()) {
      if (byCode[type.code()] == null) {
        throw new IllegalStateException("no intents for value type " + type);
      }
    }
    BY_CODE = byCode;
    ALL = Collections.unmodifiableList(all);
  }

  private Intents() {}

  /**
   * The intent with these codes (as a record in the log or a message on the wire holds them), or
   * null if there is none, e.g. a record of a newer version: callers at the edges decide what an
   * unknown pair means there (the command API refuses it naming the codes).
   */
  public static Intent of(int valueTypeCode, int intentCode) {
    if (valueTypeCode < 0 || valueTypeCode >= BY_CODE.length) {
      return null;
    }
    Intent[] table = BY_CODE[valueTypeCode];
    if (table == null || intentCode < 0 || intentCode >= table.length) {
      return null;
    }
    return table[intentCode];
  }

  /** Every intent of every value type. */
  public static List<Intent> all() {
    return ALL;
  }

  /** {@code intent} as "JOB COMPLETED", for messages. */
  public static String describe(Intent intent) {
    return intent.valueType() + " " + intent.name();
  }
}
