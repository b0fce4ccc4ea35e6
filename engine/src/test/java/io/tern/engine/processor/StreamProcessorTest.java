package io.tern.engine.processor;

import static io.tern.engine.processor.TestEngine.BIG;
import static io.tern.engine.processor.TestEngine.CHAIN;
import static io.tern.engine.processor.TestEngine.CHAINED;
import static io.tern.engine.processor.TestEngine.CREATE;
import static io.tern.engine.processor.TestEngine.CREATED;
import static io.tern.engine.processor.TestEngine.FAIL;
import static io.tern.engine.processor.TestEngine.FIRED;
import static io.tern.engine.processor.TestEngine.SCHEDULE;
import static io.tern.engine.processor.TestEngine.UPDATE;
import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.Keys;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.RecordBatchBuilder;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.agrona.concurrent.UnsafeBuffer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StreamProcessorTest {
  @TempDir Path dir;

  private final InMemoryLogStorage log = new InMemoryLogStorage();
  private final List<TestMember> members = new ArrayList<>();

  private TestMember member(String name, ProcessorConfig config) {
    TestMember member = new TestMember(log, dir.resolve(name), config);
    members.add(member);
    return member;
  }

  private TestMember leader(ProcessorConfig config) {
    TestMember member = member("leader", config);
    log.electLeader(member.processor);
    member.awaitPhase(ProcessorPhase.PROCESSING);
    return member;
  }

  @AfterEach
  void closeAll() {
    members.forEach(TestMember::close);
  }

  /** A record of the committed log, flattened for assertions. */
  record Logged(
      long position,
      long source,
      RecordType type,
      Intent intent,
      boolean processed,
      RejectionType rejection) {}

  private List<Logged> committedRecords() {
    List<Logged> records = new ArrayList<>();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord r = batch.next();
        records.add(
            new Logged(
                r.position(),
                r.sourceRecordPosition(),
                r.recordType(),
                r.intent(),
                r.isProcessed(),
                r.rejectionType()));
      }
    }
    return records;
  }

  @Test
  void aCommandBecomesAnEventAppliedToStateAndTheClientGetsTheEvent() {
    TestMember leader = leader(ProcessorConfig.defaults());

    long request = leader.send(CREATE, -1, "hello");

    TestMember.Answer answer = leader.awaitAnswer(request);
    assertThat(answer.recordType()).isEqualTo(RecordType.EVENT);
    assertThat(Keys.partitionOf(answer.key())).isEqualTo(TestMember.PARTITION);
    assertThat(leader.entities()).containsValue("hello").hasSize(1);
    List<Logged> records = committedRecords();
    assertThat(records).hasSize(2);
    assertThat(records.get(1).source()).isEqualTo(records.get(0).position());
    assertThat(records.get(1).intent()).isEqualTo(CREATED);
  }

  @Test
  void theAnswerWaitsUntilTheResultIsCommitted() {
    TestMember leader = leader(ProcessorConfig.defaults());
    log.setAutoCommit(false);

    long request = leader.send(CREATE, -1, "a");
    log.commitTo(log.lastIndex()); // the command only: now it can be processed
    await(() -> log.lastIndex() > log.commitIndex(), "the result batch to be written");

    assertThat(leader.answers).isEmpty();
    log.commitAll();
    assertThat(leader.awaitAnswer(request).recordType()).isEqualTo(RecordType.EVENT);
  }

  @Test
  void aClientCommandIsReportedProcessedOnceBeforeItsResultCommits() {
    TestMember leader = leader(ProcessorConfig.defaults());
    log.setAutoCommit(false);

    long request = leader.send(CREATE, -1, "a");
    leader.write(CREATE, -1, TestEngine.value("nobody waits"));
    long rejected = leader.send(UPDATE, 12345, "no such entity");
    log.commitTo(log.lastIndex()); // the commands only: their results stay uncommitted

    // Backpressure frees a command's slot here: processed, whether or not anyone is answered yet.
    await(() -> leader.processed.size() == 2, "both client commands processed");
    assertThat(leader.processed).containsExactly(request, rejected);
    assertThat(leader.answers).isEmpty();
    log.commitAll();
    leader.awaitAnswer(rejected);
    assertThat(leader.processed).as("reported once").containsExactly(request, rejected);
  }

  @Test
  void aRejectionAnswersTheClientAndChangesNothing() {
    TestMember leader = leader(ProcessorConfig.defaults());
    Map<String, String> before = leader.entities();

    long request = leader.send(UPDATE, Keys.encode(1, 999), "x");

    TestMember.Answer answer = leader.awaitAnswer(request);
    assertThat(answer.recordType()).isEqualTo(RecordType.COMMAND_REJECTION);
    assertThat(answer.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(answer.reason()).contains("no entity with key");
    assertThat(leader.entities()).isEqualTo(before);
  }

  @Test
  void aProcessingErrorRejectsTheCommandRollsBackAndTheNextCommandIsProcessed() {
    TestMember leader = leader(ProcessorConfig.defaults());

    long failing = leader.send(FAIL, -1, "never stored");
    long next = leader.send(CREATE, -1, "stored");

    TestMember.Answer answer = leader.awaitAnswer(failing);
    assertThat(answer.rejection()).isEqualTo(RejectionType.PROCESSING_ERROR);
    assertThat(answer.reason()).contains("failing on purpose");
    assertThat(leader.awaitAnswer(next).recordType()).isEqualTo(RecordType.EVENT);
    assertThat(leader.entities().values()).containsExactly("stored");
    assertThat(leader.processor.phase()).isEqualTo(ProcessorPhase.PROCESSING);
  }

  @Test
  void batchProcessingWritesFollowUpsAsProcessedInOneBatchAndReachesTheSameState() {
    TestMember batched = leader(ProcessorConfig.defaults());
    long request = batched.send(CHAIN, -1, "20");
    batched.awaitAnswer(request);
    Map<String, String> batchedState = batched.entities();
    List<Logged> batchedRecords = committedRecords();

    // The command, then one batch: 21 events and 20 follow-up commands flagged processed.
    assertThat(log.committedBatches()).hasSize(2);
    assertThat(batchedRecords.stream().filter(r -> r.intent() == CHAINED)).hasSize(21);
    assertThat(batchedRecords.stream().filter(r -> r.type() == RecordType.COMMAND).skip(1))
        .hasSize(20)
        .allMatch(Logged::processed);
    assertThat(batchedRecords.stream().skip(1)).allMatch(r -> r.source() == 1);

    InMemoryLogStorage otherLog = new InMemoryLogStorage();
    TestMember single = new TestMember(otherLog, dir.resolve("single"), singleCommand());
    members.add(single);
    otherLog.electLeader(single.processor);
    single.awaitPhase(ProcessorPhase.PROCESSING);
    single.send(CHAIN, -1, "20");
    await(() -> single.entities().size() == 21, "21 chained entities without batching");

    assertThat(otherLog.committedBatches()).hasSize(22);
    // Same engine state; only the processor's own last processed position differs (41 vs 1).
    assertThat(single.entities()).isEqualTo(batchedState);
  }

  private static ProcessorConfig singleCommand() {
    return ProcessorConfig.defaults().withMaxCommandsInBatch(1);
  }

  @Test
  void aBatchThatOutgrowsItsLimitIsRetriedWithFewerCommands() {
    // Each step writes ~180 bytes; 2 KiB holds a few steps, not 30.
    TestMember leader = leader(ProcessorConfig.defaults().withMaxBatchBytes(2048));

    leader.send(CHAIN, -1, "30");
    await(() -> leader.entities().size() == 31, "31 chained entities");

    List<Logged> records = committedRecords();
    assertThat(records.stream().filter(r -> r.intent() == CHAINED)).hasSize(31);
    assertThat(records).noneMatch(r -> r.rejection() != RejectionType.NONE);
    assertThat(log.committedBatches().size()).isBetween(3, 31);
  }

  @Test
  void aResultLargerThanABatchIsRejected() {
    TestMember leader = leader(ProcessorConfig.defaults().withMaxBatchBytes(4096));

    long request = leader.send(BIG, -1, "5000");

    TestMember.Answer answer = leader.awaitAnswer(request);
    assertThat(answer.rejection()).isEqualTo(RejectionType.EXCEEDED_BATCH_RECORD_SIZE);
    assertThat(answer.reason()).contains("log.maxBatchBytes");
    assertThat(leader.entities()).isEmpty();
  }

  @Test
  void anOversizedCommandIsRefusedAtTheDoor() {
    TestMember leader = leader(ProcessorConfig.defaults().withMaxBatchBytes(4096));

    assertThatThrownBy(() -> leader.send(CREATE, -1, "x".repeat(5000)))
        .isInstanceOf(LogStreamWriter.NotWritableException.class)
        .hasMessageContaining("exceeds log.maxBatchBytes (4096)");
  }

  @Test
  void aFollowerReplayingTheLogReachesTheLeadersState() {
    TestMember follower = member("follower", ProcessorConfig.defaults());
    TestMember leader = leader(ProcessorConfig.defaults());
    List<Long> requests = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      requests.add(leader.send(CREATE, -1, "e" + i));
      requests.add(leader.send(CHAIN, -1, "3"));
      requests.add(leader.send(UPDATE, Keys.encode(1, 1), "updated" + i));
      requests.add(leader.send(FAIL, -1, "x"));
    }
    requests.forEach(leader::awaitAnswer);

    await(
        () ->
            follower.processor.lastProcessedPosition() == leader.processor.lastProcessedPosition(),
        "the follower to replay everything");
    assertThat(follower.processor.phase()).isEqualTo(ProcessorPhase.REPLAYING);
    assertThat(follower.dump()).isEqualTo(leader.dump()).isNotEmpty();
  }

  @Test
  void aResultLostWithLeadershipIsProducedOnceByTheNextLeader() {
    TestMember first = leader(ProcessorConfig.defaults());
    TestMember second = member("second", ProcessorConfig.defaults());
    long done = first.send(CREATE, -1, "committed");
    first.awaitAnswer(done);

    log.setAutoCommit(false);
    first.send(CREATE, -1, "result lost");
    log.commitTo(log.lastIndex()); // the command commits, its result will not
    await(() -> log.lastIndex() > log.commitIndex(), "the result batch to be written");
    log.loseLeadership();
    log.setAutoCommit(true);
    log.electLeader(second.processor);
    second.awaitPhase(ProcessorPhase.PROCESSING);
    await(() -> second.entities().size() == 2, "the lost command to be processed again");

    List<Logged> records = committedRecords();
    Map<Long, Long> resultsPerCommand =
        records.stream()
            .filter(r -> r.type() == RecordType.EVENT)
            .collect(Collectors.groupingBy(Logged::source, Collectors.counting()));
    assertThat(resultsPerCommand)
        .hasSize(2)
        .allSatisfy((command, count) -> assertThat(count).isOne());
    assertThat(second.entities().values()).containsExactlyInAnyOrder("committed", "result lost");
    // The old leader recovers from committed ground and replays to the same state.
    await(
        () -> first.processor.lastProcessedPosition() == second.processor.lastProcessedPosition(),
        "the old leader to replay");
    assertThat(first.dump()).isEqualTo(second.dump());
  }

  @Test
  void aReElectedLeaderDoesNotProcessCommittedCommandsAgain() {
    TestMember leader = leader(ProcessorConfig.defaults());
    for (int i = 0; i < 5; i++) {
      leader.awaitAnswer(leader.send(CREATE, -1, "v" + i));
    }
    log.loseLeadership();
    leader.awaitPhase(ProcessorPhase.REPLAYING);
    log.electLeader(leader.processor);
    leader.awaitPhase(ProcessorPhase.PROCESSING);
    leader.awaitAnswer(leader.send(CREATE, -1, "after"));

    assertThat(leader.entities()).hasSize(6);
    assertThat(committedRecords().stream().filter(r -> r.type() == RecordType.EVENT)).hasSize(6);
  }

  @Test
  void pausedProcessingHoldsCommandsAndStaysPausedAcrossRestart() {
    TestMember leader = leader(ProcessorConfig.defaults());
    leader.processor.pause();
    leader.awaitPhase(ProcessorPhase.PAUSED);
    leader.send(CREATE, -1, "held");
    // A paused processor must not take the command: checked throughout 100 ms.
    holdsFor(Duration.ofMillis(100), () -> leader.entities().isEmpty(), "nothing processed");

    leader.close();
    members.remove(leader);
    TestMember restarted = member("leader", ProcessorConfig.defaults());
    log.electLeader(restarted.processor);
    restarted.awaitPhase(ProcessorPhase.PAUSED);
    holdsFor(Duration.ofMillis(100), () -> restarted.entities().isEmpty(), "nothing processed");

    restarted.processor.resume();
    await(() -> restarted.entities().size() == 1, "the held command to be processed");
    assertThat(restarted.processor.phase()).isEqualTo(ProcessorPhase.PROCESSING);
  }

  @Test
  void scheduledWorkRunsWhenDueAndWritesCommands() {
    TestMember leader = leader(ProcessorConfig.defaults());
    long start = System.currentTimeMillis();

    leader.send(SCHEDULE, -1, "200");

    await(
        () -> committedRecords().stream().anyMatch(r -> r.intent() == FIRED),
        "the scheduled command");
    assertThat(System.currentTimeMillis() - start).isGreaterThanOrEqualTo(200);
  }

  @Test
  void anEventThatCannotBeAppliedOnReplayFailsThePartitionClearly() {
    TestMember follower = member("follower", ProcessorConfig.defaults());
    RecordBatchBuilder batch = new RecordBatchBuilder(1, 4096).reset(0);
    batch.appendWithCodes(
        RecordType.EVENT,
        io.tern.engine.protocol.ValueType.JOB.code(),
        99, // no applier
        5,
        1,
        -1,
        -1,
        RejectionType.NONE,
        null,
        false,
        TestEngine.value("?"));
    batch.assignPositions(1);
    byte[] entry = new byte[batch.length()];
    batch.buffer().getBytes(0, entry);
    log.appendCommitted(entry, 1);

    follower.awaitPhase(ProcessorPhase.FAILED);
    assertThat(follower.processor.failure()).hasMessageContaining("no applier for the event");
  }

  /** Fails unless {@code condition} holds at every check throughout {@code duration}. */
  private static void holdsFor(Duration duration, BooleanSupplier condition, String what) {
    Awaitility.await(what)
        .during(duration)
        .atMost(duration.plusSeconds(5))
        .pollInterval(Duration.ofMillis(5))
        .until(condition::getAsBoolean);
  }
}
