package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@code processing.uncommittedTimers} (with {@code processing.uncommitted}): a timer is scheduled
 * as soon as the batch that creates it is written, so it fires from uncommitted state. Safe because
 * its trigger is a command this leader writes after that batch: a trigger can commit only if the
 * timer's creation did, and what the trigger causes that leaves the partition (the next job, the
 * answer) still waits for its own commit. After a leader change the new leader schedules from its
 * state: a timer whose creation committed fires there once, whether the old leader's trigger was
 * lost or committed.
 */
class UncommittedTimersTest extends WorkflowTestBase {
  private static final ProcessorConfig UNCOMMITTED =
      ProcessorConfig.defaults().withUncommitted(true).withUncommittedTimers(true);

  private static BpmnModelInstance waitThenWork() {
    return Bpmn.createExecutableProcess("p")
        .startEvent("start")
        .intermediateCatchEvent("wait", e -> e.timerWithDuration("PT0.05S"))
        .serviceTask("after", t -> t.zeebeJobType("after"))
        .endEvent("end")
        .done();
  }

  private TestMember elect(String name) {
    TestMember member = member(name, UNCOMMITTED);
    log.electLeader(member.processor);
    member.awaitPhase(ProcessorPhase.PROCESSING);
    return member;
  }

  /** Deploys with every append committed, then stops committing and creates an instance. */
  private void deployThenCreateUncommitted(TestMember leader) {
    log.setAutoCommit(true);
    deployed(deploy(leader, "p.bpmn", xml(waitThenWork())));
    log.setAutoCommit(false);
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.bpmnProcessId = "p";
    leader.send(CreationIntent.CREATE, -1, creation); // answered only after the commit
  }

  @Test
  void aTimerFiresFromUncommittedStateWhileItsJobWaitsForTheCommit() {
    TestMember leader = elect("leader");
    deployThenCreateUncommitted(leader);
    long committed = log.commitIndex();

    await(
        () -> indexOf(RecordType.EVENT, JobIntent.CREATED) > 0,
        "the timer to fire and the next task's job to be created, uncommitted");
    assertThat(log.commitIndex()).as("nothing committed meanwhile").isEqualTo(committed);
    assertThat(indexOf(RecordType.COMMAND, TimerIntent.TRIGGER))
        .as("the trigger lands after the batch that created the timer")
        .isGreaterThan(indexOf(RecordType.EVENT, TimerIntent.CREATED));

    log.commitAll();
    log.setAutoCommit(true);
    completeJob(leader, awaitJob(leader, "after"));
    await(() -> count(log, CreationIntent.CREATED) == 1, "the instance");
    assertThat(lifecycle()).contains("p " + ProcessInstanceIntent.ELEMENT_COMPLETED);
    assertThat(count(log, TimerIntent.TRIGGERED)).isEqualTo(1);
    assertReplayReachesStateOf(leader);
  }

