package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.ImmutableRecord;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.util.Collections;
import org.agrona.DirectBuffer;

/**
 * Tern's logged records as the {@link Record}s a Zeebe 8.6 broker hands its exporters for the same
 * commands and events (see docs/exporter-records.md for the table, the fields Tern fills with
 * Zeebe's defaults, and the records either side writes that the other does not).
 *
 * <p>Each record is copied into the protocol's {@code Immutable*} classes: the result shares
 * nothing with the {@link LoggedRecord} (a flyweight the caller wraps again), so an exporter may
 * keep it as long as it likes. Unlike the bare protocol classes, it answers {@code copyOf()} and
 * {@code toJson()} ({@link ExportedRecord}).
 *
 * <p>Not thread-safe: one mapper per partition, called in log order from one thread. It decodes
 * into values it reuses, and it remembers the call activities it has seen active, to fill a called
 * process instance's parent process instance key (see {@link InstanceValues}).
 */
public final class ZeebeRecordMapper {
  /** The version Zeebe 8.6 writes its records in unless a record's layout changed (none here). */
  private static final int RECORD_VERSION = 1;

  /** Zeebe's "no operation reference" (a client may tag a command with one; Tern has none). */
  private static final long NO_OPERATION_REFERENCE = -1;

  private final int partitionId;

  /**
   * The broker version a Tern broker's records carry: the Zeebe release whose records they are.
   * Readers go by it (Zeebe's Elasticsearch exporter puts it in index names; Operate reads records
   * of its own minor version).
   */
  public static final String BROKER_VERSION = "8.6.0";

  private final String brokerVersion;
  private final InstanceValues instances = new InstanceValues();
  private final ReworkValues rework = new ReworkValues();
  private final JobValues jobs = new JobValues();
  private final MessageValues messages = new MessageValues();
  private final DeploymentValues deployments = new DeploymentValues();
  private final UserTaskValues userTasks = new UserTaskValues();

  /**
   * @param partitionId the partition whose log is exported (every record's partition id)
   * @param brokerVersion what {@link Record#getBrokerVersion()} answers, e.g. "8.6.0"
   */
  public ZeebeRecordMapper(int partitionId, String brokerVersion) {
    this.partitionId = partitionId;
    this.brokerVersion = brokerVersion;
  }

  /**
   * The Zeebe record for {@code record}, or null if Zeebe writes none like it (a Tern-internal
   * record, or a value type or intent this version does not know): skip it.
   *
   * @throws IllegalStateException if an event's value cannot be read (the engine wrote it, so the
   *     log is damaged); a command's unreadable value (a client's, rejected) maps to defaults
   */
  public Record<?> map(LoggedRecord record) {
    ValueType type = record.valueType();
    Intent intent = record.intent();
    if (type == null || intent == null) {
      return null;
    }
    io.camunda.zeebe.protocol.record.intent.Intent zeebeIntent = ZeebeIntents.intent(intent);
    io.camunda.zeebe.protocol.record.RecordType recordType = recordType(record.recordType());
    if (zeebeIntent == null || recordType == null) {
      return null;
    }
    RecordValue value;
    try {
      value = value(type, intent, record.key(), record.value());
    } catch (RuntimeException e) {
      if (record.isEvent()) {
        throw new IllegalStateException("cannot read the value of " + record, e);
      }
      // A client's command the engine could not read either (and rejected): shown with defaults.
      value = value(type, intent, record.key(), Values.NONE);
    }
    if (value == null) {
      return null;
    }
    return new ExportedRecord<>(
        ImmutableRecord.builder()
            .withPosition(record.position())
            .withSourceRecordPosition(record.sourceRecordPosition())
            .withKey(record.key())
            .withTimestamp(record.timestamp())
            .withPartitionId(partitionId)
            .withRecordType(recordType)
            .withValueType(ZeebeIntents.valueType(type))
            .withIntent(zeebeIntent)
            .withRejectionType(rejectionType(record.rejectionType()))
            .withRejectionReason(
                record.rejectionType() == RejectionType.NONE ? "" : record.rejectionReason())
            .withBrokerVersion(brokerVersion)
            .withAuthorizations(Collections.emptyMap())
            .withRecordVersion(RECORD_VERSION)
            .withOperationReference(NO_OPERATION_REFERENCE)
            .withValue(value)
            .build());
  }

