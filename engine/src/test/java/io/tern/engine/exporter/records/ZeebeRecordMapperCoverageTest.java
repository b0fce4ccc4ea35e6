package io.tern.engine.exporter.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.value.JobRecordValue;
import io.tern.engine.backup.CheckpointValue;
import io.tern.engine.exporter.ExporterPositionValue;
import io.tern.engine.protocol.CheckpointIntent;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.protocol.ExporterIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.ResultIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatchBuilder;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import io.tern.engine.workflow.value.DecisionEvaluationValue;
import io.tern.engine.workflow.value.DeploymentDistributionValue;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.MessageCorrelationValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceMigrationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.SignalValue;
import io.tern.engine.workflow.value.TimerValue;
import io.tern.engine.workflow.value.UserTaskValue;
import io.tern.engine.workflow.value.VariableDocumentValue;
import io.tern.engine.workflow.value.VariableValue;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Every value type and intent of Tern's protocol is either mapped or listed here as not exported
 * (and in docs/exporter-records.md): a constant added to Tern fails this test until it is decided.
 */
class ZeebeRecordMapperCoverageTest {
  /** Tern's intents with no Zeebe 8.6 record: Tern's own protocol between partitions, ... */
  private static final Set<Intent> NOT_EXPORTED =
      Set.of(
          ResultIntent.COMPLETED,
          ResultIntent.TERMINATED,
          SignalIntent.ACKNOWLEDGE,
          SignalIntent.ACKNOWLEDGED,
          ResourceDeletionIntent.ACKNOWLEDGE,
          ResourceDeletionIntent.ACKNOWLEDGED,
          ProcessMessageSubscriptionIntent.MIGRATE,
          ProcessMessageSubscriptionIntent.MIGRATION_ACKNOWLEDGED,
          SignalSubscriptionIntent.TRIGGERED,
          CompensationIntent.MIGRATED,
          // Tern's own: the exporters' positions (docs/exporters.md), never handed to them.
          ExporterIntent.UPDATE_POSITION,
          ExporterIntent.POSITION_UPDATED,
          // Tern's own: a backup's checkpoint (docs/operations.md#backups); Zeebe exports its
          // checkpoints, Tern not yet.
          CheckpointIntent.CREATE,
          CheckpointIntent.CREATED);

  private final RecordBatchBuilder batch = new RecordBatchBuilder(1, 1 << 20);
  private final ZeebeRecordMapper mapper = new ZeebeRecordMapper(1, "8.6.0");

  /** A value of defaults of the class the engine writes {@code type}'s records with. */
  private static RecordValue valueOf(ValueType type) {
    return switch (type) {
      case DEPLOYMENT -> new DeploymentValue();
      case PROCESS_INSTANCE -> new ProcessInstanceValue();
      case PROCESS_INSTANCE_CREATION, PROCESS_INSTANCE_RESULT -> new ProcessInstanceCreationValue();
      case JOB -> new JobValue();
      case JOB_BATCH -> new JobBatchValue();
      case VARIABLE -> new VariableValue();
      case INCIDENT -> new IncidentValue();
      case TIMER -> new TimerValue();
      case PROCESS_EVENT -> new ProcessEventValue();
      case VARIABLE_DOCUMENT -> new VariableDocumentValue();
      case MESSAGE -> new MessageValue();
      case MESSAGE_SUBSCRIPTION, PROCESS_MESSAGE_SUBSCRIPTION, MESSAGE_START_EVENT_SUBSCRIPTION ->
          new MessageSubscriptionValue();
      case DEPLOYMENT_DISTRIBUTION -> new DeploymentDistributionValue();
      case DECISION_EVALUATION -> new DecisionEvaluationValue();
      case SIGNAL -> new SignalValue();
      case SIGNAL_SUBSCRIPTION -> new SignalSubscriptionValue();
      case RESOURCE_DELETION -> new ResourceDeletionValue();
      case PROCESS_INSTANCE_MODIFICATION -> new ProcessInstanceModificationValue();
      case PROCESS_INSTANCE_MIGRATION -> new ProcessInstanceMigrationValue();
      case COMPENSATION_SUBSCRIPTION -> new CompensationSubscriptionValue();
      case USER_TASK -> new UserTaskValue();
      case MESSAGE_CORRELATION -> new MessageCorrelationValue();
      case EXPORTER -> new ExporterPositionValue("hazelcast", 41, new byte[0]);
      case CHECKPOINT -> new CheckpointValue(3, 41);
      default -> throw new AssertionError("new value type " + type + ": map it, or list it");
    };
  }

  private Record<?> map(RecordType recordType, int valueType, int intent, RecordValue value) {
    batch.reset(1_000);
    batch.appendWithCodes(
        recordType,
        valueType,
        intent,
        7,
        -1,
        -1,
        RecordBatchBuilder.NO_REQUEST,
        recordType == RecordType.COMMAND_REJECTION
            ? RejectionType.INVALID_ARGUMENT
            : RejectionType.NONE,
        recordType == RecordType.COMMAND_REJECTION ? "no good" : null,
        false,
        value);
    batch.assignPositions(42);
    return mapper.map(batch.record(0, new LoggedRecord()));
  }

