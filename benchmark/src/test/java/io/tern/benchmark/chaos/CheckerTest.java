package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.benchmark.chaos.Checker.Type;
import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checker on synthetic histories: a clean one passes, each broken promise is caught. */
class CheckerTest {
  private final List<Op> history = new ArrayList<>();
  private long clock;

  /** An instance that went the whole way, as the workload records it. */
  private void completeInstance(String biz, long instanceKey, long jobA, long jobB) {
    add(Op.of(Kind.CREATE, Outcome.OK, biz).withInstance(instanceKey));
    add(publish(biz, biz + "-p1", Outcome.OK));
    add(activation(biz, instanceKey, jobA, ChaosProcess.TASK_A, Map.of("biz", biz)));
    add(completion(biz, instanceKey, jobA, ChaosProcess.TASK_A, Outcome.OK));
    add(
        activation(
            biz,
            instanceKey,
            jobB,
            ChaosProcess.TASK_B,
            Map.of(
                "biz",
                biz,
                ChaosProcess.A_OUT,
                ChaosProcess.aValue(jobA),
                ChaosProcess.MESSAGE_ID,
                biz + "-p1")));
    add(completion(biz, instanceKey, jobB, ChaosProcess.TASK_B, Outcome.OK));
    add(ended(instanceKey, Outcome.OK));
  }

  private static Op publish(String biz, String publication, Outcome outcome) {
    return Op.of(Kind.PUBLISH, outcome, biz)
        .withVars(Map.of(ChaosProcess.MESSAGE_ID, publication))
        .withDetail("m-" + biz);
  }

  private static Op activation(
      String biz, long instanceKey, long job, String task, Map<String, String> read) {
    return Op.of(Kind.ACTIVATE, Outcome.OK, biz)
        .withInstance(instanceKey)
        .withJob(job, task)
        .withVars(read);
  }

  private static Op completion(String biz, long instanceKey, long job, String task, Outcome o) {
    Map<String, String> written =
        task.equals(ChaosProcess.TASK_A)
            ? Map.of(ChaosProcess.A_OUT, ChaosProcess.aValue(job))
            : Map.of(ChaosProcess.B_OUT, "b-" + job);
    return Op.of(Kind.COMPLETE, o, biz)
        .withInstance(instanceKey)
        .withJob(job, task)
        .withVars(written);
  }

  private static Op ended(long instanceKey, Outcome outcome) {
    return Op.of(Kind.ENDED, outcome, null).withInstance(instanceKey);
  }

  /** Each operation takes 10 ms and starts after the one before it answered. */
  private void add(Op op) {
    long start = clock + 1;
    clock = start + 10;
    history.add(op.withTimes(start, clock).withSeq(history.size() + 1));
  }

  private List<Type> violations() {
    return Checker.check(history).violations().stream().map(Checker.Violation::type).toList();
  }

  @Test
  void aCleanHistoryIsValid() {
    completeInstance("i-1", 101, 201, 202);
    completeInstance("i-2", 102, 203, 204);
    add(Op.of(Kind.CREATE, Outcome.FAIL, "i-3").withError("RESOURCE_EXHAUSTED"));
    add(Op.of(Kind.CREATE, Outcome.UNKNOWN, "i-4").withError("DEADLINE_EXCEEDED"));

    Checker.Result result = Checker.check(history);

    assertThat(result.violations()).isEmpty();
    assertThat(result.acknowledged()).isEqualTo(12);
    assertThat(result.refused()).isEqualTo(1);
    assertThat(result.unknown()).isEqualTo(1);
    assertThat(result.lost()).isZero();
    assertThat(result.duplicated()).isZero();
  }

  @Test
  void anInstanceWhoseCreationWasUnknownMayOrMayNotRun() {
    add(Op.of(Kind.CREATE, Outcome.UNKNOWN, "i-1").withError("UNAVAILABLE"));
    add(publish("i-1", "i-1-p1", Outcome.UNKNOWN));
    add(publish("i-1", "i-1-p2", Outcome.FAIL).withError("ALREADY_EXISTS"));
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    add(completion("i-1", 101, 201, ChaosProcess.TASK_A, Outcome.UNKNOWN));
    add(
        activation(
            "i-1",
            101,
            202,
            ChaosProcess.TASK_B,
            Map.of("biz", "i-1", ChaosProcess.A_OUT, "a-201", ChaosProcess.MESSAGE_ID, "i-1-p1")));
    add(Op.of(Kind.CREATE, Outcome.UNKNOWN, "i-2").withError("TIMEOUT"));

    assertThat(violations()).isEmpty();
  }

