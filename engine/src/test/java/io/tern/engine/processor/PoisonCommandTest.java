package io.tern.engine.processor;

import static io.tern.engine.processor.TestEngine.CREATE;
import static io.tern.engine.processor.TestEngine.HOG;
import static io.tern.engine.processor.TestEngine.OVERFLOW;
import static io.tern.engine.processor.TestEngine.VM_ERROR;
import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command whose processing throws an {@link Error} (a stack overflow, an out-of-memory error from
 * one oversized command) is rejected and processing goes on, on the leader and on whoever replays
 * the log after it; only an error of the JVM itself stops the partition.
 */
class PoisonCommandTest {
  @TempDir Path dir;

  private final InMemoryLogStorage log = new InMemoryLogStorage();
  private final List<TestMember> members = new ArrayList<>();

  private TestMember member(String name) {
    TestMember member = new TestMember(log, dir.resolve(name), ProcessorConfig.defaults());
    members.add(member);
    return member;
  }

  private TestMember leader(String name) {
    TestMember member = member(name);
    log.electLeader(member.processor);
    member.awaitPhase(ProcessorPhase.PROCESSING);
    return member;
  }

  @AfterEach
  void closeAll() {
    members.forEach(TestMember::close);
  }

  @Test
  void aStackOverflowOrOutOfMemoryRejectsTheCommandAndTheNextIsProcessed() {
    TestMember leader = leader("leader");

    long overflow = leader.send(OVERFLOW, -1, "never stored");
    long hog = leader.send(HOG, -1, "never stored either");
    long next = leader.send(CREATE, -1, "stored");

    TestMember.Answer overflowAnswer = leader.awaitAnswer(overflow);
    assertThat(overflowAnswer.rejection()).isEqualTo(RejectionType.PROCESSING_ERROR);
    assertThat(overflowAnswer.reason()).contains("StackOverflowError");
    TestMember.Answer hogAnswer = leader.awaitAnswer(hog);
    assertThat(hogAnswer.rejection()).isEqualTo(RejectionType.PROCESSING_ERROR);
    assertThat(hogAnswer.reason()).contains("OutOfMemoryError");
    assertThat(leader.awaitAnswer(next).recordType()).isEqualTo(RecordType.EVENT);
    assertThat(leader.entities().values()).containsExactly("stored");
    assertThat(leader.processor.phase()).isEqualTo(ProcessorPhase.PROCESSING);
  }

  @Test
  void replayAppliesTheRejectionsAndANewLeaderDoesNotRunThePillsAgain() {
    TestMember follower = member("follower");
    TestMember first = leader("first");
    first.awaitAnswer(first.send(OVERFLOW, -1, "x"));
    first.awaitAnswer(first.send(HOG, -1, "y"));
    first.awaitAnswer(first.send(CREATE, -1, "before"));
    await(
        () -> follower.processor.lastProcessedPosition() == first.processor.lastProcessedPosition(),
        "the follower to replay the pills' rejections");
    assertThat(follower.processor.phase()).isEqualTo(ProcessorPhase.REPLAYING);
    assertThat(follower.dump()).isEqualTo(first.dump());

    log.loseLeadership();
    log.electLeader(follower.processor);
    follower.awaitPhase(ProcessorPhase.PROCESSING);
    assertThat(follower.awaitAnswer(follower.send(CREATE, -1, "after")).recordType())
        .isEqualTo(RecordType.EVENT);

    assertThat(follower.entities().values()).containsExactlyInAnyOrder("before", "after");
    assertThat(rejections()).as("one rejection per pill, none written again").hasSize(2);
  }

  @Test
  void aPillWhoseRejectionWasLostIsRejectedAgainByTheNextLeader() {
    TestMember first = leader("first");
    TestMember second = member("second");
    log.setAutoCommit(false);
    first.send(OVERFLOW, -1, "x");
    log.commitTo(log.lastIndex()); // the command commits, its rejection will not
    await(() -> log.lastIndex() > log.commitIndex(), "the rejection to be written");
    log.loseLeadership();
    log.setAutoCommit(true);

    log.electLeader(second.processor);
    second.awaitPhase(ProcessorPhase.PROCESSING);
    await(() -> rejections().size() == 1, "the pill to be rejected by the new leader");

    assertThat(rejections().get(0).reason()).contains("StackOverflowError");
    // Not awaitAnswer: the pill's request id, answered by this member too, is 1 as well.
    second.send(CREATE, -1, "after");
    await(() -> second.entities().containsValue("after"), "a command after the pill");
    assertThat(second.processor.phase()).isEqualTo(ProcessorPhase.PROCESSING);
  }

  @Test
  void anErrorOfTheJvmItselfStillFailsThePartition() {
    TestMember leader = leader("leader");

    leader.send(VM_ERROR, -1, "x");

    leader.awaitPhase(ProcessorPhase.FAILED);
    assertThat(leader.processor.failure()).isInstanceOf(InternalError.class);
  }

  private record Rejection(RejectionType type, String reason) {}

  private List<Rejection> rejections() {
    List<Rejection> rejections = new ArrayList<>();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.recordType() == RecordType.COMMAND_REJECTION) {
          rejections.add(new Rejection(record.rejectionType(), record.rejectionReason()));
        }
      }
    }
    return rejections;
  }
}
