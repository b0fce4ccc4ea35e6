package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.InMemoryLogStorage;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.WorkflowEngine;
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
import io.tern.engine.workflow.value.WorkflowValue;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logs written before a protocol change replay unchanged after it (issue 46).
 *
 * <p>The fixture {@code fixtures/old-log-v7.bin} is one partition's log as the engine of schema
 * version 7 wrote it, batch by batch, byte for byte: a scenario ({@link #recordTheFixture}) that
 * writes every value type a single partition writes and most intents. Beside it, {@code
 * old-log-v7.state.txt} is the workflow state (column families from 16, hex key and value) the
 * leader had at the end, and {@code old-log-v7.records.txt} a readable list of the records.
 *
 * <p><b>Never re-record the fixture to make a failing test pass.</b> The log is what brokers in the
 * field have on disk; if this test fails after a change to the protocol (value type or intent
 * codes, the record or value layout, what a command writes), the change breaks those logs: fix the
 * change. The fixture is re-recorded only to cover more of the protocol, with the code of a release
 * whose logs are meant to stay readable, in a commit of its own that says so. Should the state's
 * layout change on purpose (a state migration), only {@code old-log-v7.state.txt} may follow it,
 * and that commit must say why the state differs.
 *
 * <p>Re-record ({@code -Dtern.fixture.record=true}): {@code ./mvnw -B -o -pl engine test
 * -Dtest=OldLogFixtureTest#recordTheFixture -Dtern.fixture.record=true}.
 *
 * <p>The engine is deterministic given its log and clock: members here read a clock the test sets
 * (only while the partition is idle), so timestamps, deadlines and due dates are the recorded ones
 * and nothing is left out of the comparison.
 */
class OldLogFixtureTest {
  static final String NAME = "old-log-v7";
  private static final byte[] MAGIC = "TERNLOG1".getBytes(StandardCharsets.US_ASCII);

  /** 2026-01-01T00:00:00Z: where the recorded clock starts. */
  private static final long T0 = 1_767_225_600_000L;

  private static final long ONE_DAY = 86_400_000L;

  @TempDir Path dir;

  private final List<TestMember> members = new ArrayList<>();
  private final AtomicLong clock = new AtomicLong(T0);

  @AfterEach
  void close() {
    members.forEach(TestMember::close);
  }

  // ------------------------------------------------------------------ the checks

  /** (a) A new member replays the fixture's events to the recorded state. */
  @Test
  void replayingTheOldLogReachesTheRecordedState() throws IOException {
    List<byte[]> batches = readFixture();
    InMemoryLogStorage log = new InMemoryLogStorage();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : batches) {
      log.appendCommitted(
          entry, batch.wrap(new UnsafeBuffer(entry), 0, entry.length).firstPosition());
    }
    TestMember replayer = member(log, "replayer");
    long caused = WorkflowTestBase.highestSourcePosition(log);
    await(
        () ->
            replayer.processor.phase() == ProcessorPhase.FAILED
                || (replayer.processor.lastReadIndex() >= batches.size()
                    && replayer.processor.lastProcessedPosition() >= caused),
        "the replaying member to read the whole fixture");
    assertThat(replayer.processor.failure()).as("why replay failed").isNull();
    assertThat(stateLines(WorkflowTestBase.workflowState(replayer)))
        .as("the state replayed from the old log")
        .containsExactlyElementsOf(readResourceLines(NAME + ".state.txt"));
  }

  /**
   * (b) A leader given the fixture's client commands, in order and at the recorded times, writes
   * every other record of the fixture again, byte for byte, and reaches the recorded state.
   */
  @Test
  void processingTheOldCommandsWritesTheOldRecordsAgain() throws IOException {
    List<byte[]> expected = readFixture();
    InMemoryLogStorage log = new InMemoryLogStorage();
    TestMember leader = leader(log);
    RecordBatch batch = new RecordBatch();
    for (int i = 0; i < expected.size(); i++) {
      byte[] entry = expected.get(i);
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      LoggedRecord first = batch.next();
      int before = i;
      await(() -> log.committedBatches().size() >= before, "the leader to write batch " + before);
      assertSamePrefix(expected, log.committedBatches(), i);
      if (isClientCommand(first)) {
        await(() -> idle(leader, log), "the leader to be idle before batch " + before);
        assertSamePrefix(expected, log.committedBatches(), i);
        assertThat(log.committedBatches()).as("batches before client command " + i).hasSize(i);
        assertThat(first.timestamp()).isGreaterThanOrEqualTo(clock.get());
        clock.set(first.timestamp());
        byte[] value = new byte[first.value().capacity()];
        first.value().getBytes(0, value);
        assertThat(first.intent()).as("batch %d's command", before).isNotNull();
        leader.send(
            first.intent(), first.key(), RecordValue.of(new UnsafeBuffer(value), 0, value.length));
      } else if (first.sourceRecordPosition() < 0) {
        // Written by a scheduled task (a due timer, job, message): its time has come.
        assertThat(first.timestamp()).isGreaterThanOrEqualTo(clock.get());
        clock.set(first.timestamp());
      }
    }
    await(() -> log.committedBatches().size() >= expected.size(), "every batch");
    await(() -> idle(leader, log), "the leader to be idle at the end");
    assertSamePrefix(expected, log.committedBatches(), expected.size());
    assertThat(log.committedBatches()).hasSize(expected.size());
    assertThat(stateLines(WorkflowTestBase.workflowState(leader)))
        .as("the leader's state after processing the old commands")
        .containsExactlyElementsOf(readResourceLines(NAME + ".state.txt"));
  }

  /**
   * (c) Every value in the fixture decodes with today's value classes, and encodes to the same
   * bytes; the readable list of records is the recorded one.
   */
  @Test
  void everyOldValueDecodesAndEncodesToTheSameBytes() throws IOException {
    List<byte[]> batches = readFixture();
    RecordBatch batch = new RecordBatch();
    ExpandableArrayBuffer encoded = new ExpandableArrayBuffer();
    int decoded = 0;
    for (byte[] entry : batches) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.value().capacity() == 0) {
          continue;
        }
        WorkflowValue value = valueOf(record.valueType());
        value.readFrom(record.value());
        int length = value.length();
        value.write(encoded, 0);
        byte[] again = new byte[length];
        encoded.getBytes(0, again);
        byte[] old = new byte[record.value().capacity()];
        record.value().getBytes(0, old);
        assertThat(HexFormat.of().formatHex(again))
            .as("%s (%s) encoded again", record, value.getClass().getSimpleName())
            .isEqualTo(HexFormat.of().formatHex(old));
        decoded++;
      }
    }
    assertThat(decoded).isGreaterThan(100);
    assertThat(listing(batches))
        .as("the fixture's records, read with today's code")
        .containsExactlyElementsOf(readResourceLines(NAME + ".records.txt"));
  }

  /** The value class of a value type's records (as the engine reads them). */
  static WorkflowValue valueOf(ValueType valueType) {
    Supplier<WorkflowValue> value =
        switch (valueType) {
          case DEPLOYMENT -> DeploymentValue::new;
          case PROCESS_INSTANCE -> ProcessInstanceValue::new;
          case PROCESS_INSTANCE_CREATION, PROCESS_INSTANCE_RESULT ->
              ProcessInstanceCreationValue::new;
          case JOB -> JobValue::new;
          case JOB_BATCH -> JobBatchValue::new;
          case VARIABLE -> VariableValue::new;
          case INCIDENT -> IncidentValue::new;
          case TIMER -> TimerValue::new;
          case PROCESS_EVENT -> ProcessEventValue::new;
          case VARIABLE_DOCUMENT -> VariableDocumentValue::new;
          case MESSAGE -> MessageValue::new;
          case MESSAGE_SUBSCRIPTION,
              PROCESS_MESSAGE_SUBSCRIPTION,
              MESSAGE_START_EVENT_SUBSCRIPTION ->
              MessageSubscriptionValue::new;
          case DEPLOYMENT_DISTRIBUTION -> DeploymentDistributionValue::new;
          case DECISION_EVALUATION -> DecisionEvaluationValue::new;
          case SIGNAL -> SignalValue::new;
          case SIGNAL_SUBSCRIPTION -> SignalSubscriptionValue::new;
          case RESOURCE_DELETION -> ResourceDeletionValue::new;
          case PROCESS_INSTANCE_MODIFICATION -> ProcessInstanceModificationValue::new;
          case PROCESS_INSTANCE_MIGRATION -> ProcessInstanceMigrationValue::new;
          case COMPENSATION_SUBSCRIPTION -> CompensationSubscriptionValue::new;
          case USER_TASK -> UserTaskValue::new;
          case MESSAGE_CORRELATION -> MessageCorrelationValue::new;
          default -> throw new AssertionError("no value class for value type " + valueType);
        };
    return value.get();
  }

  // ------------------------------------------------------------------ recording

  /**
   * Records the fixture with the engine of the checkout (see the class comment before running it).
   * Writes to engine/src/test/resources/fixtures/.
   */
  @Test
  @EnabledIfSystemProperty(named = "tern.fixture.record", matches = "true")
  void recordTheFixture() throws IOException {
    InMemoryLogStorage log = new InMemoryLogStorage();
    TestMember leader = leader(log);
    Scenario scenario = new Scenario(leader, log);
    scenario.run();

    Path out = Path.of("src/test/resources/fixtures");
    Files.createDirectories(out);
    List<byte[]> batches = log.committedBatches();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream data = new DataOutputStream(bytes)) {
      data.write(MAGIC);
      data.writeInt(batches.size());
      for (byte[] batch : batches) {
        data.writeInt(batch.length);
        data.write(batch);
      }
    }
    Files.write(out.resolve(NAME + ".bin"), bytes.toByteArray());
    Files.write(
        out.resolve(NAME + ".state.txt"), stateLines(WorkflowTestBase.workflowState(leader)));
    Files.write(out.resolve(NAME + ".records.txt"), listing(batches));
  }

  /** What the fixture's log holds: every line a client (a gateway) asked for, at set times. */
  private final class Scenario {
    private final TestMember leader;
    private final InMemoryLogStorage log;

    Scenario(TestMember leader, InMemoryLogStorage log) {
      this.leader = leader;
      this.log = log;
    }

    void run() {
      // Deployments: a DMN, the processes, two versions of one, one to delete.
      DeploymentValue dmn = new DeploymentValue();
      dmn.resources.add(new DeploymentValue.Resource("checks.dmn", DecisionsTest.literal("2")));
      ok(act(DeploymentIntent.CREATE, -1, dmn));
      deploy("main.bpmn", MAIN);
      deploy("start.bpmn", STARTED_BY_MESSAGE);
      deploy("trip.bpmn", TRIP);
      deploy("charge.bpmn", CHARGE);
      long orderV1 = deploy("order-v1.bpmn", ORDER_V1);
      long orderV2 = deploy("order-v2.bpmn", ORDER_V2);
      long temp = deploy("temp.bpmn", Bpmn.createExecutableProcess("temp").startEvent().done());
      deploy("quick.bpmn", Bpmn.createExecutableProcess("quick").startEvent().endEvent().done());
      deploy(
          "launched.bpmn",
          Bpmn.createExecutableProcess("launched")
              .startEvent("launch")
              .signal("launch")
              .endEvent("launchedEnd")
              .done());

      // The main instance: a job failed with back-off, failed again to an incident, resolved.
      long main = create("main", "{\"orderId\": \"o-1\", \"amount\": 21}").key();
      ok(setVariables(main, "{\"note\": \"fragile\"}"));
      ok(setVariables(main, "{\"note\": \"very fragile\"}"));
      long work = activateOne("work", 60_000);
      ok(fail(work, 1, 500, "busy"));
      advanceClock(500, () -> count(JobIntent.RECURRED_AFTER_BACKOFF) == 1);
      work = activateOne("work", 60_000);
      ok(fail(work, 0, 0, "broken"));
      JobValue retries = new JobValue();
      retries.retries = 1;
      ok(act(JobIntent.UPDATE_RETRIES, work, retries));
      long incident = lastKey(IncidentIntent.CREATED);
      ok(act(IncidentIntent.RESOLVE, incident, new IncidentValue()));
      work = activateOne("work", 60_000);
      JobValue done = new JobValue();
      done.variables = "{\"worked\": true}".getBytes(StandardCharsets.UTF_8);
      ok(act(JobIntent.COMPLETE, work, done));
      // The timer wins the event-based gateway; the decision runs; the message, then the signal.
      advanceClock(1_000, () -> count(TimerIntent.TRIGGERED) == 1);
      ok(publish("paid", "o-1", ONE_DAY, "pay-1", "{\"paid\": 42}"));
      SignalValue signal = new SignalValue();
      signal.signalName = "go";
      signal.variables = "{\"went\": 1}".getBytes(StandardCharsets.UTF_8);
      ok(act(SignalIntent.BROADCAST, -1, signal));

      // A second instance: the message wins the gateway, the timer is canceled.
      create("main", "{\"orderId\": \"o-2\", \"amount\": 1}");
      ok(complete(activateOne("work", 60_000), "{}"));
      ok(publish("never", "o-2", ONE_DAY, "", "{\"late\": true}"));
      // A signal start event.
      SignalValue launch = new SignalValue();
      launch.signalName = "launch";
      ok(act(SignalIntent.BROADCAST, -1, launch));

      // Decisions evaluated for a client: one that works, one that fails.
      DecisionEvaluationValue evaluation = new DecisionEvaluationValue();
      evaluation.decisionId = "doubled";
      evaluation.variables = "{\"amount\": 4}".getBytes(StandardCharsets.UTF_8);
      ok(act(DecisionEvaluationIntent.EVALUATE, -1, evaluation));
      evaluation.variables = "{}".getBytes(StandardCharsets.UTF_8);
      act(DecisionEvaluationIntent.EVALUATE, -1, evaluation);

      // A message start event.
      ok(publish("placed", "s-1", ONE_DAY, "", "{\"orderId\": \"s-1\"}"));
      ok(complete(activateOne("ship", 60_000), "{}"));

      // Compensation: book, pay, then the throw event runs undo-book.
      create("trip", "{}");
      ok(complete(activateOne("book", 60_000), "{\"booking\": \"B-17\"}"));
      ok(complete(activateOne("pay", 60_000), "{}"));
      ok(complete(activateOne("undo-book", 60_000), "{}"));

      // An error thrown by a job, caught by a boundary event.
      create("charge", "{}");
      JobValue error = new JobValue();
      error.errorCode = "DECLINED";
      error.errorMessage = "card declined";
      error.variables = "{\"reason\": \"limit\"}".getBytes(StandardCharsets.UTF_8);
      ok(act(JobIntent.THROW_ERROR, activateOne("charge", 60_000), error));

      // Migration from version 1 to 2, then a cancel.
      ProcessInstanceCreationValue byKey = new ProcessInstanceCreationValue();
      byKey.processDefinitionKey = orderV1;
      byKey.variables = "{\"n\": 1}".getBytes(StandardCharsets.UTF_8);
      long migrated = ok(act(CreationIntent.CREATE, -1, byKey));
      ProcessInstanceMigrationValue migration = new ProcessInstanceMigrationValue();
      migration.targetProcessDefinitionKey = orderV2;
      migration.mappings.add(new ProcessInstanceMigrationValue.Mapping("a", "a2"));
      ok(act(MigrationIntent.MIGRATE, migrated, migration));
      ok(act(ProcessInstanceIntent.CANCEL, migrated, new ProcessInstanceValue()));

      // Modification: from a2 to b, with a variable.
      long modified = create("order", "{\"n\": 2}").key();
      long a2 = lastElementKey("a2", ProcessInstanceIntent.ELEMENT_ACTIVATED);
      ProcessInstanceModificationValue modification = new ProcessInstanceModificationValue();
      modification.activations.add(new ProcessInstanceModificationValue.Activation("b", -1));
      modification.terminations.add(a2);
      modification.variables.add(
          new ProcessInstanceModificationValue.Variables(
              0, "b", "{\"moved\": true}".getBytes(StandardCharsets.UTF_8)));
      ok(act(ModificationIntent.MODIFY, modified, modification));
      ok(complete(activateOne("b", 60_000), "{}"));

      // A resource deleted; an instance whose client awaits its result.
      ResourceDeletionValue deletion = new ResourceDeletionValue();
      deletion.resourceKey = temp;
      ok(act(ResourceDeletionIntent.DELETE, -1, deletion));
      ProcessInstanceCreationValue awaiting = new ProcessInstanceCreationValue();
      awaiting.bpmnProcessId = "quick";
      awaiting.variables = "{\"q\": 1}".getBytes(StandardCharsets.UTF_8);
      ok(act(CreationIntent.CREATE_WITH_AWAITING_RESULT, -1, awaiting));

      // Rejections: a job that does not exist; a process that does not exist.
      act(JobIntent.COMPLETE, 4242, new JobValue());
      create("missing", "{}");

      // A message nobody takes expires; a job times out after its timeout was shortened.
      ok(publish("orphan", "nobody", 5_000, "", "{}"));
      advanceClock(5_000, () -> count(MessageIntent.EXPIRED) == 1);
      create("order", "{\"n\": 3}");
      long late = activateOne("a2", 60_000);
      JobValue timeout = new JobValue();
      timeout.timeoutMs = 30_000;
      ok(act(JobIntent.UPDATE_TIMEOUT, late, timeout));
      advanceClock(30_000, () -> count(JobIntent.TIMED_OUT) == 1);
      // One more job: the re-activated one completes and the instance goes on.
      ok(complete(activateOne("a2", 60_000), "{}"));

      // Canceled: an instance whose client awaits its result; one with a compensable activity done.
      ProcessInstanceCreationValue canceledAwaiting = new ProcessInstanceCreationValue();
      canceledAwaiting.bpmnProcessId = "order";
      long before = lastElementKey("order", ProcessInstanceIntent.ELEMENT_ACTIVATED);
      long request = leader.send(CreationIntent.CREATE_WITH_AWAITING_RESULT, -1, canceledAwaiting);
      await(
          () ->
              lastElementKey("order", ProcessInstanceIntent.ELEMENT_ACTIVATED) != before
                  && idle(leader, log),
          "the awaited instance to wait at a2");
      cancel(lastElementKey("order", ProcessInstanceIntent.ELEMENT_ACTIVATED));
      leader.awaitAnswer(request);
      long trip = create("trip", "{}").key();
      ok(complete(activateOne("book", 60_000), "{}"));
      cancel(trip);
    }

    private Answer act(Intent intent, long key, RecordValue value) {
      Answer answer = leader.awaitAnswer(leader.send(intent, key, value));
      await(() -> idle(leader, log), "the leader to be idle");
      return answer;
    }

    private void cancel(long processInstanceKey) {
      ok(act(ProcessInstanceIntent.CANCEL, processInstanceKey, new ProcessInstanceValue()));
    }

    private long ok(Answer answer) {
      assertThat(answer.rejection()).as("%s", answer.reason()).isEqualTo(RejectionType.NONE);
      return answer.key();
    }

    private long deploy(String name, BpmnModelInstance model) {
      DeploymentValue deployment = new DeploymentValue();
      deployment.resources.add(new DeploymentValue.Resource(name, WorkflowTestBase.xml(model)));
      Answer answer = act(DeploymentIntent.CREATE, -1, deployment);
      return WorkflowTestBase.deployed(answer).processDefinitionKey();
    }

    private Answer create(String processId, String variables) {
      ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
      creation.bpmnProcessId = processId;
      creation.variables = variables.getBytes(StandardCharsets.UTF_8);
      return act(CreationIntent.CREATE, -1, creation);
    }

    private Answer setVariables(long scopeKey, String json) {
      VariableDocumentValue document = new VariableDocumentValue();
      document.scopeKey = scopeKey;
      document.variables = json.getBytes(StandardCharsets.UTF_8);
      return act(VariableDocumentIntent.UPDATE, -1, document);
    }

    private long activateOne(String type, long timeoutMs) {
      JobBatchValue request = new JobBatchValue();
      request.type = type;
      request.worker = "fixture";
      request.maxJobsToActivate = 1;
      request.timeoutMs = timeoutMs;
      Answer answer = act(JobBatchIntent.ACTIVATE, -1, request);
      JobBatchValue batch = new JobBatchValue().readFrom(new UnsafeBuffer(answer.value()));
      assertThat(batch.jobKeys).as("jobs of type %s", type).hasSize(1);
      return batch.jobKeys.get(0);
    }

    private Answer fail(long jobKey, int retries, long backoffMs, String message) {
      JobValue failure = new JobValue();
      failure.retries = retries;
      failure.retryBackoffMs = backoffMs;
      failure.errorMessage = message;
      return act(JobIntent.FAIL, jobKey, failure);
    }

    private Answer complete(long jobKey, String variables) {
      JobValue completion = new JobValue();
      completion.variables = variables.getBytes(StandardCharsets.UTF_8);
      return act(JobIntent.COMPLETE, jobKey, completion);
    }

    private Answer publish(String name, String key, long ttlMs, String id, String json) {
      MessageValue message = new MessageValue();
      message.name = name;
      message.correlationKey = key;
      message.timeToLiveMs = ttlMs;
      message.messageId = id;
      message.variables = json.getBytes(StandardCharsets.UTF_8);
      return act(MessageIntent.PUBLISH, -1, message);
    }

    /** Moves the clock on while the partition is idle; waits for what falls due, then idleness. */
    private void advanceClock(long ms, java.util.function.BooleanSupplier due) {
      assertThat(idle(leader, log)).isTrue();
      clock.addAndGet(ms);
      await(due, "what falls due after " + ms + " ms");
      await(() -> idle(leader, log), "the leader to be idle");
    }

    private long count(Intent intent) {
      return WorkflowTestBase.count(log, intent);
    }

    private long lastKey(Intent intent) {
      long last = -1;
      RecordBatch batch = new RecordBatch();
      for (byte[] entry : log.committedBatches()) {
        batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
        while (batch.hasNext()) {
          LoggedRecord record = batch.next();
          if (record.isEvent() && record.intent() == intent) {
            last = record.key();
          }
        }
      }
      return last;
    }

    private long lastElementKey(String elementId, ProcessInstanceIntent intent) {
      return WorkflowTestBase.elementKey(log, elementId, intent);
    }
  }

  /**
   * "main": job "work", then a timer (PT1S) racing message "never" at an event-based gateway, a
   * business rule task (decision "doubled"), message "paid" (key orderId), signal "go".
   */
  private static final BpmnModelInstance MAIN =
      Bpmn.createExecutableProcess("main")
          .startEvent("start")
          .serviceTask("work", t -> t.zeebeJobType("work").zeebeTaskHeader("color", "blue"))
          .eventBasedGateway("race")
          .intermediateCatchEvent("wait", e -> e.timerWithDuration("PT1S"))
          .businessRuleTask(
              "rules", t -> t.zeebeCalledDecisionId("doubled").zeebeResultVariable("result"))
          .intermediateCatchEvent(
              "paid", e -> e.message(m -> m.name("paid").zeebeCorrelationKeyExpression("orderId")))
          .intermediateCatchEvent("go", e -> e.signal("go"))
          .endEvent("done")
          .moveToNode("race")
          .intermediateCatchEvent(
              "never",
              e -> e.message(m -> m.name("never").zeebeCorrelationKeyExpression("orderId")))
          .endEvent("gaveUp")
          .done();

  /** "start": started by message "placed", then job "ship". */
  private static final BpmnModelInstance STARTED_BY_MESSAGE =
      Bpmn.createExecutableProcess("start")
          .startEvent("placed")
          .message("placed")
          .serviceTask("ship", t -> t.zeebeJobType("ship"))
          .endEvent("shipped")
          .done();

  /** "trip": book (compensated by undo-book), pay, then a compensation throw event. */
  private static final BpmnModelInstance TRIP =
      CompensationEventsTest.compensable(
              Bpmn.createExecutableProcess("trip").startEvent(), "book", "undo-book")
          .serviceTask("pay", t -> t.zeebeJobType("pay"))
          .intermediateThrowEvent("undo")
          .compensateEventDefinition()
          .compensateEventDefinitionDone()
          .endEvent("end")
          .done();

  /** "charge": job "charge" with an error boundary event for DECLINED. */
  private static final BpmnModelInstance CHARGE =
      Bpmn.createExecutableProcess("charge")
          .startEvent()
          .serviceTask("charging", t -> t.zeebeJobType("charge"))
          .boundaryEvent("declined", b -> b.error("DECLINED"))
          .endEvent("declinedEnd")
          .moveToActivity("charging")
          .endEvent("charged")
          .done();

  private static final BpmnModelInstance ORDER_V1 =
      Bpmn.createExecutableProcess("order")
          .startEvent("start")
          .serviceTask("a", t -> t.zeebeJobType("a"))
          .serviceTask("b", t -> t.zeebeJobType("b"))
          .endEvent("end")
          .done();

  private static final BpmnModelInstance ORDER_V2 =
      Bpmn.createExecutableProcess("order")
          .startEvent("start")
          .serviceTask("a2", t -> t.zeebeJobType("a2"))
          .serviceTask("b", t -> t.zeebeJobType("b"))
          .endEvent("end")
          .done();

  // ------------------------------------------------------------------ helpers

  /**
   * The settings the fixture was recorded with, spelled out: how many commands one batch processes
   * and how big it may grow decide how records fall into batches, and a default changed later must
   * not change what this test expects.
   */
  private static final ProcessorConfig PROCESSOR = new ProcessorConfig(100, 4 * 1024 * 1024, false);

  private static final WorkflowConfig WORKFLOW =
      WorkflowConfig.defaults()
          .withSubscriptionRetryInterval(Duration.ofSeconds(10))
          .withResultAwaitLimit(Duration.ofHours(1));

  private TestMember member(InMemoryLogStorage log, String name) {
    TestMember member =
        new TestMember(
            1, log, dir.resolve(name), PROCESSOR, WorkflowEngine.factory(WORKFLOW), clock::get);
    members.add(member);
    return member;
  }

  private TestMember leader(InMemoryLogStorage log) {
    TestMember leader = member(log, "leader");
    log.electLeader(leader.processor);
    leader.awaitPhase(ProcessorPhase.PROCESSING);
    return leader;
  }

  /** A command from a client (a gateway): it starts a batch of its own, caused by nothing. */
  private static boolean isClientCommand(LoggedRecord first) {
    return first.isCommand() && first.sourceRecordPosition() < 0 && first.requestId() >= 0;
  }

  /** Every command in the log was processed: the leader writes nothing until asked or due. */
  static boolean idle(TestMember leader, InMemoryLogStorage log) {
    long processed = leader.processor.lastProcessedPosition();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.isCommand() && !record.isProcessed() && record.position() > processed) {
          return false;
        }
      }
    }
    return true;
  }

  /** The first {@code count} batches written are the fixture's, byte for byte. */
  private static void assertSamePrefix(List<byte[]> expected, List<byte[]> actual, int count) {
    for (int i = 0; i < Math.min(count, actual.size()); i++) {
      if (!java.util.Arrays.equals(expected.get(i), actual.get(i))) {
        assertThat(listing(List.of(actual.get(i))))
            .as("batch %d, as written again (readable)", i)
            .containsExactlyElementsOf(listing(List.of(expected.get(i))));
        assertThat(HexFormat.of().formatHex(actual.get(i)))
            .as("batch %d, as written again (bytes)", i)
            .isEqualTo(HexFormat.of().formatHex(expected.get(i)));
      }
    }
  }

  /** One line per record: position, source, record type, value type, intent, key, timestamp. */
  static List<String> listing(List<byte[]> batches) {
    List<String> lines = new ArrayList<>();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : batches) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        lines.add(
            record.position()
                + " src="
                + record.sourceRecordPosition()
                + " "
                + record.recordType()
                + " valueType="
                + record.valueTypeCode()
                + " intent="
                + record.intentCode()
                + " key="
                + record.key()
                + " t=+"
                + (record.timestamp() - T0)
                + (record.rejectionType() == RejectionType.NONE
                    ? ""
                    : " " + record.rejectionType() + " '" + record.rejectionReason() + "'")
                + (record.isProcessed() ? " processed" : "")
                + " request="
                + record.requestStreamId()
                + "/"
                + record.requestId()
                + " value="
                + record.value().capacity());
      }
    }
    return lines;
  }

  private static List<String> stateLines(Map<String, String> state) {
    List<String> lines = new ArrayList<>();
    new TreeMap<>(state).forEach((k, v) -> lines.add(k + " " + v));
    return lines;
  }

  static List<byte[]> readFixture() throws IOException {
    try (InputStream in = resource(NAME + ".bin");
        DataInputStream data = new DataInputStream(in)) {
      byte[] magic = data.readNBytes(MAGIC.length);
      assertThat(magic).isEqualTo(MAGIC);
      int count = data.readInt();
      List<byte[]> batches = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        batches.add(data.readNBytes(data.readInt()));
      }
      assertThat(data.read()).as("bytes after the last batch").isEqualTo(-1);
      return batches;
    }
  }

  private static List<String> readResourceLines(String name) throws IOException {
    try (InputStream in = resource(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  private static InputStream resource(String name) {
    InputStream in = OldLogFixtureTest.class.getResourceAsStream("/fixtures/" + name);
    if (in == null) {
      fail("fixture " + name + " is missing (see OldLogFixtureTest)");
    }
    return in;
  }
}