  /**
   * The value, by Tern's value type. The default branch is deliberate: a value type added to Tern
   * later (an exporter's own records, say) compiles unchanged and is not exported until it is
   * mapped here.
   */
  private RecordValue value(ValueType type, Intent intent, long key, DirectBuffer bytes) {
    return switch (type) {
      case PROCESS_INSTANCE -> instances.processInstance(bytes, intent, key);
      case PROCESS_INSTANCE_CREATION -> instances.creation(bytes);
      case PROCESS_INSTANCE_MODIFICATION -> rework.modification(bytes);
      case PROCESS_INSTANCE_MIGRATION -> rework.migration(bytes);
      case PROCESS_EVENT -> instances.processEvent(bytes);
      case VARIABLE -> instances.variable(bytes);
      case VARIABLE_DOCUMENT -> instances.variableDocument(bytes);
      case INCIDENT -> instances.incident(bytes);
      case TIMER -> instances.timer(bytes);
      case COMPENSATION_SUBSCRIPTION -> instances.compensation(bytes);
      case JOB -> jobs.job(bytes, intent);
      case JOB_BATCH -> jobs.batch(bytes);
      case USER_TASK -> userTasks.userTask(bytes, key);
      case MESSAGE -> messages.message(bytes);
      case MESSAGE_SUBSCRIPTION -> messages.messageSubscription(bytes);
      case PROCESS_MESSAGE_SUBSCRIPTION -> messages.processMessageSubscription(bytes);
      case MESSAGE_START_EVENT_SUBSCRIPTION -> messages.startEventSubscription(bytes);
      case MESSAGE_CORRELATION -> messages.messageCorrelation(bytes);
      case SIGNAL -> messages.signal(bytes);
      case SIGNAL_SUBSCRIPTION -> messages.signalSubscription(bytes);
      case DEPLOYMENT -> deployments.deployment(bytes, key);
      case DEPLOYMENT_DISTRIBUTION -> deployments.distribution(bytes);
      case DECISION_EVALUATION -> deployments.decisionEvaluation(bytes);
      case RESOURCE_DELETION -> deployments.resourceDeletion(bytes);
      // Never written to Zeebe's log (see ZeebeIntents), so never reached; listed for the reader.
      case PROCESS_INSTANCE_RESULT -> null;
      default -> null;
    };
  }

  private static io.camunda.zeebe.protocol.record.RecordType recordType(RecordType type) {
    return switch (type) {
      case COMMAND -> io.camunda.zeebe.protocol.record.RecordType.COMMAND;
      case EVENT -> io.camunda.zeebe.protocol.record.RecordType.EVENT;
      case COMMAND_REJECTION -> io.camunda.zeebe.protocol.record.RecordType.COMMAND_REJECTION;
      default -> null;
    };
  }

  /** Zeebe leaves a record that is no rejection at NULL_VAL; the others share their names. */
  private static io.camunda.zeebe.protocol.record.RejectionType rejectionType(RejectionType type) {
    return switch (type) {
      case INVALID_ARGUMENT -> io.camunda.zeebe.protocol.record.RejectionType.INVALID_ARGUMENT;
      case NOT_FOUND -> io.camunda.zeebe.protocol.record.RejectionType.NOT_FOUND;
      case ALREADY_EXISTS -> io.camunda.zeebe.protocol.record.RejectionType.ALREADY_EXISTS;
      case INVALID_STATE -> io.camunda.zeebe.protocol.record.RejectionType.INVALID_STATE;
      case PROCESSING_ERROR -> io.camunda.zeebe.protocol.record.RejectionType.PROCESSING_ERROR;
      case EXCEEDED_BATCH_RECORD_SIZE ->
          io.camunda.zeebe.protocol.record.RejectionType.EXCEEDED_BATCH_RECORD_SIZE;
      default -> io.camunda.zeebe.protocol.record.RejectionType.NULL_VAL;
    };
  }
}
