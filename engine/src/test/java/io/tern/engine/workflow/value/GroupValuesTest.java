package io.tern.engine.workflow.value;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.record.sbe.ProcessInstanceMigrationValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceMigrationValueEncoder;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The values whose messages have repeating groups: each, with its groups empty and with several
 * entries in each, encodes to the bytes the hand-written mapping (before {@link ValueFields} had
 * groups) wrote, recorded here as hex, and decodes them to the same fields; and how {@link
 * ValueFields} maps groups.
 */
class GroupValuesTest {
  private static final HexFormat HEX = HexFormat.of();

  // The bytes the hand-written encoders wrote for empty() and several() of each class.
  static final String DEPLOYMENT_EMPTY = "00000a00f41c0700000000000d00000019000000";
  static final String DEPLOYMENT_SEVERAL =
      "00000a00f41c0700000003000600612e62706d6e040000003c612f3e0a00656d"
          + "7074792e62706d6e000000000500622e646d6e0e0000003c646566696e697469"
          + "6f6e732f3e0d000200010000000000080001000000000100610600612e62706d"
          + "6e02006331020000000000080007000000010100620600612e62706d6e000019"
          + "0002000b0000000000000002000000010c000000000000000300000002006431"
          + "0c004465636973696f6e206f6e65010067050047726170680500622e646d6e02"
          + "0063320d0000000000000001000000000c000000000000000300000002006432"
          + "0000010067050047726170680500622e646d6e02006332";
  static final String JOB_BATCH_EMPTY =
      "0d000e00f41c0700000000000000000000000000000800000000000000000000" + "00";
  static final String JOB_BATCH_SEVERAL =
      "0d000e00f41c070030750000000000000300000001080003002d010000000000"
          + "007c00000040000d00f41c070041420f00000000000100000065000000000000"
          + "00c900000000000000ffffffffffffffff000000000000000000000000ffffff"
          + "ffffffffff00000000000000000400736869700800776f726b65722d3105006f"
          + "7264657206007461736b2d31020000007b7d070000007b226e223a317d000000"
          + "002e010000000000007c00000040000d00f41c070042420f0000000000020000"
          + "006600000000000000ca00000000000000ffffffffffffffff00000000000000"
          + "0000000000ffffffffffffffff00000000000000000400736869700800776f72"
          + "6b65722d3105006f7264657206007461736b2d32020000007b7d070000007b22"
          + "6e223a327d000000002f010000000000007c00000040000d00f41c070043420f"
          + "0000000000030000006700000000000000cb00000000000000ffffffffffffff"
          + "ff000000000000000000000000ffffffffffffffff0000000000000000040073"
          + "6869700800776f726b65722d3105006f7264657206007461736b2d3302000000"
          + "7b7d070000007b226e223a337d000000000000020001006e05006f7264657204"
          + "00736869700800776f726b65722d31";
  static final String MODIFICATION_EMPTY =
      "08002200f41c0700ffffffffffffffff08000000180000000400000010000000";
  static final String MODIFICATION_SEVERAL =
      "08002200f41c07002a00000000000000080002002b000000000000002c000000"
          + "0000000018000200ffffffffffffffffffffffffffffffffffffffffffffffff"
          + "0100612d000000000000002e000000000000002f000000000000000100620400"
          + "0200000000000000070000007b2278223a317d01000000030073756202000000"
          + "7b7d1000020030000000000000002a0000000000000031000000000000003000"
          + "000000000000";
  static final String MIGRATION_EMPTY = "10002300f41c0700ffffffffffffffffffffffffffffffff00000000";
  static final String MIGRATION_SEVERAL =
      "10002300f41c0700320000000000000033000000000000000000030001006102"
          + "0061320100620100620000010063";

  @Test
  void deployment() {
    check(DeploymentValue::new, new DeploymentValue(), DEPLOYMENT_EMPTY);
    check(DeploymentValue::new, severalDeployment(), DEPLOYMENT_SEVERAL);
  }

  @Test
  void jobBatch() {
    check(JobBatchValue::new, new JobBatchValue(), JOB_BATCH_EMPTY);
    check(JobBatchValue::new, severalJobBatch(), JOB_BATCH_SEVERAL);
  }

  @Test
  void modification() {
    check(
        ProcessInstanceModificationValue::new,
        new ProcessInstanceModificationValue(),
        MODIFICATION_EMPTY);
    check(ProcessInstanceModificationValue::new, severalModification(), MODIFICATION_SEVERAL);
  }

  @Test
  void migration() {
    check(ProcessInstanceMigrationValue::new, new ProcessInstanceMigrationValue(), MIGRATION_EMPTY);
    check(ProcessInstanceMigrationValue::new, severalMigration(), MIGRATION_SEVERAL);
  }