  @Test
  void aLeaderLostAfterAnUncommittedTimerFiredLeavesItToTheNewLeaderToFireOnce() {
    TestMember first = elect("first");
    TestMember second = member("second", UNCOMMITTED);
    deployThenCreateUncommitted(first);
    await(
        () -> indexOf(RecordType.EVENT, JobIntent.CREATED) > 0,
        "the timer to fire and the job to be created, uncommitted");

    // The timer's creation commits, its trigger does not; then the leader is gone.
    long creation = indexOf(RecordType.EVENT, TimerIntent.CREATED);
    assertThat(indexOf(RecordType.COMMAND, TimerIntent.TRIGGER)).isGreaterThan(creation);
    log.commitTo(creation);
    log.loseLeadership();
    assertThat(indexOf(RecordType.COMMAND, TimerIntent.TRIGGER)).as("the trigger lost").isZero();
    assertThat(count(log, TimerIntent.CREATED)).isEqualTo(1);

    log.setAutoCommit(true);
    log.electLeader(second.processor);
    second.awaitPhase(ProcessorPhase.PROCESSING);

    // Not lost: the new leader schedules the timer from its state and fires it; once.
    completeJob(second, awaitJob(second, "after"));
    await(
        () -> lifecycle().contains("p " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance to complete");
    assertThat(count(log, TimerIntent.TRIGGERED)).isEqualTo(1);
    assertThat(count(log, JobIntent.CREATED)).isEqualTo(1);
    assertThat(count(log, JobIntent.COMPLETED)).isEqualTo(1);

    // The old leader threw its uncommitted state away and follows the log: the states agree.
    await(
        () -> first.processor.lastProcessedPosition() == second.processor.lastProcessedPosition(),
        "the old leader to replay the new leader's log");
    assertThat(workflowState(first)).isEqualTo(workflowState(second));
    assertReplayReachesStateOf(second);
  }

  @Test
  void aLeaderLostAfterItsFiredTimerCommittedLeavesNothingToFireAgain() {
    TestMember first = elect("first");
    TestMember second = member("second", UNCOMMITTED);
    deployThenCreateUncommitted(first);
    await(
        () -> indexOf(RecordType.EVENT, JobIntent.CREATED) > 0,
        "the timer to fire and the job to be created, uncommitted");

    // Everything up to the timer's trigger and its result commits; the job's push never happens.
    log.commitTo(indexOf(RecordType.EVENT, JobIntent.CREATED));
    log.loseLeadership();
    assertThat(count(log, TimerIntent.TRIGGERED)).isEqualTo(1);

    log.setAutoCommit(true);
    log.electLeader(second.processor);
    second.awaitPhase(ProcessorPhase.PROCESSING);

    completeJob(second, awaitJob(second, "after"));
    await(
        () -> lifecycle().contains("p " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance to complete");
    assertThat(count(log, TimerIntent.TRIGGERED)).as("never fired twice").isEqualTo(1);
    assertThat(count(log, JobIntent.CREATED)).isEqualTo(1);
    await(
        () -> first.processor.lastProcessedPosition() == second.processor.lastProcessedPosition(),
        "the old leader to replay the new leader's log");
    assertThat(workflowState(first)).isEqualTo(workflowState(second));
    assertReplayReachesStateOf(second);
  }

  @Test
  void withTheKeyOffATimerWaitsForTheCommitOfItsCreation() {
    TestMember leader = member("leader", UNCOMMITTED.withUncommittedTimers(false));
    log.electLeader(leader.processor);
    leader.awaitPhase(ProcessorPhase.PROCESSING);
    deployThenCreateUncommitted(leader);
    await(() -> indexOf(RecordType.EVENT, TimerIntent.CREATED) > 0, "the timer, uncommitted");
    long created = indexOf(RecordType.EVENT, TimerIntent.CREATED);
    long dueMs = firstTimer(created).dueDateMs;

    // Past its due time, and the leader has processed another command since: still no trigger.
    await(() -> System.currentTimeMillis() > dueMs, "the timer's due time to pass");
    ProcessInstanceCreationValue another = new ProcessInstanceCreationValue();
    another.bpmnProcessId = "p";
    leader.send(CreationIntent.CREATE, -1, another);
    await(() -> countAll(TimerIntent.CREATED) == 2, "the second instance processed");
    assertThat(indexOf(RecordType.COMMAND, TimerIntent.TRIGGER)).isZero();

    log.commitTo(created);
    await(
        () -> indexOf(RecordType.COMMAND, TimerIntent.TRIGGER) > 0,
        "the trigger once the creation committed");
    log.commitAll();
    log.setAutoCommit(true);
    completeJob(leader, awaitJob(leader, "after"));
    assertReplayReachesStateOf(leader);
  }

  private io.tern.engine.workflow.value.TimerValue firstTimer(long index) {
    RecordBatch batch = new RecordBatch();
    byte[] entry = log.batchAt(index);
    batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
    while (batch.hasNext()) {
      LoggedRecord record = batch.next();
      if (record.isEvent() && record.intent() == TimerIntent.CREATED) {
        return new io.tern.engine.workflow.value.TimerValue().readFrom(record.value());
      }
    }
    throw new IllegalStateException("no timer created in entry " + index);
  }

  /** Events of {@code intent} in every entry, committed or not. */
  private long countAll(Intent intent) {
    long count = 0;
    RecordBatch batch = new RecordBatch();
    for (long index = 1; index <= log.lastIndex(); index++) {
      byte[] entry = log.batchAt(index);
      if (entry == null) {
        continue;
      }
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.isEvent() && record.intent() == intent) {
          count++;
        }
      }
    }
    return count;
  }

  /** The index of the first entry, committed or not, holding such a record; 0 if none. */
  private long indexOf(RecordType type, Intent intent) {
    RecordBatch batch = new RecordBatch();
    for (long index = 1; index <= log.lastIndex(); index++) {
      byte[] entry = log.batchAt(index);
      if (entry == null) {
        continue;
      }
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.recordType() == type && record.intent() == intent) {
          return index;
        }
      }
    }
    return 0;
  }
}
