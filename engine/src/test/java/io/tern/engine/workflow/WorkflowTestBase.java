package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.InMemoryLogStorage;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.WorkflowEngine;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workflow scenarios over one partition's in-memory log: a leader processes, and after every test a
 * new member replays the whole log and must reach the leader's state (replay determinism).
 */
abstract class WorkflowTestBase {
  @TempDir Path dir;

  final InMemoryLogStorage log = new InMemoryLogStorage();
  final List<TestMember> members = new ArrayList<>();
  private TestMember theLeader;

  @AfterEach
  void replayReachesTheLeadersStateThenClose() {
    try {
      if (theLeader != null) {
        assertReplayReachesStateOf(theLeader);
      }
    } finally {
      members.forEach(TestMember::close);
    }
  }

  /** A member that replays the whole log reaches the same workflow state as {@code leader}. */
  void assertReplayReachesStateOf(TestMember leader) {
    assertReplayReachesStateOf(
        leader, member("replayer-" + members.size(), ProcessorConfig.defaults()));
  }

  /** {@code replayer}, a new member of {@code leader}'s partition, reaches its state. */
  void assertReplayReachesStateOf(TestMember leader, TestMember replayer) {
    Map<String, String> expected = null;
    Map<String, String> replayed = null;
    // The leader may still write (timers, follow-ups): compare once both stand at one position.
    for (int attempt = 0; attempt < 20; attempt++) {
      long position = leader.processor.lastProcessedPosition();
      // A replaying member learns that a command was processed from the records it caused: one
      // that caused none (a duplicate acknowledgement, say) leaves it at the last one that did.
      long caused = Math.min(position, highestSourcePosition(leader.log));
      await(
          () -> replayer.processor.lastProcessedPosition() >= caused,
          "the replaying member to reach position " + caused);
      expected = workflowState(leader);
      replayed = workflowState(replayer);
      if (leader.processor.lastProcessedPosition() == position
          && replayer.processor.lastProcessedPosition() == caused
          && highestSourcePosition(leader.log) == caused) {
        break;
      }
    }
    assertThat(replayed).as("state after replay").isEqualTo(expected);
  }

  TestMember member(String name, ProcessorConfig config) {
    TestMember member =
        new TestMember(log, dir.resolve(name), config, WorkflowEngine.factory(workflowConfig()));
    members.add(member);
    return member;
  }

  /** The engine's settings for every member of the test. */
  WorkflowConfig workflowConfig() {
    return WorkflowConfig.defaults();
  }

  TestMember leader() {
    return takeOver("leader");
  }

  /** A new member that becomes the leader (and the one replay is checked against). */
  TestMember takeOver(String name) {
    TestMember leader = member(name, ProcessorConfig.defaults());
    log.electLeader(leader.processor);
    leader.awaitPhase(ProcessorPhase.PROCESSING);
    theLeader = leader;
    return leader;
  }

  static BpmnModelInstance oneTask(String processId, String jobType) {
    return Bpmn.createExecutableProcess(processId)
        .startEvent("start")
        .serviceTask("task", t -> t.zeebeJobType(jobType).zeebeTaskHeader("color", "blue"))
        .endEvent("end")
        .done();
  }

