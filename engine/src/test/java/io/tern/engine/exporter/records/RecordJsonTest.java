package io.tern.engine.exporter.records;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.camunda.zeebe.protocol.record.ImmutableRecord;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.RejectionType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.DeploymentIntent;
import io.camunda.zeebe.protocol.record.intent.JobBatchIntent;
import io.camunda.zeebe.protocol.record.intent.JobIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.camunda.zeebe.protocol.record.value.BpmnEventType;
import io.camunda.zeebe.protocol.record.value.ImmutableDeploymentRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableJobBatchRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableJobRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.JobKind;
import io.camunda.zeebe.protocol.record.value.JobListenerEventType;
import io.camunda.zeebe.protocol.record.value.deployment.ImmutableDeploymentResource;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordJsonTest {
  private static final JsonMapper JSON = new JsonMapper();

  private static final ImmutableJobRecordValue JOB =
      ImmutableJobRecordValue.builder()
          .withType("payment")
          .withWorker("w-1")
          .withRetries(3)
          .withRetryBackoff(0)
          .withRecurringTime(-1)
          .withDeadline(1_700_000_060_000L)
          .withTimeout(60_000)
          .withErrorMessage("")
          .withErrorCode("")
          .withElementId("charge")
          .withElementInstanceKey(2251799813685260L)
          .withBpmnProcessId("order")
          .withProcessDefinitionVersion(2)
          .withProcessDefinitionKey(2251799813685249L)
          .withProcessInstanceKey(2251799813685255L)
          .withTenantId("<default>")
          .withJobKind(JobKind.BPMN_ELEMENT)
          .withJobListenerEventType(JobListenerEventType.UNSPECIFIED)
          .putCustomHeader("priority", "high")
          .withVariables(Map.of("amount", 12.5, "items", List.of(1, 2), "vip", true))
          .build();

  @Test
  void aJobEventHasZeebesFieldsAndItsValueThePropertiesOfJobRecordValue() throws Exception {
    Record<?> record =
        new ExportedRecord<>(
            ImmutableRecord.<RecordValue>builder()
                .withPartitionId(2)
                .withPosition(42)
                .withSourceRecordPosition(41)
                .withKey(2251799813685261L)
                .withTimestamp(1_700_000_000_000L)
                .withRecordType(RecordType.EVENT)
                .withValueType(ValueType.JOB)
                .withIntent(JobIntent.CREATED)
                .withRejectionType(RejectionType.NULL_VAL)
                .withRejectionReason("")
                .withBrokerVersion("8.6.0")
                .withRecordVersion(1)
                .withOperationReference(-1)
                .withValue(JOB)
                .build());

    JsonNode json = JSON.readTree(record.toJson());

    assertThat(json.get("partitionId").asInt()).isEqualTo(2);
    assertThat(json.get("position").asLong()).isEqualTo(42);
    assertThat(json.get("sourceRecordPosition").asLong()).isEqualTo(41);
    assertThat(json.get("key").asLong()).isEqualTo(2251799813685261L);
    assertThat(json.get("timestamp").asLong()).isEqualTo(1_700_000_000_000L);
    assertThat(json.get("recordType").asText()).isEqualTo("EVENT");
    assertThat(json.get("valueType").asText()).isEqualTo("JOB");
    assertThat(json.get("intent").asText()).isEqualTo("CREATED");
    assertThat(json.get("rejectionType").asText()).isEqualTo("NULL_VAL");
    assertThat(json.get("rejectionReason").asText()).isEmpty();
    assertThat(json.get("brokerVersion").asText()).isEqualTo("8.6.0");
    assertThat(json.get("recordVersion").asInt()).isEqualTo(1);
    assertThat(json.get("operationReference").asLong()).isEqualTo(-1);
    assertThat(json.get("authorizations").isObject()).isTrue();

    JsonNode value = json.get("value");
    assertThat(fieldNames(value))
        .containsExactlyInAnyOrder(
            "type",
            "customHeaders",
            "worker",
            "retries",
            "retryBackoff",
            "recurringTime",
            "deadline",
            "timeout",
            "errorMessage",
            "errorCode",
            "elementId",
            "elementInstanceKey",
            "bpmnProcessId",
            "processDefinitionVersion",
            "processDefinitionKey",
            "processInstanceKey",
            "tenantId",
            "variables",
            "jobKind",
            "jobListenerEventType",
            "changedAttributes");
    assertThat(value.get("type").asText()).isEqualTo("payment");
    assertThat(value.get("processInstanceKey").asLong()).isEqualTo(2251799813685255L);
    assertThat(value.get("jobKind").asText()).isEqualTo("BPMN_ELEMENT");
    assertThat(value.get("customHeaders").get("priority").asText()).isEqualTo("high");
    assertThat(value.get("variables").get("amount").asDouble()).isEqualTo(12.5);
    assertThat(value.get("variables").get("items").get(1).asInt()).isEqualTo(2);
    assertThat(value.get("variables").get("vip").asBoolean()).isTrue();
  }

  @Test
  void aProcessInstanceValueHasItsElementTypesByName() throws Exception {
    Record<?> record =
        new ExportedRecord<>(
            envelope(
                ValueType.PROCESS_INSTANCE,
                ProcessInstanceIntent.ELEMENT_ACTIVATED,
                ImmutableProcessInstanceRecordValue.builder()
                    .withBpmnProcessId("order")
                    .withVersion(1)
                    .withProcessDefinitionKey(1)
                    .withProcessInstanceKey(5)
                    .withElementId("timer")
                    .withFlowScopeKey(5)
                    .withBpmnElementType(BpmnElementType.INTERMEDIATE_CATCH_EVENT)
                    .withBpmnEventType(BpmnEventType.TIMER)
                    .withParentProcessInstanceKey(-1)
                    .withParentElementInstanceKey(-1)
                    .withTenantId("<default>")
                    .build()));

    JsonNode value = JSON.readTree(record.toJson()).get("value");

    assertThat(value.get("bpmnElementType").asText()).isEqualTo("INTERMEDIATE_CATCH_EVENT");
    assertThat(value.get("bpmnEventType").asText()).isEqualTo("TIMER");
    assertThat(value.get("parentProcessInstanceKey").asLong()).isEqualTo(-1);
    assertThat(value.get("flowScopeKey").asLong()).isEqualTo(5);
    assertThat(value.get("version").asInt()).isEqualTo(1);
  }

  /** A value inside a value (a batch's jobs) is written through its interface too. */
  @Test
  void nestedValuesAndBooleansAreWrittenAsTheProtocolNamesThem() throws Exception {
    Record<?> record =
        new ExportedRecord<>(
            envelope(
                ValueType.JOB_BATCH,
                JobBatchIntent.ACTIVATED,
                ImmutableJobBatchRecordValue.builder()
                    .withType("payment")
                    .withWorker("w-1")
                    .withTimeout(60_000)
                    .withMaxJobsToActivate(10)
                    .withJobKeys(List.of(7L))
                    .withJobs(List.of(JOB))
                    .withTruncated(false)
                    .withTenantIds(List.of("<default>"))
                    .build()));

    JsonNode value = JSON.readTree(record.toJson()).get("value");

    assertThat(value.get("truncated").isBoolean()).isTrue();
    assertThat(value.get("jobKeys").get(0).asLong()).isEqualTo(7);
    JsonNode job = value.get("jobs").get(0);
    assertThat(job.get("type").asText()).isEqualTo("payment");
    assertThat(fieldNames(job)).hasSize(21).doesNotContain("empty", "from");
  }

  @Test
  void bytesAreBase64() throws Exception {
    byte[] bpmn = "<definitions/>".getBytes(StandardCharsets.UTF_8);
    Record<?> record =
        new ExportedRecord<>(
            envelope(
                ValueType.DEPLOYMENT,
                DeploymentIntent.CREATED,
                ImmutableDeploymentRecordValue.builder()
                    .withTenantId("<default>")
                    .addResources(
                        ImmutableDeploymentResource.builder()
                            .withResourceName("order.bpmn")
                            .withResource(bpmn)
                            .build())
                    .build()));

    JsonNode resource = JSON.readTree(record.toJson()).get("value").get("resources").get(0);

    assertThat(resource.get("resourceName").asText()).isEqualTo("order.bpmn");
    assertThat(Base64.getDecoder().decode(resource.get("resource").asText())).isEqualTo(bpmn);
  }

  @Test
  void aRejectionCarriesItsTypeAndReasonAndACopyKeepsItsJson() throws Exception {
    ImmutableRecord<RecordValue> rejected =
        ImmutableRecord.<RecordValue>builder()
            .from(envelope(ValueType.JOB, JobIntent.COMPLETE, JOB))
            .withRecordType(RecordType.COMMAND_REJECTION)
            .withRejectionType(RejectionType.NOT_FOUND)
            .withRejectionReason("Expected to complete job with key '7', but no such job was found")
            .build();
    Record<RecordValue> record = new ExportedRecord<>(rejected);

    JsonNode json = JSON.readTree(record.copyOf().toJson());

    assertThat(json.get("recordType").asText()).isEqualTo("COMMAND_REJECTION");
    assertThat(json.get("intent").asText()).isEqualTo("COMPLETE");
    assertThat(json.get("rejectionType").asText()).isEqualTo("NOT_FOUND");
    assertThat(json.get("rejectionReason").asText()).contains("no such job");
    assertThat(record.copyOf()).isSameAs(record);
  }

  private static ImmutableRecord<RecordValue> envelope(
      ValueType valueType,
      io.camunda.zeebe.protocol.record.intent.Intent intent,
      RecordValue value) {
    return ImmutableRecord.<RecordValue>builder()
        .withPartitionId(1)
        .withPosition(10)
        .withSourceRecordPosition(9)
        .withKey(5)
        .withTimestamp(1_700_000_000_000L)
        .withRecordType(RecordType.EVENT)
        .withValueType(valueType)
        .withIntent(intent)
        .withRejectionType(RejectionType.NULL_VAL)
        .withRejectionReason("")
        .withBrokerVersion("8.6.0")
        .withRecordVersion(1)
        .withOperationReference(-1)
        .withValue(value)
        .build();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
