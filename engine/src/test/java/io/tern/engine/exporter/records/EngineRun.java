package io.tern.engine.exporter.records;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.protocol.record.Record;
import io.tern.engine.processor.InMemoryLogStorage;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.WorkflowConfig;
import io.tern.engine.workflow.processing.WorkflowEngine;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One partition's engine over an in-memory log, as the workflow tests run it, and its committed
 * records mapped by a {@link ZeebeRecordMapper} in log order, as the exporter director will.
 */
final class EngineRun implements AutoCloseable {
  static final String BROKER_VERSION = "8.6.0-test";

  /** A committed Tern record (its codes, copied) and what the mapper made of it (or null). */
  record Mapped(
      io.tern.engine.protocol.ValueType valueType,
      Intent intent,
      RecordType recordType,
      long position,
      long key,
      Record<?> zeebe) {}

  final InMemoryLogStorage log = new InMemoryLogStorage();
  final TestMember leader;

  EngineRun(Path directory) {
    leader =
        new TestMember(
            log,
            directory.resolve("leader"),
            ProcessorConfig.defaults(),
            WorkflowEngine.factory(WorkflowConfig.defaults()));
    log.electLeader(leader.processor);
    leader.awaitPhase(ProcessorPhase.PROCESSING);
  }

  Answer send(Intent intent, long key, RecordValue value) {
    return leader.awaitAnswer(leader.send(intent, key, value));
  }

  /** Deploys the models, each as "{processId}.bpmn", in one deployment; returns its answer. */
  Answer deploy(BpmnModelInstance... models) {
    DeploymentValue deployment = new DeploymentValue();
    for (BpmnModelInstance model : models) {
      String id =
          model
              .getModelElementsByType(io.camunda.zeebe.model.bpmn.instance.Process.class)
              .iterator()
              .next()
              .getId();
      deployment.resources.add(
          new DeploymentValue.Resource(
              id + ".bpmn", Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8)));
    }
    return accepted(send(DeploymentIntent.CREATE, -1, deployment));
  }

  /** Creates an instance of the latest version of {@code processId}; the answer must be CREATED. */
  Answer create(String processId, String variables) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.bpmnProcessId = processId;
    creation.variables = variables.getBytes(StandardCharsets.UTF_8);
    return accepted(send(CreationIntent.CREATE, -1, creation));
  }

  /** Activates jobs of {@code type} (worker "w-1", up to 5) once there are any. */
  JobBatchValue activate(String type) {
    JobBatchValue request = new JobBatchValue();
    request.type = type;
    request.worker = "w-1";
    request.maxJobsToActivate = 5;
    request.timeoutMs = 60_000;
    JobBatchValue[] batch = new JobBatchValue[1];
    TestMember.await(
        () -> {
          Answer answer = send(JobBatchIntent.ACTIVATE, -1, request);
          batch[0] = new JobBatchValue().readFrom(new UnsafeBuffer(answer.value()));
          return !batch[0].jobKeys.isEmpty();
        },
        "a job of type " + type);
    return batch[0];
  }

  /** Completes the first job of {@code type} with {@code variables}; returns the job's key. */
  long completeJob(String type, String variables) {
    long key = activate(type).jobKeys.get(0);
    JobValue completion = new JobValue();
    completion.variables = variables.getBytes(StandardCharsets.UTF_8);
    accepted(send(JobIntent.COMPLETE, key, completion));
    return key;
  }

  static Answer accepted(Answer answer) {
    assertThat(answer.rejection()).as("%s", answer.reason()).isEqualTo(RejectionType.NONE);
    return answer;
  }

  /**
   * Waits until a committed record of {@code intent} passes {@code test} (given its Zeebe form).
   */
  void awaitRecord(Intent intent, Predicate<Record<?>> test) {
    TestMember.await(
        () ->
            mapAll().stream()
                .anyMatch(m -> m.intent() == intent && m.zeebe() != null && test.test(m.zeebe())),
        "a record " + intent);
  }

  void awaitRecord(Intent intent) {
    awaitRecord(intent, r -> true);
  }

  /** The mapped records of {@code intent} and {@code type}, in log order. */
  List<Record<?>> records(Intent intent, io.camunda.zeebe.protocol.record.RecordType type) {
    return mapAll().stream()
        .filter(m -> m.intent() == intent && m.zeebe() != null)
        .map(Mapped::zeebe)
        .filter(r -> r.getRecordType() == type)
        .toList();
  }

  /** The value of the one event of {@code intent}. */
  @SuppressWarnings("unchecked")
  <T> T event(Intent intent) {
    List<Record<?>> events = records(intent, io.camunda.zeebe.protocol.record.RecordType.EVENT);
    assertThat(events).as("%s events", intent).hasSize(1);
    return (T) events.get(0).getValue();
  }

  /**
   * Every committed record, mapped by a new mapper (as a director that starts at the log's head).
   */
  List<Mapped> mapAll() {
    return mapAll(new ZeebeRecordMapper(1, BROKER_VERSION), copyOfLog());
  }

  /** The committed batches, each copied (so a test may overwrite them). */
  List<byte[]> copyOfLog() {
    List<byte[]> copies = new ArrayList<>();
    for (byte[] entry : log.committedBatches()) {
      copies.add(entry.clone());
    }
    return copies;
  }

  static List<Mapped> mapAll(ZeebeRecordMapper mapper, List<byte[]> batches) {
    List<Mapped> mapped = new ArrayList<>();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : batches) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        mapped.add(
            new Mapped(
                record.valueType(),
                record.intent(),
                record.recordType(),
                record.position(),
                record.key(),
                mapper.map(record)));
      }
    }
    return mapped;
  }

  @Override
  public void close() {
    leader.close();
  }
}