  static byte[] xml(BpmnModelInstance model) {
    return Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8);
  }

  static Answer deploy(TestMember member, String name, byte[] resource) {
    DeploymentValue deployment = new DeploymentValue();
    deployment.resources.add(new DeploymentValue.Resource(name, resource));
    return member.awaitAnswer(member.send(DeploymentIntent.CREATE, -1, deployment));
  }

  static DeploymentValue.Process deployed(Answer answer) {
    assertThat(answer.rejection()).as("%s", answer.reason()).isEqualTo(RejectionType.NONE);
    return new DeploymentValue()
        .<DeploymentValue>readFrom(new UnsafeBuffer(answer.value()))
        .processes
        .get(0);
  }

  static Answer create(TestMember member, String processId) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.bpmnProcessId = processId;
    return member.awaitAnswer(member.send(CreationIntent.CREATE, -1, creation));
  }

  static JobBatchValue activate(TestMember member, String type, int max) {
    return activate(member, type, max, List.of());
  }

  static JobBatchValue activate(
      TestMember member, String type, int max, List<String> fetchVariables) {
    JobBatchValue request = new JobBatchValue();
    request.fetchVariables.addAll(fetchVariables);
    request.type = type;
    request.worker = "test-worker";
    request.maxJobsToActivate = max;
    request.timeoutMs = 60_000;
    Answer answer = member.awaitAnswer(member.send(JobBatchIntent.ACTIVATE, -1, request));
    assertThat(answer.intent()).isEqualTo(JobBatchIntent.ACTIVATED);
    return new JobBatchValue().readFrom(new UnsafeBuffer(answer.value()));
  }

  static Answer completeJob(TestMember member, long jobKey) {
    return completeJob(member, jobKey, "");
  }

  static Answer completeJob(TestMember member, long jobKey, String variables) {
    JobValue completion = new JobValue();
    completion.variables = variables.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(JobIntent.COMPLETE, jobKey, completion));
  }

  static Answer create(TestMember member, String processId, String variables) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.bpmnProcessId = processId;
    creation.variables = variables.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(CreationIntent.CREATE, -1, creation));
  }

  /** Process instance records of the committed log: "elementId intentName". */
  List<String> lifecycle() {
    return lifecycle(log);
  }

  static List<String> lifecycle(InMemoryLogStorage log) {
    List<String> lines = new ArrayList<>();
    RecordBatch batch = new RecordBatch();
    ProcessInstanceValue value = new ProcessInstanceValue();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.valueType() == ValueType.PROCESS_INSTANCE && record.isEvent()) {
          value.readFrom(record.value());
          lines.add(value.elementId + " " + record.intent());
        }
      }
    }
    return lines;
  }

  /** The position of the last command that caused a committed record, or -1. */
  static long highestSourcePosition(InMemoryLogStorage log) {
    long highest = -1;
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        highest = Math.max(highest, batch.next().sourceRecordPosition());
      }
    }
    return highest;
  }

  static long count(InMemoryLogStorage log, Intent intent) {
    return countRecords(log, RecordType.EVENT, intent);
  }

  /** Committed rejections of commands of {@code valueType} and {@code intent}. */
  static long rejectedCount(InMemoryLogStorage log, Intent intent) {
    return countRecords(log, RecordType.COMMAND_REJECTION, intent);
  }

  private static long countRecords(InMemoryLogStorage log, RecordType recordType, Intent intent) {
    long count = 0;
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.recordType() == recordType && record.intent() == intent) {
          count++;
        }
      }
    }
    return count;
  }

  /** The workflow engine's column families (ids from 16), hex key -> hex value. */
  static Map<String, String> workflowState(TestMember member) {
    Map<String, String> state = new TreeMap<>();
    member
        .dump()
        .forEach(
            (key, value) -> {
              if (Integer.parseInt(key.substring(0, 4), 16) >= 16) {
                state.put(key, value);
              }
            });
    return state;
  }

  Answer failJob(TestMember member, long jobKey, int retries, long backoffMs, String error) {
    JobValue failure = new JobValue();
    failure.retries = retries;
    failure.retryBackoffMs = backoffMs;
    failure.errorMessage = error;
    return member.awaitAnswer(member.send(JobIntent.FAIL, jobKey, failure));
  }

  Answer updateRetries(TestMember member, long jobKey, int retries) {
    JobValue update = new JobValue();
    update.retries = retries;
    return member.awaitAnswer(member.send(JobIntent.UPDATE_RETRIES, jobKey, update));
  }

  long firstKeyOf(Intent intent) {
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.intent() == intent) {
          return record.key();
        }
      }
    }
    return -1;
  }

  /** The key of the last element instance of {@code elementId} with that lifecycle event, or -1. */
  long elementKey(String elementId, ProcessInstanceIntent intent) {
    return elementKey(log, elementId, intent);
  }

  /** The key of the last element instance of {@code elementId} with that event in {@code log}. */
  static long elementKey(InMemoryLogStorage log, String elementId, ProcessInstanceIntent intent) {
    long last = -1;
    RecordBatch batch = new RecordBatch();
    ProcessInstanceValue value = new ProcessInstanceValue();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.isEvent()
            && record.intent() == intent
            && value.<ProcessInstanceValue>readFrom(record.value()).elementId.equals(elementId)) {
          last = record.key();
        }
      }
    }
    return last;
  }

  long lastKeyOf(Intent intent) {
    long last = -1;
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.intent() == intent) {
          last = record.key();
        }
      }
    }
    return last;
  }

  long countOf(Intent intent) {
    return count(log, intent);
  }

  /** The values of the committed events of one type and intent, oldest first. */
  List<byte[]> eventValues(Intent intent) {
    return eventValues(log, intent);
  }

  static List<byte[]> eventValues(InMemoryLogStorage log, Intent intent) {
    List<byte[]> values = new ArrayList<>();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.isEvent() && record.intent() == intent) {
          byte[] value = new byte[record.value().capacity()];
          record.value().getBytes(0, value);
          values.add(value);
        }
      }
    }
    return values;
  }

  static Answer resolveIncident(TestMember member, long incidentKey) {
    return member.awaitAnswer(
        member.send(
            IncidentIntent.RESOLVE,
            incidentKey,
            new io.tern.engine.workflow.value.IncidentValue()));
  }

  static Answer throwError(
      TestMember member, long jobKey, String code, String message, String variables) {
    JobValue error = new JobValue();
    error.errorCode = code;
    error.errorMessage = message;
    error.variables = variables.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(JobIntent.THROW_ERROR, jobKey, error));
  }

  /** Waits for a job of {@code type} to be activatable and activates it; returns its key. */
  static long awaitJob(TestMember member, String type) {
    long[] key = {-1};
    await(
        () -> {
          JobBatchValue batch = activate(member, type, 1);
          if (batch.jobKeys.isEmpty()) {
            return false;
          }
          key[0] = batch.jobKeys.get(0);
          return true;
        },
        "a job of type " + type);
    return key[0];
  }

  static JobBatchValue activateWhenAvailable(TestMember leader, String type, List<String> fetch) {
    JobBatchValue[] found = new JobBatchValue[1];
    await(
        () -> {
          found[0] = activate(leader, type, 1, fetch);
          return !found[0].jobs.isEmpty();
        },
        "a job of type " + type);
    return found[0];
  }

  static Answer setVariables(TestMember member, long scopeKey, String json, boolean local) {
    io.tern.engine.workflow.value.VariableDocumentValue document =
        new io.tern.engine.workflow.value.VariableDocumentValue();
    document.scopeKey = scopeKey;
    document.local = local;
    document.variables = json.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(VariableDocumentIntent.UPDATE, -1, document));
  }

  static Answer publish(
      TestMember member, String name, String correlationKey, long ttlMs, String id, String json) {
    io.tern.engine.workflow.value.MessageValue message =
        new io.tern.engine.workflow.value.MessageValue();
    message.name = name;
    message.correlationKey = correlationKey;
    message.timeToLiveMs = ttlMs;
    message.messageId = id;
    message.variables = json.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(MessageIntent.PUBLISH, -1, message));
  }
}