  @Test
  void everyIntentOfEveryValueTypeIsMappedOrListedAsNotExported() {
    List<String> table = new ArrayList<>();
    for (Intent intent : Intents.all()) {
      Record<?> zeebe =
          map(
              RecordType.EVENT,
              intent.valueType().code(),
              intent.code(),
              valueOf(intent.valueType()));
      if (NOT_EXPORTED.contains(intent)) {
        assertThat(zeebe).as("%s", Intents.describe(intent)).isNull();
        continue;
      }
      assertThat(zeebe).as("%s is mapped", Intents.describe(intent)).isNotNull();
      assertThat(zeebe.getValueType().name()).isEqualTo(intent.valueType().name());
      // Zeebe 8.6 writes a claim as ASSIGNING (CLAIMING came later).
      assertThat(zeebe.getIntent().name())
          .isEqualTo(intent == UserTaskIntent.CLAIMING ? "ASSIGNING" : intent.name());
      assertThat(zeebe.getValue()).isNotNull();
      assertThat(zeebe.getPosition()).isEqualTo(42);
      assertThat(zeebe.getKey()).isEqualTo(7);
      assertThat(zeebe.getTimestamp()).isEqualTo(1_000);
      table.add(Intents.describe(intent));
    }
    assertThat(table).hasSize(Intents.all().size() - NOT_EXPORTED.size());
    for (ValueType type : ValueType.values()) {
      if (type != ValueType.PROCESS_INSTANCE_RESULT
          && type != ValueType.EXPORTER
          && type != ValueType.CHECKPOINT
          && table.stream().noneMatch(line -> line.startsWith(type + " "))) {
        fail("no intent of " + type + " is mapped");
      }
    }
  }

  @Test
  void aValueTypeOrIntentThisVersionDoesNotKnowIsSkipped() {
    assertThat(map(RecordType.EVENT, 99, 0, RecordValue.EMPTY)).isNull();
    assertThat(map(RecordType.EVENT, ValueType.JOB.code(), 999, RecordValue.EMPTY)).isNull();
  }

  @Test
  void aRejectedCommandWhoseValueCannotBeReadIsShownWithDefaults() {
    RecordValue garbage =
        RecordValue.of(new UnsafeBuffer("not a value".getBytes(StandardCharsets.UTF_8)), 0, 11);
    Record<?> rejection =
        map(RecordType.COMMAND_REJECTION, ValueType.JOB.code(), JobIntent.COMPLETE.code(), garbage);
    assertThat(rejection.getRejectionType())
        .isEqualTo(io.camunda.zeebe.protocol.record.RejectionType.INVALID_ARGUMENT);
    assertThat(rejection.getRejectionReason()).isEqualTo("no good");
    JobRecordValue job = (JobRecordValue) rejection.getValue();
    assertThat(job.getType()).isEmpty();
    assertThat(job.getVariables()).isEmpty();

    assertThatThrownBy(
            () -> map(RecordType.EVENT, ValueType.JOB.code(), JobIntent.COMPLETED.code(), garbage))
        .as("an event the engine wrote that cannot be read: the log is damaged")
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot read the value");
  }

  @Test
  void documentsReadAsZeebesMessagePackReadingGivesThem() {
    byte[] none = new byte[0];
    assertThat(Documents.variables(none)).isEmpty();
    assertThat(Documents.variables(" \n".getBytes(StandardCharsets.UTF_8))).isEmpty();
    assertThat(Documents.variables("{\"n\": 2.50, \"i\": -7}".getBytes(StandardCharsets.UTF_8)))
        .containsEntry("n", 2.5)
        .containsEntry("i", -7);
    assertThatThrownBy(
            () -> Documents.variables("{\"a\": {}}".getBytes(StandardCharsets.UTF_8)).put("b", 1))
        .as("unmodifiable")
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(
            Documents.compactJson(" [1, 2.50, {\"a\" : null}] ".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("[1,2.5,{\"a\":null}]");
    assertThat(Documents.compactJson(none)).isEqualTo("null");
    assertThat(Documents.headers("{\"a\": \"x\", \"n\": 1}".getBytes(StandardCharsets.UTF_8)))
        .containsEntry("a", "x")
        .containsEntry("n", "1");
    assertThat(Documents.checksum("00ff")).containsExactly(0, -1);
  }

  /**
   * The recorded log of schema version 7 (fixtures/README.md: 598 records, 22 value types, 88
   * intents, written before today's code): every record maps, or is one Zeebe does not write.
   */
  @Test
  void everyRecordOfTheRecordedOldLogMaps() throws IOException {
    List<byte[]> batches = new ArrayList<>();
    try (InputStream in = getClass().getResourceAsStream("/fixtures/old-log-v7.bin");
        DataInputStream data = new DataInputStream(in)) {
      assertThat(new String(data.readNBytes(8), StandardCharsets.US_ASCII)).isEqualTo("TERNLOG1");
      int count = data.readInt();
      for (int i = 0; i < count; i++) {
        batches.add(data.readNBytes(data.readInt()));
      }
    }
    List<EngineRun.Mapped> mapped = EngineRun.mapAll(mapper, batches);
    assertThat(mapped).hasSize(598);
    Set<ValueType> types = new java.util.HashSet<>();
    int rejections = 0;
    for (EngineRun.Mapped record : mapped) {
      if (NOT_EXPORTED.contains(record.intent())) {
        assertThat(record.zeebe()).isNull();
        continue;
      }
      assertThat(record.zeebe()).as("%s", record).isNotNull();
      assertThat(record.zeebe().getValueType().name()).isEqualTo(record.valueType().name());
      assertThat(record.zeebe().getPosition()).isEqualTo(record.position());
      types.add(record.valueType());
      if (record.recordType() == RecordType.COMMAND_REJECTION) {
        rejections++;
        assertThat(record.zeebe().getRejectionReason()).isNotEmpty();
      }
    }
    assertThat(types).hasSizeGreaterThanOrEqualTo(21);
    assertThat(rejections).as("as old-log-v7.records.txt lists").isEqualTo(4);
  }
}
