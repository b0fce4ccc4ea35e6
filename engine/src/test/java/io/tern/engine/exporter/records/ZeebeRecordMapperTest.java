package io.tern.engine.exporter.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.RejectionType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.camunda.zeebe.protocol.record.value.DeploymentRecordValue;
import io.camunda.zeebe.protocol.record.value.ErrorType;
import io.camunda.zeebe.protocol.record.value.IncidentRecordValue;
import io.camunda.zeebe.protocol.record.value.JobBatchRecordValue;
import io.camunda.zeebe.protocol.record.value.JobKind;
import io.camunda.zeebe.protocol.record.value.JobRecordValue;
import io.camunda.zeebe.protocol.record.value.MessageRecordValue;
import io.camunda.zeebe.protocol.record.value.MessageSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceCreationRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessMessageSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.SignalRecordValue;
import io.camunda.zeebe.protocol.record.value.SignalSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.TenantOwned;
import io.camunda.zeebe.protocol.record.value.TimerRecordValue;
import io.camunda.zeebe.protocol.record.value.VariableDocumentRecordValue;
import io.camunda.zeebe.protocol.record.value.VariableDocumentUpdateSemantic;
import io.camunda.zeebe.protocol.record.value.VariableRecordValue;
import io.camunda.zeebe.protocol.record.value.deployment.ProcessMetadataValue;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.protocol.VariableIntent;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.SignalValue;
import io.tern.engine.workflow.value.VariableDocumentValue;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * One real run of the engine, mapped record by record: an order process whose job fails into an
 * incident and is completed once it is resolved, whose variables are set from outside, and which
 * then waits for a timer, a message and a signal before calling a child process. Every committed
 * record is mapped as the exporter director will, and the Zeebe fields are checked against what the
 * run did.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZeebeRecordMapperTest {
  private static final String VARIABLES =
      "{\"orderId\": \"o-1\", \"amount\": 12.5, \"count\": 3, \"big\": 10000000000,"
          + " \"huge\": 123456789012345678901234567890,"
          + " \"nested\": {\"a\": [1, \"x\", null], \"t\": true}, \"none\": null}";

  private EngineRun run;
  private List<EngineRun.Mapped> records;
  private long processInstanceKey;
  private long jobKey;
  private Answer rejected;

  private static BpmnModelInstance order() {
    return Bpmn.createExecutableProcess("order")
        .startEvent("start")
        .serviceTask(
            "task",
            t ->
                t.zeebeJobType("work")
                    .zeebeTaskHeader("color", "blue")
                    .zeebeTaskHeader("size", "L"))
        .intermediateCatchEvent("wait", e -> e.timerWithDuration("PT0.1S"))
        .intermediateCatchEvent(
            "msg", e -> e.message(m -> m.name("ping").zeebeCorrelationKeyExpression("orderId")))
        .intermediateCatchEvent("sig", e -> e.signal("go"))
        .callActivity("call", c -> c.zeebeProcessId("child"))
        .endEvent("end")
        .done();
  }

  private static BpmnModelInstance child() {
    return Bpmn.createExecutableProcess("child").startEvent("cstart").endEvent("cend").done();
  }

  @BeforeAll
  void runTheOrder(@TempDir Path dir) {
    run = new EngineRun(dir);
    run.deploy(order(), child());
    processInstanceKey = run.create("order", VARIABLES).key();

    jobKey = run.activate("work").jobKeys.get(0);
    JobValue failure = new JobValue();
    failure.retries = 0;
    failure.errorMessage = "boom";
    EngineRun.accepted(run.send(JobIntent.FAIL, jobKey, failure));
    run.awaitRecord(IncidentIntent.CREATED);
    long incidentKey = only(IncidentIntent.CREATED, RecordType.EVENT).getKey();
    JobValue retries = new JobValue();
    retries.retries = 1;
    EngineRun.accepted(run.send(JobIntent.UPDATE_RETRIES, jobKey, retries));
    EngineRun.accepted(run.send(IncidentIntent.RESOLVE, incidentKey, new IncidentValue()));
    assertThat(run.activate("work").jobKeys).containsExactly(jobKey);
    JobValue completion = new JobValue();
    completion.variables = "{\"result\": \"ok\"}".getBytes(StandardCharsets.UTF_8);
    EngineRun.accepted(run.send(JobIntent.COMPLETE, jobKey, completion));
    rejected = run.send(JobIntent.COMPLETE, jobKey, completion);

    VariableDocumentValue document = new VariableDocumentValue();
    document.scopeKey = processInstanceKey;
    document.variables = "{\"extra\": true}".getBytes(StandardCharsets.UTF_8);
    EngineRun.accepted(run.send(VariableDocumentIntent.UPDATE, -1, document));

    run.awaitRecord(ProcessMessageSubscriptionIntent.CREATED);
    MessageValue message = new MessageValue();
    message.name = "ping";
    message.correlationKey = "o-1";
    message.timeToLiveMs = 60_000;
    message.messageId = "m-1";
    message.variables = "{\"pinged\": 1}".getBytes(StandardCharsets.UTF_8);
    EngineRun.accepted(run.send(MessageIntent.PUBLISH, -1, message));

    run.awaitRecord(SignalSubscriptionIntent.CREATED);
    SignalValue signal = new SignalValue();
    signal.signalName = "go";
    signal.variables = "{\"sig\": \"nal\"}".getBytes(StandardCharsets.UTF_8);
    EngineRun.accepted(run.send(SignalIntent.BROADCAST, -1, signal));

    run.awaitRecord(
        ProcessInstanceIntent.ELEMENT_COMPLETED,
        r -> ((ProcessInstanceRecordValue) r.getValue()).getElementId().equals("order"));
    records = run.mapAll();
  }

  @AfterAll
  void close() {
    if (run != null) {
      run.close();
    }
  }

  // ------------------------------------------------------------------ helpers over the mapped log

  private List<Record<?>> all(Intent intent, RecordType type) {
    List<EngineRun.Mapped> source = records == null ? run.mapAll() : records;
    return source.stream()
        .filter(m -> m.intent() == intent && m.zeebe() != null)
        .map(EngineRun.Mapped::zeebe)
        .filter(r -> r.getRecordType() == type)
        .toList();
  }

  private Record<?> only(Intent intent, RecordType type) {
    List<Record<?>> found = all(intent, type);
    assertThat(found).as("%s %s records", type, intent).hasSize(1);
    return found.get(0);
  }

  @SuppressWarnings("unchecked")
  private <T> T value(Intent intent, RecordType type) {
    return (T) only(intent, type).getValue();
  }

  private Record<ProcessInstanceRecordValue> element(String elementId, Intent intent) {
    @SuppressWarnings("unchecked")
    List<Record<ProcessInstanceRecordValue>> found =
        all(intent, RecordType.EVENT).stream()
            .map(r -> (Record<ProcessInstanceRecordValue>) r)
            .filter(r -> r.getValue().getElementId().equals(elementId))
            .toList();
    assertThat(found).as("%s %s", elementId, intent).hasSize(1);
    return found.get(0);
  }

  // ------------------------------------------------------------------ the record's own fields

  @Test
  void everyRecordOfTheRunIsMappedWithItsPositionKeyAndMetadata() {
    assertThat(records).hasSizeGreaterThan(100);
    List<EngineRun.Mapped> skipped = records.stream().filter(m -> m.zeebe() == null).toList();
    assertThat(skipped).as("no record of this run is Tern's own").isEmpty();
    long lastPosition = -1;
    for (EngineRun.Mapped mapped : records) {
      Record<?> zeebe = mapped.zeebe();
      assertThat(zeebe.getPosition()).isEqualTo(mapped.position()).isGreaterThan(lastPosition);
      lastPosition = zeebe.getPosition();
      assertThat(zeebe.getKey()).isEqualTo(mapped.key());
      assertThat(zeebe.getPartitionId()).isEqualTo(1);
      assertThat(zeebe.getBrokerVersion()).isEqualTo(EngineRun.BROKER_VERSION);
      assertThat(zeebe.getRecordVersion()).isEqualTo(1);
      assertThat(zeebe.getOperationReference()).isEqualTo(-1);
      assertThat(zeebe.getAuthorizations()).isEmpty();
      assertThat(zeebe.getTimestamp()).isPositive();
      assertThat(zeebe.getValueType().name()).isEqualTo(mapped.valueType().name());
      assertThat(zeebe.getIntent().name()).isEqualTo(mapped.intent().name());
      assertThat(zeebe.getRecordType().name()).isEqualTo(mapped.recordType().name());
      if (zeebe.getValue() instanceof TenantOwned owned) {
        assertThat(owned.getTenantId()).isEqualTo(TenantOwned.DEFAULT_TENANT_IDENTIFIER);
      }
      if (zeebe.getRecordType() != RecordType.COMMAND_REJECTION) {
        assertThat(zeebe.getRejectionType()).isEqualTo(RejectionType.NULL_VAL);
        assertThat(zeebe.getRejectionReason()).isEmpty();
      }
    }
  }

  @Test
  void anEventNamesTheCommandItFollowsAsItsSource() {
    Record<?> created = only(CreationIntent.CREATED, RecordType.EVENT);
    Record<?> command = only(CreationIntent.CREATE, RecordType.COMMAND);
    assertThat(command.getSourceRecordPosition()).isEqualTo(-1);
    assertThat(created.getSourceRecordPosition()).isEqualTo(command.getPosition());
  }

  @Test
  void aRejectedCommandCarriesItsRejectionTypeReasonAndValue() {
    assertThat(rejected.rejection()).isEqualTo(io.tern.engine.record.sbe.RejectionType.NOT_FOUND);
    Record<?> rejection = only(JobIntent.COMPLETE, RecordType.COMMAND_REJECTION);
    assertThat(rejection.getValueType()).isEqualTo(ValueType.JOB);
    assertThat(rejection.getRejectionType()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(rejection.getRejectionReason()).isEqualTo(rejected.reason()).isNotEmpty();
    assertThat(rejection.getKey()).isEqualTo(jobKey);
    assertThat(((JobRecordValue) rejection.getValue()).getVariables())
        .containsExactly(entry("result", "ok"));
  }

  @Test
  void theMappedRecordsOutliveTheBytesTheyWereReadFrom() {
    List<byte[]> batches = run.copyOfLog();
    List<EngineRun.Mapped> mapped =
        EngineRun.mapAll(new ZeebeRecordMapper(1, EngineRun.BROKER_VERSION), batches);
    List<String> before = mapped.stream().map(m -> String.valueOf(m.zeebe())).toList();
    batches.forEach(batch -> Arrays.fill(batch, (byte) 0x5a));
    assertThat(mapped.stream().map(m -> String.valueOf(m.zeebe())).toList())
        .isEqualTo(before)
        .isEqualTo(records.stream().map(m -> String.valueOf(m.zeebe())).toList());
  }

  @Test
  void aRecordIsItsOwnCopyAndWritesItselfAsZeebesJson() throws Exception {
    Record<?> created = only(JobIntent.CREATED, RecordType.EVENT);
    assertThat(created.copyOf()).isSameAs(created);
    JsonNode json = new ObjectMapper().readTree(created.toJson());
    assertThat(json.path("position").asLong()).isEqualTo(created.getPosition());
    assertThat(json.path("key").asLong()).isEqualTo(jobKey);
    assertThat(json.path("partitionId").asInt()).isEqualTo(1);
    assertThat(json.path("valueType").asText()).isEqualTo("JOB");
    assertThat(json.path("intent").asText()).isEqualTo("CREATED");
    assertThat(json.path("recordType").asText()).isEqualTo("EVENT");
    assertThat(json.path("rejectionType").asText()).isEqualTo("NULL_VAL");
    assertThat(json.path("brokerVersion").asText()).isEqualTo(EngineRun.BROKER_VERSION);
    JsonNode job = json.path("value");
    assertThat(job.path("type").asText()).isEqualTo("work");
    assertThat(job.path("retries").asInt()).isEqualTo(3);
    assertThat(job.path("customHeaders").path("color").asText()).isEqualTo("blue");
    assertThat(job.path("processInstanceKey").asLong()).isEqualTo(processInstanceKey);
    assertThat(job.path("tenantId").asText()).isEqualTo(TenantOwned.DEFAULT_TENANT_IDENTIFIER);

    JsonNode deployment =
        new ObjectMapper().readTree(only(DeploymentIntent.CREATED, RecordType.EVENT).toJson());
    assertThat(
            deployment.path("value").path("processesMetadata").get(0).path("duplicate").isBoolean())
        .isTrue();
    assertThat(
            new String(
                deployment.path("value").path("resources").get(0).path("resource").binaryValue(),
                StandardCharsets.UTF_8))
        .contains("<process id=\"order\"");
  }

  // ------------------------------------------------------------------ process instances

  @Test
  void processInstanceRecordsNameTheElementItsTypeAndScope() {
    Record<ProcessInstanceRecordValue> process =
        element("order", ProcessInstanceIntent.ELEMENT_ACTIVATING);
    assertThat(process.getKey()).isEqualTo(processInstanceKey);
    ProcessInstanceRecordValue value = process.getValue();
    assertThat(value.getBpmnElementType()).isEqualTo(BpmnElementType.PROCESS);
    assertThat(value.getBpmnProcessId()).isEqualTo("order");
    assertThat(value.getVersion()).isEqualTo(1);
    assertThat(value.getProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(value.getProcessDefinitionKey()).isPositive();
    assertThat(value.getFlowScopeKey()).isEqualTo(-1);
    assertThat(value.getParentProcessInstanceKey()).isEqualTo(-1);
    assertThat(value.getParentElementInstanceKey()).isEqualTo(-1);

    ProcessInstanceRecordValue task =
        element("task", ProcessInstanceIntent.ELEMENT_ACTIVATED).getValue();
    assertThat(task.getBpmnElementType()).isEqualTo(BpmnElementType.SERVICE_TASK);
    assertThat(task.getFlowScopeKey()).isEqualTo(processInstanceKey);
    assertThat(task.getProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(
            element("wait", ProcessInstanceIntent.ELEMENT_COMPLETED)
                .getValue()
                .getBpmnElementType())
        .isEqualTo(BpmnElementType.INTERMEDIATE_CATCH_EVENT);
    assertThat(
            all(ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN, RecordType.EVENT).stream()
                .map(r -> ((ProcessInstanceRecordValue) r.getValue()).getBpmnElementType())
                .distinct())
        .containsExactly(BpmnElementType.SEQUENCE_FLOW);
    assertThat(all(ProcessInstanceIntent.ACTIVATE_ELEMENT, RecordType.COMMAND)).isNotEmpty();
  }

  @Test
  void aCalledProcessNamesTheCallActivityAndTheProcessInstanceThatCalledIt() {
    Record<ProcessInstanceRecordValue> call =
        element("call", ProcessInstanceIntent.ELEMENT_ACTIVATED);
    assertThat(call.getValue().getBpmnElementType()).isEqualTo(BpmnElementType.CALL_ACTIVITY);
    ProcessInstanceRecordValue child =
        element("child", ProcessInstanceIntent.ELEMENT_ACTIVATING).getValue();
    assertThat(child.getBpmnProcessId()).isEqualTo("child");
    assertThat(child.getParentElementInstanceKey()).isEqualTo(call.getKey());
    assertThat(child.getParentProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(child.getProcessInstanceKey()).isNotEqualTo(processInstanceKey);
  }

  @Test
  void theCreationCarriesItsVariablesAsZeebesMessagePackReadingWouldGiveThem() {
    ProcessInstanceCreationRecordValue created = value(CreationIntent.CREATED, RecordType.EVENT);
    assertThat(created.getBpmnProcessId()).isEqualTo("order");
    assertThat(created.getProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(created.getVersion()).isEqualTo(1);
    assertThat(created.getStartInstructions()).isEmpty();
    assertThat(created.getVariables()).as("Tern's CREATED leaves them out").isEmpty();
    ProcessInstanceCreationRecordValue command = value(CreationIntent.CREATE, RecordType.COMMAND);
    assertThat(command.getProcessInstanceKey()).isEqualTo(-1);
    assertThat(command.getBpmnProcessId()).isEqualTo("order");
    Map<String, Object> variables = command.getVariables();
    assertThat(variables)
        .containsEntry("orderId", "o-1")
        .containsEntry("amount", 12.5)
        .containsEntry("count", 3)
        .containsEntry("big", 10_000_000_000L)
        .containsEntry("huge", new BigInteger("123456789012345678901234567890"))
        .containsEntry("none", null);
    assertThat(variables.get("count")).isInstanceOf(Integer.class);
    assertThat(variables.get("amount")).isInstanceOf(Double.class);
    assertThat(variables.get("nested"))
        .isEqualTo(Map.of("a", Arrays.asList(1, "x", null), "t", true));
  }

  // ------------------------------------------------------------------ jobs and incidents

  @Test
  void aJobNamesItsTypeHeadersRetriesAndElement() {
    Record<?> created = only(JobIntent.CREATED, RecordType.EVENT);
    assertThat(created.getKey()).isEqualTo(jobKey);
    JobRecordValue job = (JobRecordValue) created.getValue();
    assertThat(job.getType()).isEqualTo("work");
    assertThat(job.getRetries()).isEqualTo(3);
    assertThat(job.getProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(job.getElementId()).isEqualTo("task");
    assertThat(job.getElementInstanceKey())
        .isEqualTo(element("task", ProcessInstanceIntent.ELEMENT_ACTIVATED).getKey());
    assertThat(job.getBpmnProcessId()).isEqualTo("order");
    assertThat(job.getProcessDefinitionVersion()).isEqualTo(1);
    assertThat(job.getCustomHeaders()).containsExactly(entry("color", "blue"), entry("size", "L"));
    assertThat(job.getJobKind()).isEqualTo(JobKind.BPMN_ELEMENT);
    assertThat(job.getTimeout()).isEqualTo(-1);
    assertThat(job.getRecurringTime()).isEqualTo(-1);

    JobRecordValue failed = value(JobIntent.FAILED, RecordType.EVENT);
    assertThat(failed.getRetries()).isZero();
    assertThat(failed.getErrorMessage()).isEqualTo("boom");
    JobRecordValue complete =
        (JobRecordValue) all(JobIntent.COMPLETE, RecordType.COMMAND).get(0).getValue();
    assertThat(complete.getVariables()).containsExactly(entry("result", "ok"));
    JobRecordValue completed = value(JobIntent.COMPLETED, RecordType.EVENT);
    assertThat(completed.getType()).isEqualTo("work");
    assertThat(completed.getVariables()).as("Tern's COMPLETED leaves them out").isEmpty();
    assertThat(((JobRecordValue) value(JobIntent.RETRIES_UPDATED, RecordType.EVENT)).getRetries())
        .isEqualTo(1);
  }

  @Test
  void anActivatedBatchCarriesEachJobWithItsVariables() {
    List<Record<?>> batches = all(JobBatchIntent.ACTIVATED, RecordType.EVENT);
    Record<?> first =
        batches.stream()
            .filter(r -> !((JobBatchRecordValue) r.getValue()).getJobKeys().isEmpty())
            .findFirst()
            .orElseThrow();
    JobBatchRecordValue batch = (JobBatchRecordValue) first.getValue();
    assertThat(batch.getType()).isEqualTo("work");
    assertThat(batch.getWorker()).isEqualTo("w-1");
    assertThat(batch.getTimeout()).isEqualTo(60_000);
    assertThat(batch.getMaxJobsToActivate()).isEqualTo(5);
    assertThat(batch.getTenantIds()).containsExactly(TenantOwned.DEFAULT_TENANT_IDENTIFIER);
    assertThat(batch.getJobKeys()).containsExactly(jobKey);
    JobRecordValue job = batch.getJobs().get(0);
    assertThat(job.getType()).isEqualTo("work");
    assertThat(job.getWorker()).isEqualTo("w-1");
    assertThat(job.getDeadline()).isGreaterThan(first.getTimestamp());
    assertThat(job.getVariables()).containsEntry("orderId", "o-1").containsEntry("count", 3);
  }

  @Test
  void anIncidentNamesItsErrorJobAndElement() {
    Record<?> created = only(IncidentIntent.CREATED, RecordType.EVENT);
    IncidentRecordValue incident = (IncidentRecordValue) created.getValue();
    assertThat(incident.getErrorType()).isEqualTo(ErrorType.JOB_NO_RETRIES);
    assertThat(incident.getErrorMessage()).contains("boom");
    assertThat(incident.getJobKey()).isEqualTo(jobKey);
    assertThat(incident.getElementId()).isEqualTo("task");
    assertThat(incident.getBpmnProcessId()).isEqualTo("order");
    assertThat(incident.getProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(incident.getVariableScopeKey()).isEqualTo(incident.getElementInstanceKey());
    assertThat(only(IncidentIntent.RESOLVED, RecordType.EVENT).getKey())
        .isEqualTo(created.getKey());
  }

  // ------------------------------------------------------------------ variables

  @Test
  void aVariableIsCompactJsonText() {
    Map<String, String> values = new java.util.HashMap<>();
    for (Record<?> record : all(VariableIntent.CREATED, RecordType.EVENT)) {
      VariableRecordValue variable = (VariableRecordValue) record.getValue();
      assertThat(variable.getBpmnProcessId()).isEmpty();
      if (variable.getScopeKey() == processInstanceKey) {
        assertThat(variable.getProcessInstanceKey()).isEqualTo(processInstanceKey);
        assertThat(variable.getProcessDefinitionKey()).isPositive();
        values.put(variable.getName(), variable.getValue());
      }
    }
    assertThat(values)
        .containsEntry("orderId", "\"o-1\"")
        .containsEntry("amount", "12.5")
        .containsEntry("nested", "{\"a\":[1,\"x\",null],\"t\":true}")
        .containsEntry("none", "null")
        .containsEntry("result", "\"ok\"")
        .containsEntry("extra", "true");
  }

  @Test
  void aVariableDocumentNamesItsScopeAndSemantics() {
    VariableDocumentRecordValue update = value(VariableDocumentIntent.UPDATE, RecordType.COMMAND);
    assertThat(update.getScopeKey()).isEqualTo(processInstanceKey);
    assertThat(update.getUpdateSemantics()).isEqualTo(VariableDocumentUpdateSemantic.PROPAGATE);
    assertThat(update.getVariables()).containsExactly(entry("extra", true));
    VariableDocumentRecordValue updated = value(VariableDocumentIntent.UPDATED, RecordType.EVENT);
    assertThat(updated.getScopeKey()).isEqualTo(processInstanceKey);
    assertThat(updated.getVariables()).as("Tern's UPDATED leaves them out").isEmpty();
  }

  // ------------------------------------------------------------------ timers, messages, signals

  @Test
  void aTimerNamesItsElementAndDueDate() {
    Record<?> created = only(TimerIntent.CREATED, RecordType.EVENT);
    TimerRecordValue timer = (TimerRecordValue) created.getValue();
    assertThat(timer.getTargetElementId()).isEqualTo("wait");
    assertThat(timer.getElementInstanceKey())
        .isEqualTo(element("wait", ProcessInstanceIntent.ELEMENT_ACTIVATED).getKey());
    assertThat(timer.getProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(timer.getDueDate()).isBetween(created.getTimestamp(), created.getTimestamp() + 200);
    assertThat(timer.getRepetitions()).isEqualTo(1);
    assertThat(only(TimerIntent.TRIGGERED, RecordType.EVENT).getKey()).isEqualTo(created.getKey());
  }

  @Test
  void aMessageAndItsSubscriptionsNameTheCorrelation() {
    Record<?> published = only(MessageIntent.PUBLISHED, RecordType.EVENT);
    MessageRecordValue message = (MessageRecordValue) published.getValue();
    assertThat(message.getName()).isEqualTo("ping");
    assertThat(message.getCorrelationKey()).isEqualTo("o-1");
    assertThat(message.getMessageId()).isEqualTo("m-1");
    assertThat(message.getTimeToLive()).isEqualTo(60_000);
    assertThat(message.getVariables()).containsExactly(entry("pinged", 1));

    ProcessMessageSubscriptionRecordValue opened =
        value(ProcessMessageSubscriptionIntent.CREATED, RecordType.EVENT);
    assertThat(opened.getMessageName()).isEqualTo("ping");
    assertThat(opened.getCorrelationKey()).isEqualTo("o-1");
    assertThat(opened.getElementId()).isEqualTo("msg");
    assertThat(opened.getBpmnProcessId()).isEqualTo("order");
    assertThat(opened.getProcessInstanceKey()).isEqualTo(processInstanceKey);
    assertThat(opened.isInterrupting()).isTrue();

    MessageSubscriptionRecordValue correlated =
        value(MessageSubscriptionIntent.CORRELATED, RecordType.EVENT);
    assertThat(correlated.getMessageKey()).isEqualTo(published.getKey());
    assertThat(correlated.getMessageName()).isEqualTo("ping");
    assertThat(correlated.getElementInstanceKey())
        .isEqualTo(element("msg", ProcessInstanceIntent.ELEMENT_ACTIVATED).getKey());
    ProcessMessageSubscriptionRecordValue delivered =
        value(ProcessMessageSubscriptionIntent.CORRELATED, RecordType.EVENT);
    assertThat(delivered.getVariables()).containsExactly(entry("pinged", 1));
  }

  @Test
  void aSignalTriggersTheSubscriptionItNames() {
    SignalRecordValue signal = value(SignalIntent.BROADCASTED, RecordType.EVENT);
    assertThat(signal.getSignalName()).isEqualTo("go");
    assertThat(signal.getVariables()).containsExactly(entry("sig", "nal"));
    SignalSubscriptionRecordValue subscription =
        value(SignalSubscriptionIntent.CREATED, RecordType.EVENT);
    assertThat(subscription.getSignalName()).isEqualTo("go");
    assertThat(subscription.getCatchEventId()).isEqualTo("sig");
    assertThat(subscription.getBpmnProcessId()).isEqualTo("order");
    assertThat(subscription.getCatchEventInstanceKey())
        .isEqualTo(element("sig", ProcessInstanceIntent.ELEMENT_ACTIVATED).getKey());
    SignalSubscriptionRecordValue deleted =
        value(SignalSubscriptionIntent.DELETED, RecordType.EVENT);
    assertThat(deleted.getCatchEventId()).isEqualTo("sig");
  }

  // ------------------------------------------------------------------ deployment

  @Test
  void aDeploymentListsItsResourcesAndProcesses() {
    Record<?> created = only(DeploymentIntent.CREATED, RecordType.EVENT);
    DeploymentRecordValue deployment = (DeploymentRecordValue) created.getValue();
    assertThat(deployment.getDeploymentKey()).isEqualTo(created.getKey());
    assertThat(deployment.getResources())
        .extracting(r -> r.getResourceName())
        .containsExactly("order.bpmn", "child.bpmn");
    assertThat(new String(deployment.getResources().get(0).getResource(), StandardCharsets.UTF_8))
        .contains("<process id=\"order\"");
    assertThat(deployment.getProcessesMetadata())
        .extracting(ProcessMetadataValue::getBpmnProcessId)
        .containsExactly("order", "child");
    ProcessMetadataValue order = deployment.getProcessesMetadata().get(0);
    assertThat(order.getVersion()).isEqualTo(1);
    assertThat(order.isDuplicate()).isFalse();
    assertThat(order.getResourceName()).isEqualTo("order.bpmn");
    assertThat(order.getDeploymentKey()).isEqualTo(created.getKey());
    assertThat(order.getChecksum()).hasSize(32);
    assertThat(order.getProcessDefinitionKey())
        .isEqualTo(
            element("order", ProcessInstanceIntent.ELEMENT_ACTIVATING)
                .getValue()
                .getProcessDefinitionKey());
    assertThat(deployment.getDecisionsMetadata()).isEmpty();
  }
}