  @Test
  void anAcknowledgedInstanceThatNeverRanIsLost() {
    completeInstance("i-1", 101, 201, 202);
    add(Op.of(Kind.CREATE, Outcome.OK, "i-2").withInstance(102));
    add(publish("i-2", "i-2-p1", Outcome.OK));
    add(ended(102, Outcome.OK)); // "not active": it is gone, but it never ran

    Checker.Result result = Checker.check(history);

    assertThat(result.violations()).extracting(Checker.Violation::type).containsExactly(Type.LOST);
    assertThat(result.lost()).isEqualTo(1);
    assertThat(result.violations().get(0).excerpt())
        .as("the excerpt shows the instance's operations")
        .extracting(Op::biz)
        .contains("i-2");
  }

  @Test
  void anInstanceWhoseMessageWasAlwaysRefusedNeedNotEnd() {
    add(Op.of(Kind.CREATE, Outcome.OK, "i-1").withInstance(101));
    add(publish("i-1", "i-1-p1", Outcome.FAIL).withError("RESOURCE_EXHAUSTED"));
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    add(completion("i-1", 101, 201, ChaosProcess.TASK_A, Outcome.OK));
    add(ended(101, Outcome.FAIL));

    assertThat(violations()).isEmpty();
  }

  @Test
  void anInstanceWhosePublicationWasADuplicateOfOneThatWentThroughMustEnd() {
    add(Op.of(Kind.CREATE, Outcome.OK, "i-1").withInstance(101));
    add(publish("i-1", "i-1-p1", Outcome.FAIL).withError("ALREADY_EXISTS"));
    add(ended(101, Outcome.FAIL));

    assertThat(violations()).containsExactly(Type.LOST);
  }

  @Test
  void anAcknowledgedInstanceStillActiveAfterTheSettleIsLost() {
    completeInstance("i-1", 101, 201, 202);
    history.removeIf(op -> op.kind() == Kind.ENDED);
    add(ended(101, Outcome.FAIL));

    assertThat(violations()).containsExactly(Type.LOST);
  }

  @Test
  void jobsOfAnInstanceNobodyRequestedAreCaught() {
    completeInstance("i-1", 101, 201, 202);
    add(activation("i-9", 109, 209, ChaosProcess.TASK_A, Map.of("biz", "i-9")));

    assertThat(violations()).containsExactly(Type.UNREQUESTED);
  }

