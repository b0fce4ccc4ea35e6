package io.tern.engine.protocol;

/**
 * The workflow engine's value types and intents: the codes in its records. Codes are stored in the
 * log, so they never change meaning; new ones are added. Commands are what is asked, events what
 * happened (Zeebe's names).
 */
public enum ValueType {
  DEPLOYMENT(10),
  PROCESS_INSTANCE(11),
  PROCESS_INSTANCE_CREATION(12),
  JOB(13),
  JOB_BATCH(14),
  VARIABLE(15),
  INCIDENT(16),
  TIMER(17),
  PROCESS_EVENT(18),
  VARIABLE_DOCUMENT(19),
  MESSAGE(20),

  /** The message partition's side of a subscription. */
  MESSAGE_SUBSCRIPTION(21),

  /** The process instance partition's side of a subscription. */
  PROCESS_MESSAGE_SUBSCRIPTION(22),

  /** The answer to a creation that awaits the instance's end. */
  PROCESS_INSTANCE_RESULT(23),

  /** On the deployment partition: which partitions still need a deployment's copy. */
  DEPLOYMENT_DISTRIBUTION(24),

  /** A message started a process instance at a message start event. */
  MESSAGE_START_EVENT_SUBSCRIPTION(25),

  /** A decision evaluated for the gateway's EvaluateDecision. */
  DECISION_EVALUATION(30),

  /** A signal broadcast to every partition: its subscriptions there are triggered. */
  SIGNAL(31),

  /** An element instance, or a signal start event, waiting for a signal. */
  SIGNAL_SUBSCRIPTION(32),

  /** A deployed process deleted (DeleteResource), on every partition. */
  RESOURCE_DELETION(33),

  /** A process instance modified (ModifyProcessInstance): elements activated and terminated. */
  PROCESS_INSTANCE_MODIFICATION(34),

  /** A process instance moved to another process definition (MigrateProcessInstance). */
  PROCESS_INSTANCE_MIGRATION(35),

  /** A completed activity that a compensation throw event can compensate. */
  COMPENSATION_SUBSCRIPTION(36),

  /** A Camunda user task ({@code zeebe:userTask}): assigned, updated and completed by people. */
  USER_TASK(37),

  /**
   * A message published and correlated at once (CorrelateMessage): answered with the process
   * instance it went to, or NOT_FOUND.
   */
  MESSAGE_CORRELATION(38),

  /**
   * Tern's own: a backup's checkpoint, written to every partition by the management API (never a
   * client's command, never exported).
   */
  CHECKPOINT(39),

  /** Tern's own: the position an exporter of the partition acknowledged (never exported). */
  EXPORTER(40);

  private static final ValueType[] BY_CODE;

  static {
    int max = 0;
    for (ValueType type : values()) {
      max = Math.max(max, type.code);
    }
    BY_CODE = new ValueType[max + 1];
    for (ValueType type : values()) {
      if (BY_CODE[type.code] != null) {
        throw new IllegalStateException(
            "value types " + BY_CODE[type.code] + " and " + type + " share code " + type.code);
      }
      BY_CODE[type.code] = type;
    }
  }

  private final int code;

  ValueType(int code) {
    this.code = code;
  }

  /** The code in the log and on the wire. */
  public int code() {
    return code;
  }

  /**
   * The value type with {@code code}, or null if there is none (a record of a newer version, or
   * bytes that are no record): callers at the edges (the log, the wire) decide what an unknown code
   * means there.
   */
  public static ValueType ofCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
