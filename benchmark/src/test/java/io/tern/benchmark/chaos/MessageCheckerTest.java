package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.benchmark.chaos.Checker.Type;
import io.tern.benchmark.chaos.MessageProcesses.Way;
import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The message mode's checker on synthetic histories: messages taken once each by every way pass, a
 * message taken by two instances of one process is caught, as is a way that took none.
 */
class MessageCheckerTest {
  private final List<Op> history = new ArrayList<>();
  private long clock;
  private long jobs = 500;

  private void add(Op op) {
    long start = clock + 1;
    clock = start + 10;
    history.add(op.withTimes(start, clock).withSeq(history.size() + 1));
  }

  private void create(Way way, String key, long instance) {
    add(
        Op.of(Kind.CREATE, Outcome.OK, key)
            .withInstance(instance)
            .withVars(Map.of("process", way.processId)));
  }

  private void publish(Way way, String key, String messageId, Outcome outcome, String error) {
    add(
        Op.of(Kind.PUBLISH, outcome, key)
            .withError(error)
            .withVars(
                Map.of(MessageProcesses.MESSAGE_ID, messageId, MessageProcesses.MESSAGE_KEY, key))
            .withDetail(way.messageName()));
  }

  /** The took job of {@code instance} read {@code messageId}, published for {@code msgKey}. */
  private long took(Way way, String key, long instance, String messageId, String msgKey) {
    Map<String, String> read = new HashMap<>();
    read.put(MessageProcesses.MESSAGE_ID, messageId);
    read.put(MessageProcesses.MESSAGE_KEY, msgKey);
    if (way != Way.START) {
      read.put(MessageProcesses.KEY, key);
    }
    long job = ++jobs;
    add(
        Op.of(Kind.ACTIVATE, Outcome.OK, msgKey)
            .withInstance(instance)
            .withJob(job, way.tookJobType())
            .withVars(read)
            .withDetail(way.processId));
    add(
        Op.of(Kind.COMPLETE, Outcome.OK, null)
            .withInstance(instance)
            .withJob(job, way.tookJobType()));
    return job;
  }

  /** The done job of a non-interrupting instance read the list of every message it took. */
  private void done(String key, long instance, String taken) {
    long job = ++jobs;
    add(
        Op.of(Kind.ACTIVATE, Outcome.OK, null)
            .withInstance(instance)
            .withJob(job, Way.NON_INTERRUPTING.doneJobType())
            .withVars(Map.of(MessageProcesses.KEY, key, MessageProcesses.TAKEN, taken))
            .withDetail(Way.NON_INTERRUPTING.processId));
  }

  /** Two instances of each way on key k-0, each taking one of two messages. */
  private void everyWayTakesItsMessages() {
    long instance = 100;
    int message = 0;
    for (Way way : Way.values()) {
      for (int i = 0; i < 2; i++) {
        String messageId = "m-" + ++message;
        instance++;
        if (way != Way.START) {
          create(way, "k-0", instance);
        }
        publish(way, "k-0", messageId, Outcome.OK, null);
        took(way, "k-0", instance, messageId, "k-0");
      }
    }
  }

  private List<Type> violations() {
    return MessageChecker.check(history).violations().stream()
        .map(Checker.Violation::type)
        .toList();
  }

  @Test
  void messagesTakenOnceByEveryWayAreValid() {
    everyWayTakesItsMessages();
    // A message whose publication is unknown and that nobody took: allowed.
    publish(Way.CATCH, "k-1", "m-99", Outcome.UNKNOWN, "UNAVAILABLE");

    Checker.Result result = MessageChecker.check(history);

    assertThat(result.violations()).isEmpty();
    assertThat(result.duplicated()).isZero();
    assertThat(MessageChecker.counts(history))
        .allSatisfy(
            (way, counts) -> {
              assertThat(counts.taken()).as(way.description).isEqualTo(2);
              assertThat(counts.takenTwice()).isZero();
            });
    assertThat(MessageChecker.counts(history).get(Way.CATCH).published()).isEqualTo(3);
  }

  @Test
  void aMessageTakenByTwoInstancesOfOneProcessIsCaught() {
    everyWayTakesItsMessages();
    // m-3 went to instance 103; the retry of its offer went to 109 as well, which waits on k-0.
    create(Way.INTERRUPTING, "k-0", 109);
    took(Way.INTERRUPTING, "k-0", 109, "m-3", "k-0");

    Checker.Result result = MessageChecker.check(history);

    assertThat(result.violations())
        .extracting(Checker.Violation::type)
        .containsExactly(Type.MESSAGE_TWICE);
    assertThat(result.violations().get(0).message())
        .contains("m-3", Way.INTERRUPTING.processId, "[103, 109]");
    assertThat(result.violations().get(0).excerpt())
        .as("the publication and both activations")
        .extracting(Op::kind)
        .containsExactly(Kind.PUBLISH, Kind.ACTIVATE, Kind.ACTIVATE);
    assertThat(result.duplicated()).isEqualTo(1);
    assertThat(MessageChecker.counts(history).get(Way.INTERRUPTING).takenTwice()).isEqualTo(1);
    assertThat(MessageChecker.table(history)).contains("| interrupting boundary event |");
  }