  @Test
  void copiesShareRecordsAndCopyNestedValues() {
    JobBatchValue batch = severalJobBatch();
    JobBatchValue copy = new JobBatchValue().copyFrom(batch);
    assertThat(describe(copy)).isEqualTo(describe(batch));
    assertThat(copy.jobs).hasSize(3);
    for (int i = 0; i < copy.jobs.size(); i++) {
      assertThat(copy.jobs.get(i)).isNotSameAs(batch.jobs.get(i));
    }
    assertThat(encode(copy)).isEqualTo(JOB_BATCH_SEVERAL);
    assertThat(encode(batch.copyFrom(batch))).as("copied onto itself").isEqualTo(JOB_BATCH_SEVERAL);

    ProcessInstanceModificationValue modification = severalModification();
    ProcessInstanceModificationValue copied =
        new ProcessInstanceModificationValue().copyFrom(modification);
    assertThat(copied.activations).isEqualTo(modification.activations);
    assertThat(copied.activations).isNotSameAs(modification.activations);
    assertThat(encode(copied)).isEqualTo(MODIFICATION_SEVERAL);
  }

  @Test
  void decodingReplacesTheEntries() {
    ProcessInstanceMigrationValue value = severalMigration();
    byte[] bytes = HEX.parseHex(MIGRATION_EMPTY);
    value.wrap(new UnsafeBuffer(bytes), 0, bytes.length);
    assertThat(value.mappings).isEmpty();
    JobBatchValue batch = severalJobBatch();
    bytes = HEX.parseHex(JOB_BATCH_EMPTY);
    batch.wrap(new UnsafeBuffer(bytes), 0, bytes.length);
    assertThat(batch.jobKeys).isEmpty();
    assertThat(batch.jobs).isEmpty();
    assertThat(batch.fetchVariables).isEmpty();
  }

  /** The decisions group came with version 3 of the schema: a deployment of before has none. */
  @Test
  void aDeploymentOfSchemaVersion2HasNoDecisions() {
    DeploymentValue value = severalDeployment();
    value.decisions.clear();
    String hex = encode(value);
    assertThat(hex).startsWith("00000a00f41c0700").endsWith("19000000");
    String version2 = "00000a00f41c0200" + hex.substring(16, hex.length() - "19000000".length());
    byte[] bytes = HEX.parseHex(version2);
    DeploymentValue decoded = severalDeployment();
    decoded.wrap(new UnsafeBuffer(bytes), 0, bytes.length);
    assertThat(describe(decoded)).isEqualTo(describe(value));
  }

  @Test
  void listsOfAGroupOfDifferentLengthsAreNotEncoded() {
    JobBatchValue batch = severalJobBatch();
    batch.jobKeys.remove(2);
    assertThatThrownBy(batch::length)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jobs");
  }