  @Test
  void jobsOfAnInstanceWhoseCreationWasRefusedAreCaught() {
    add(Op.of(Kind.CREATE, Outcome.FAIL, "i-1").withError("RESOURCE_EXHAUSTED"));
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));

    assertThat(violations()).containsExactly(Type.UNREQUESTED);
  }

  @Test
  void twoInstancesForOneCreationAreCaught() {
    completeInstance("i-1", 101, 201, 202);
    add(activation("i-1", 111, 211, ChaosProcess.TASK_A, Map.of("biz", "i-1")));

    assertThat(violations()).contains(Type.DUPLICATED_INSTANCE);
  }

  @Test
  void aTaskThatProducedTwoJobsIsCaught() {
    completeInstance("i-1", 101, 201, 202);
    add(activation("i-1", 101, 203, ChaosProcess.TASK_A, Map.of("biz", "i-1")));

    Checker.Result result = Checker.check(history);

    assertThat(result.violations())
        .extracting(Checker.Violation::type)
        .containsExactly(Type.DUPLICATED_JOB);
    assertThat(result.duplicated()).isEqualTo(1);
  }

  @Test
  void aJobActivatedAgainAfterItsCompletionWasAcknowledgedIsCaught() {
    completeInstance("i-1", 101, 201, 202);
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));

    assertThat(violations()).containsExactly(Type.REACTIVATED_AFTER_COMPLETION);
  }

  @Test
  void aJobHandedOutAgainAfterItTimedOutButBeforeItsCompletionIsAllowed() {
    add(Op.of(Kind.CREATE, Outcome.UNKNOWN, "i-1").withError("TIMEOUT")); // not required to end
    add(publish("i-1", "i-1-p1", Outcome.OK));
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    // The second worker's request was sent before the first worker's completion was answered.
    Op again = activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1"));
    Op completed = completion("i-1", 101, 201, ChaosProcess.TASK_A, Outcome.OK);
    history.add(completed.withTimes(100, 120).withSeq(4));
    history.add(again.withTimes(110, 130).withSeq(5));

    assertThat(violations()).isEmpty();
  }

  @Test
  void aValueTaskBReadThatTaskANeverWroteIsCaught() {
    completeInstance("i-1", 101, 201, 202);
    history.replaceAll(
        op ->
            op.kind() == Kind.ACTIVATE && ChaosProcess.TASK_B.equals(op.task())
                ? op.withVars(
                    Map.of(
                        "biz",
                        "i-1",
                        ChaosProcess.A_OUT,
                        "a-999",
                        ChaosProcess.MESSAGE_ID,
                        "i-1-p1"))
                : op);

    assertThat(violations()).containsExactly(Type.WRONG_VARIABLE);
  }

  @Test
  void aMessageTaskBReadThatWasNeverPublishedForItIsCaught() {
    completeInstance("i-1", 101, 201, 202);
    history.replaceAll(
        op ->
            op.kind() == Kind.ACTIVATE && ChaosProcess.TASK_B.equals(op.task())
                ? op.withVars(
                    Map.of("biz", "i-1", ChaosProcess.A_OUT, "a-201", ChaosProcess.MESSAGE_ID, "x"))
                : op);

    assertThat(violations()).containsExactly(Type.WRONG_VARIABLE);
  }

  @Test
  void aJobOfOneInstanceCarryingAnotherInstancesBusinessIdIsCaught() {
    completeInstance("i-1", 101, 201, 202);
    completeInstance("i-2", 102, 203, 204);
    add(activation("i-2", 101, 205, ChaosProcess.TASK_A, Map.of("biz", "i-2")));

    assertThat(violations()).contains(Type.WRONG_VARIABLE);
  }

  @Test
  void aPublicationCorrelatedToTwoInstancesIsCaught() {
    completeInstance("i-1", 101, 201, 202);
    completeInstance("i-2", 102, 203, 204);
    history.replaceAll(
        op ->
            op.kind() == Kind.ACTIVATE && op.jobKey() == 204
                ? op.withVars(
                    Map.of(
                        "biz",
                        "i-2",
                        ChaosProcess.A_OUT,
                        "a-203",
                        ChaosProcess.MESSAGE_ID,
                        "i-1-p1"))
                : op);

    assertThat(violations()).contains(Type.MESSAGE_TWICE);
  }

  @Test
  void aFaultTheClusterDidNotRecoverFromIsCaught() {
    completeInstance("i-1", 101, 201, 202);
    add(
        Op.of(Kind.FAULT, Outcome.FAIL, null)
            .withError("partition 2 has leaders []")
            .withDetail("kill-leader: kill -9 broker 1"));

    assertThat(violations()).containsExactly(Type.NOT_RECOVERED);
  }

  // --- Checkpoint mode: a backup, then every broker wiped and restored from it ---------------

  /** Marks the checkpoint's request (asked, answered) and then the wipe, in history time. */
  private long asked;

  private long answered;

  private void checkpoint() {
    asked = clock + 1;
    clock += 20;
    answered = clock;
  }

  /** The restore fault as ChaosBenchmark records it, healed now. */
  private void restore() {
    long wiped = clock + 1;
    clock += 100;
    add(
        Op.of(Kind.FAULT, Outcome.OK, null)
            .withVars(
                Map.of(
                    FaultInjector.CHECKPOINT_ASKED,
                    Long.toString(asked),
                    FaultInjector.CHECKPOINT_ANSWERED,
                    Long.toString(answered),
                    FaultInjector.WIPED,
                    Long.toString(wiped)))
            .withDetail("restore"));
  }

  @Test
  void checkpointModeLetsARestoreUndoWhatCameAfterTheCheckpointWhole() {
    // Before the checkpoint: created, published, task A completed. It survives and ends.
    add(Op.of(Kind.CREATE, Outcome.OK, "i-1").withInstance(101));
    add(publish("i-1", "i-1-p1", Outcome.OK));
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    add(completion("i-1", 101, 201, ChaosProcess.TASK_A, Outcome.OK));
    checkpoint();
    // After it: task B of i-1 completed, and i-2 created and published: all undone by the restore.
    Map<String, String> bReads =
        Map.of("biz", "i-1", ChaosProcess.A_OUT, "a-201", ChaosProcess.MESSAGE_ID, "i-1-p1");
    add(activation("i-1", 101, 202, ChaosProcess.TASK_B, bReads));
    add(completion("i-1", 101, 202, ChaosProcess.TASK_B, Outcome.OK));
    add(Op.of(Kind.CREATE, Outcome.OK, "i-2").withInstance(102));
    add(publish("i-2", "i-2-p1", Outcome.OK));
    add(activation("i-2", 102, 203, ChaosProcess.TASK_A, Map.of("biz", "i-2")));
    restore();
    // After the restore: i-1's task B again (the same job), and new work, whose keys are handed
    // out again from the checkpoint on (i-3 gets i-2's key).
    add(activation("i-1", 101, 202, ChaosProcess.TASK_B, bReads));
    add(completion("i-1", 101, 202, ChaosProcess.TASK_B, Outcome.OK));
    completeInstance("i-3", 102, 203, 204);
    add(ended(101, Outcome.OK));

    assertThat(Checker.check(history).violations()).isEmpty();
  }

  @Test
  void checkpointModeAllowsAnotherJobKeyForATaskWhoseJobWasHandedOutAfterTheCheckpoint() {
    // As a run had it: created and published across the checkpoint, both tasks done after it;
    // after the restore task A's job again (it existed at the checkpoint), and task B's job under
    // another key (keys are handed out again from the checkpoint on).
    add(Op.of(Kind.CREATE, Outcome.OK, "i-1").withInstance(101));
    checkpoint();
    add(publish("i-1", "i-1-p1", Outcome.OK));
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    add(completion("i-1", 101, 201, ChaosProcess.TASK_A, Outcome.OK));
    Map<String, String> bReads =
        Map.of("biz", "i-1", ChaosProcess.A_OUT, "a-201", ChaosProcess.MESSAGE_ID, "i-1-p1");
    add(activation("i-1", 101, 203, ChaosProcess.TASK_B, bReads));
    add(completion("i-1", 101, 203, ChaosProcess.TASK_B, Outcome.OK));
    restore();
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    add(completion("i-1", 101, 201, ChaosProcess.TASK_A, Outcome.OK));
    add(activation("i-1", 101, 202, ChaosProcess.TASK_B, bReads));
    add(completion("i-1", 101, 202, ChaosProcess.TASK_B, Outcome.OK));
    add(ended(101, Outcome.OK));
    assertThat(Checker.check(history).violations()).isEmpty();

    // But within one stretch between restores, two jobs of one task are still a duplicate.
    add(activation("i-1", 101, 204, ChaosProcess.TASK_B, bReads));
    assertThat(violations()).containsExactly(Type.DUPLICATED_JOB);
  }

  @Test
  void theSettleNeedNotWaitForInstancesARestoreMayHaveUndoneInPart() {
    add(Op.of(Kind.CREATE, Outcome.OK, "i-1").withInstance(101));
    add(publish("i-1", "i-1-p1", Outcome.OK));
    add(Op.of(Kind.CREATE, Outcome.OK, "i-2").withInstance(102));
    assertThat(Checker.mayNeverEnd(history)).as("no restore: every instance ends").isEmpty();
    checkpoint();
    add(publish("i-2", "i-2-p1", Outcome.OK)); // after the checkpoint: may be undone
    add(Op.of(Kind.CREATE, Outcome.OK, "i-3").withInstance(103));
    restore();

    assertThat(Checker.mayNeverEnd(history)).containsExactly(102L, 103L);
  }

  @Test
  void checkpointModeStillFindsWhatTheRestoreLostFromBeforeTheCheckpoint() {
    add(Op.of(Kind.CREATE, Outcome.OK, "i-1").withInstance(101));
    add(publish("i-1", "i-1-p1", Outcome.OK));
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    add(completion("i-1", 101, 201, ChaosProcess.TASK_A, Outcome.OK));
    checkpoint();
    restore();
    // Task A's completion, acknowledged before the checkpoint, undone: partly restored.
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));
    add(ended(101, Outcome.FAIL));

    assertThat(violations()).contains(Type.REACTIVATED_AFTER_COMPLETION, Type.LOST);
  }

  @Test
  void checkpointModeRefusesAnInstanceCreatedAfterTheCheckpointAfterTheRestore() {
    checkpoint();
    add(Op.of(Kind.CREATE, Outcome.OK, "i-1").withInstance(101));
    restore();
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));

    assertThat(violations()).containsExactly(Type.AFTER_CHECKPOINT);
  }

  @Test
  void withoutARestoreAnUndoneCompletionIsStillAViolation() {
    completeInstance("i-1", 101, 201, 202);
    add(activation("i-1", 101, 201, ChaosProcess.TASK_A, Map.of("biz", "i-1")));

    assertThat(violations()).contains(Type.REACTIVATED_AFTER_COMPLETION);
  }
}