  @Test
  void aNonInterruptingBoundaryTakingTwoMessagesInOneInstanceIsValid() {
    everyWayTakesItsMessages();
    create(Way.NON_INTERRUPTING, "k-1", 120);
    publish(Way.NON_INTERRUPTING, "k-1", "m-20", Outcome.OK, null);
    publish(Way.NON_INTERRUPTING, "k-1", "m-21", Outcome.OK, null);
    took(Way.NON_INTERRUPTING, "k-1", 120, "m-20", "k-1");
    took(Way.NON_INTERRUPTING, "k-1", 120, "m-21", "k-1");
    done("k-1", 120, "[m-20, m-21]");

    assertThat(violations()).isEmpty();
  }

  @Test
  void aNonInterruptingBoundaryTakingOneMessageTwiceInOneInstanceIsCaught() {
    everyWayTakesItsMessages();
    create(Way.NON_INTERRUPTING, "k-1", 120);
    publish(Way.NON_INTERRUPTING, "k-1", "m-20", Outcome.OK, null);
    // The offer was sent again and the boundary event triggered again: both took jobs read m-20,
    // which alone proves nothing (a later message may overwrite msgId first); the list does.
    took(Way.NON_INTERRUPTING, "k-1", 120, "m-20", "k-1");
    took(Way.NON_INTERRUPTING, "k-1", 120, "m-20", "k-1");
    done("k-1", 120, "[m-20, m-20]");

    Checker.Result result = MessageChecker.check(history);

    assertThat(result.violations())
        .extracting(Checker.Violation::type)
        .containsExactly(Type.MESSAGE_TWICE);
    assertThat(result.violations().get(0).message()).contains("m-20", "twice by instance 120");
  }

  @Test
  void aMessageInTheListsOfTwoNonInterruptingInstancesIsCaught() {
    everyWayTakesItsMessages();
    create(Way.NON_INTERRUPTING, "k-1", 120);
    create(Way.NON_INTERRUPTING, "k-1", 121);
    publish(Way.NON_INTERRUPTING, "k-1", "m-20", Outcome.OK, null);
    publish(Way.NON_INTERRUPTING, "k-1", "m-21", Outcome.OK, null);
    // The took jobs read the latest message only; the lists show m-20 went to both.
    took(Way.NON_INTERRUPTING, "k-1", 120, "m-21", "k-1");
    took(Way.NON_INTERRUPTING, "k-1", 121, "m-20", "k-1");
    done("k-1", 120, "[m-20, m-21]");
    done("k-1", 121, "[m-20]");

    Checker.Result result = MessageChecker.check(history);

    assertThat(result.violations())
        .extracting(Checker.Violation::type)
        .containsExactly(Type.MESSAGE_TWICE);
    assertThat(result.violations().get(0).message()).contains("m-20", "[120, 121]");
  }

  @Test
  void aDoneListIsReadAsTheClientPrintsIt() {
    Op done =
        Op.of(Kind.ACTIVATE, Outcome.OK, null)
            .withVars(Map.of(MessageProcesses.TAKEN, "[m-1, m-22]"));
    assertThat(MessageChecker.takenList(done)).containsExactly("m-1", "m-22");
    assertThat(MessageChecker.takenList(done.withVars(Map.of(MessageProcesses.TAKEN, "[]"))))
        .isEmpty();
  }

  @Test
  void aWayThatTookNoMessageIsNotAPass() {
    everyWayTakesItsMessages();
    history.removeIf(op -> Way.START.tookJobType().equals(op.task()));

    Checker.Result result = MessageChecker.check(history);

    assertThat(result.violations())
        .extracting(Checker.Violation::type)
        .containsExactly(Type.NOT_EXERCISED);
    assertThat(result.violations().get(0).message()).contains("message start event");
  }

  @Test
  void aMessageTakenUnderAnotherKeyIsCaught() {
    everyWayTakesItsMessages();
    create(Way.CATCH, "k-1", 130);
    publish(Way.CATCH, "k-2", "m-30", Outcome.OK, null);
    took(Way.CATCH, "k-1", 130, "m-30", "k-2");

    assertThat(violations()).containsExactly(Type.WRONG_VARIABLE);
  }

  @Test
  void aMessageWhosePublicationsWereAllRefusedMustNotBeTaken() {
    everyWayTakesItsMessages();
    create(Way.CATCH, "k-1", 140);
    publish(Way.CATCH, "k-1", "m-40", Outcome.FAIL, "RESOURCE_EXHAUSTED");
    took(Way.CATCH, "k-1", 140, "m-40", "k-1");

    assertThat(violations()).containsExactly(Type.UNREQUESTED);
  }

  @Test
  void aRetryRefusedAsADuplicateMeansTheMessageWentThrough() {
    everyWayTakesItsMessages();
    create(Way.CATCH, "k-1", 150);
    publish(Way.CATCH, "k-1", "m-50", Outcome.UNKNOWN, "DEADLINE_EXCEEDED");
    publish(Way.CATCH, "k-1", "m-50", Outcome.FAIL, "ALREADY_EXISTS");
    took(Way.CATCH, "k-1", 150, "m-50", "k-1");

    assertThat(violations()).isEmpty();
  }

  @Test
  void aFaultTheClusterDidNotRecoverFromIsCaught() {
    everyWayTakesItsMessages();
    add(
        Op.of(Kind.FAULT, Outcome.FAIL, null)
            .withError("partition 2 has leaders []")
            .withDetail("pause: SIGSTOP broker 1"));

    assertThat(violations()).containsExactly(Type.NOT_RECOVERED);
  }
}