  @Test
  void aRecordComponentMustBeAFieldOfTheGroupOnce() {
    assertThatThrownBy(() -> mappings(mapping -> mapping.string("sourceElementId")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("targetElementId is no field");
    assertThatThrownBy(
            () ->
                mappings(
                    mapping ->
                        mapping
                            .string("sourceElementId", "targetElementId")
                            .string("targetElementId")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("targetElementId is two fields");
    assertThatThrownBy(() -> mappings(mapping -> mapping.string("sourceElementId", "source")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no component source");
  }

  private static ValueFields<ProcessInstanceMigrationValue> mappings(
      UnaryOperator<ValueFields.Entries<ProcessInstanceMigrationValue.Mapping>> fields) {
    return ValueFields.of(
            ProcessInstanceMigrationValue.class,
            ProcessInstanceMigrationValueEncoder.class,
            ProcessInstanceMigrationValueDecoder.class)
        .int64("processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
        .int64(
            "targetProcessDefinitionKey",
            v -> v.targetProcessDefinitionKey,
            (v, x) -> v.targetProcessDefinitionKey = x)
        .group("mappings", v -> v.mappings, ProcessInstanceMigrationValue.Mapping.class, fields)
        .build();
  }

  static DeploymentValue severalDeployment() {
    DeploymentValue value = new DeploymentValue();
    value.resources.add(new DeploymentValue.Resource("a.bpmn", utf8("<a/>")));
    value.resources.add(new DeploymentValue.Resource("empty.bpmn", new byte[0]));
    value.resources.add(new DeploymentValue.Resource("b.dmn", utf8("<definitions/>")));
    value.processes.add(
        new DeploymentValue.Process(2251799813685249L, 1, false, "a", "a.bpmn", "c1"));
    value.processes.add(new DeploymentValue.Process(2251799813685250L, 7, true, "b", "a.bpmn", ""));
    value.decisions.add(
        new DeploymentValue.Decision(
            11, "d1", "Decision one", 2, true, 12, "g", "Graph", 3, "b.dmn", "c2"));
    value.decisions.add(
        new DeploymentValue.Decision(13, "d2", "", 1, false, 12, "g", "Graph", 3, "b.dmn", "c2"));
    return value;
  }

  static JobBatchValue severalJobBatch() {
    JobBatchValue value = new JobBatchValue();
    value.timeoutMs = 30_000;
    value.maxJobsToActivate = 3;
    value.truncated = true;
    value.type = "ship";
    value.worker = "worker-1";
    for (int i = 1; i <= 3; i++) {
      JobValue job = new JobValue();
      job.type = "ship";
      job.worker = "worker-1";
      job.retries = i;
      job.deadline = 1_000_000L + i;
      job.processInstanceKey = 100 + i;
      job.elementInstanceKey = 200 + i;
      job.bpmnProcessId = "order";
      job.elementId = "task-" + i;
      job.variables = utf8("{\"n\":" + i + "}");
      value.jobKeys.add(300L + i);
      value.jobs.add(job);
    }
    value.fetchVariables.add("n");
    value.fetchVariables.add("order");
    return value;
  }

  static ProcessInstanceModificationValue severalModification() {
    ProcessInstanceModificationValue value = new ProcessInstanceModificationValue();
    value.processInstanceKey = 42;
    value.terminations.add(43L);
    value.terminations.add(44L);
    value.activations.add(new ProcessInstanceModificationValue.Activation("a", -1));
    value.activations.add(new ProcessInstanceModificationValue.Activation("b", 45, 46, 47));
    value.variables.add(new ProcessInstanceModificationValue.Variables(0, "", utf8("{\"x\":1}")));
    value.variables.add(new ProcessInstanceModificationValue.Variables(1, "sub", utf8("{}")));
    value.createdScopes.add(new ProcessInstanceModificationValue.CreatedScope(48, 42));
    value.createdScopes.add(new ProcessInstanceModificationValue.CreatedScope(49, 48));
    return value;
  }

  static ProcessInstanceMigrationValue severalMigration() {
    ProcessInstanceMigrationValue value = new ProcessInstanceMigrationValue();
    value.processInstanceKey = 50;
    value.targetProcessDefinitionKey = 51;
    value.mappings.add(new ProcessInstanceMigrationValue.Mapping("a", "a2"));
    value.mappings.add(new ProcessInstanceMigrationValue.Mapping("b", "b"));
    value.mappings.add(new ProcessInstanceMigrationValue.Mapping("", "c"));
    return value;
  }

  /**
   * {@code value} encodes to {@code hex}; {@code hex} decodes to {@code value}'s fields and encodes
   * again to itself.
   */
  private static <V extends WorkflowValue> void check(Supplier<V> type, V value, String hex) {
    String name = value.getClass().getSimpleName();
    assertThat(encode(value)).as("%s encoded", name).isEqualTo(hex);
    byte[] bytes = HEX.parseHex(hex);
    V decoded = type.get();
    decoded.wrap(new UnsafeBuffer(bytes), 0, bytes.length);
    assertThat(describe(decoded)).as("%s decoded", name).isEqualTo(describe(value));
    assertThat(encode(decoded)).as("%s decoded and encoded", name).isEqualTo(hex);
  }

  static String encode(WorkflowValue value) {
    ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
    int length = value.length();
    value.write(buffer, 0);
    return HEX.formatHex(buffer.byteArray(), 0, length);
  }

  /** The public fields of a value, recursively: byte arrays as text, records as maps. */
  static Object describe(Object value) {
    if (value == null || value instanceof String || value instanceof Number) {
      return value;
    }
    if (value instanceof Boolean || value instanceof Enum<?>) {
      return value;
    }
    if (value instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    if (value instanceof List<?> list) {
      List<Object> described = new ArrayList<>();
      for (Object entry : list) {
        described.add(describe(entry));
      }
      return described;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    try {
      if (value instanceof Record) {
        for (RecordComponent component : value.getClass().getRecordComponents()) {
          fields.put(component.getName(), describe(component.getAccessor().invoke(value)));
        }
      } else {
        for (Field field : value.getClass().getDeclaredFields()) {
          int modifiers = field.getModifiers();
          if (Modifier.isPublic(modifiers) && !Modifier.isStatic(modifiers)) {
            fields.put(field.getName(), describe(field.get(value)));
          }
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
    return fields;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
