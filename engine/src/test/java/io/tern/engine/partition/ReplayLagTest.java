package io.tern.engine.partition;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReplayLagTest {
  private static final long LIMIT = ReplayLag.MAX_CAUGHT_UP_LAG_ENTRIES;

  private final AtomicLong commit = new AtomicLong();
  private final AtomicLong read = new AtomicLong(-1);

  @Test
  void aFollowerKeepingUpIsNotReplaying() {
    ReplayLag lag = new ReplayLag(0, commit::get, read::get);
    commit.set(50_000);
    read.set(50_000 - LIMIT);
    assertThat(lag.entries()).isEqualTo(LIMIT);
    assertThat(lag.replaying()).isFalse();
  }

  @Test
  void aMemberFarBehindTheCommitIndexIsReplaying() {
    ReplayLag lag = new ReplayLag(0, commit::get, read::get);
    commit.set(50_000);
    read.set(10_000);
    assertThat(lag.entries()).isEqualTo(40_000);
    assertThat(lag.replaying()).isTrue();
  }

  @Test
  void aRestartedMemberReplaysItsLocalLogBeforeItKnowsTheCommitIndex() {
    // The commit index is the snapshot's until the next leader says more.
    ReplayLag lag = new ReplayLag(200_000, commit::get, read::get);
    commit.set(100_000);
    assertThat(lag.replaying()).as("before its state is recovered").isTrue();
    read.set(100_000);
    assertThat(lag.entries()).isEqualTo(100_000);
    assertThat(lag.replaying()).isTrue();
    read.set(200_000 - LIMIT);
    assertThat(lag.replaying()).isFalse();
  }

  @Test
  void aLeaderAheadOfTheCommitIndexLagsByNothing() {
    ReplayLag lag = new ReplayLag(0, commit::get, read::get);
    commit.set(10);
    read.set(12); // processing.uncommitted reads before the commit
    assertThat(lag.entries()).isZero();
  }
}
