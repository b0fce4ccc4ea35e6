package io.tern.engine.processor;

import static io.tern.engine.processor.TestEngine.CHAIN;
import static io.tern.engine.processor.TestEngine.CREATE;
import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.record.sbe.RecordType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code processing.uncommitted}: a leader processes commands that are in its log but not
 * committed, while nothing that depends on them leaves the partition before they commit; a leader
 * that loses such work answers nothing for it and rebuilds its state from the committed log.
 */
class UncommittedProcessingTest {
  private static final ProcessorConfig UNCOMMITTED =
      ProcessorConfig.defaults().withUncommitted(true);

  @TempDir Path dir;

  private final InMemoryLogStorage log = new InMemoryLogStorage();
  private final List<TestMember> members = new ArrayList<>();

  private TestMember member(String name) {
    TestMember member = new TestMember(log, dir.resolve(name), UNCOMMITTED);
    members.add(member);
    return member;
  }

  private TestMember elect(TestMember member) {
    log.electLeader(member.processor);
    log.commitTo(log.lastIndex()); // the election's no-op
    member.awaitPhase(ProcessorPhase.PROCESSING);
    return member;
  }

  @AfterEach
  void closeAll() {
    members.forEach(TestMember::close);
  }

  @Test
  void commandsAreProcessedBeforeTheyCommitAndAnsweredOnlyAfter() {
    log.setAutoCommit(false);
    TestMember leader = elect(member("leader"));
    long committedBefore = log.commitIndex();

    long create = leader.send(CREATE, -1, "a");
    long chain = leader.send(CHAIN, -1, "3");

    // Processed (state changed, results written) with nothing committed since.
    await(() -> leader.entities().size() == 5, "both commands processed uncommitted");
    assertThat(log.commitIndex()).isEqualTo(committedBefore);
    assertThat(leader.processed).containsExactly(create, chain);
    assertThat(leader.answers).as("no answer before the commit").isEmpty();

    log.commitAll();
    assertThat(leader.awaitAnswer(create).recordType()).isEqualTo(RecordType.EVENT);
    leader.awaitAnswer(chain);
  }

  @Test
  void answersAreReleasedInLogOrderAsTheCommitIndexPassesTheirBatches() {
    log.setAutoCommit(false);
    TestMember leader = elect(member("leader"));
    long first = leader.send(CREATE, -1, "first");
    long second = leader.send(CREATE, -1, "second");
    // Entries: command 1, command 2, then result 1 and result 2 (or the results interleaved).
    await(() -> leader.entities().size() == 2, "both processed");
    await(() -> log.lastIndex() >= log.commitIndex() + 4, "both results written");

    long resultOfFirst = log.commitIndex() + 3; // the first result batch follows both commands
    log.commitTo(resultOfFirst);
    leader.awaitAnswer(first);
    assertThat(leader.answers).extracting(TestMember.Answer::requestId).containsExactly(first);

    log.commitAll();
    leader.awaitAnswer(second);
  }

  @Test
  void aLeaderThatLosesUncommittedWorkAnswersNothingForItAndRebuildsItsState() {
    TestMember first = member("first");
    TestMember second = member("second");
    log.setAutoCommit(true);
    elect(first);
    first.awaitAnswer(first.send(CREATE, -1, "committed"));

    log.setAutoCommit(false);
    long lost = first.send(CREATE, -1, "lost");
    await(() -> first.entities().containsValue("lost"), "the uncommitted command processed");
    log.loseLeadership(); // a new leader never had it: the command and its result are gone
    log.setAutoCommit(true);
    elect(second);
    second.awaitAnswer(second.send(CREATE, -1, "after"));

    assertThat(first.answers).extracting(TestMember.Answer::requestId).doesNotContain(lost);
    assertThat(second.entities().values()).containsExactlyInAnyOrder("committed", "after");
    // The old leader threw away the state that held "lost" and replayed the committed log.
    await(
        () -> first.processor.lastProcessedPosition() == second.processor.lastProcessedPosition(),
        "the old leader to replay");
    assertThat(first.entities().values()).containsExactlyInAnyOrder("committed", "after");
    assertThat(first.dump()).isEqualTo(second.dump());
  }

  @Test
  void aFollowerReplaysOnlyTheCommittedLogAndReachesTheLeadersState() {
    TestMember follower = member("follower");
    log.setAutoCommit(false);
    TestMember leader = elect(member("leader"));
    for (int i = 0; i < 10; i++) {
      leader.send(CREATE, -1, "e" + i);
    }
    await(() -> leader.entities().size() == 10, "all processed uncommitted");
    assertThat(follower.entities()).as("the follower applies committed entries only").isEmpty();

    log.commitAll();
    await(
        () ->
            follower.processor.lastProcessedPosition() == leader.processor.lastProcessedPosition(),
        "the follower to replay everything");
    assertThat(follower.dump()).isEqualTo(leader.dump()).isNotEmpty();
  }
}
