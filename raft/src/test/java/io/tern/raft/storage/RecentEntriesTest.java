package io.tern.raft.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.RaftEntry;
import org.junit.jupiter.api.Test;

class RecentEntriesTest {
  private static RaftEntry entry(long index, int bytes) {
    return new RaftEntry(index, 1, RaftEntry.Type.APPLICATION, index, new byte[bytes]);
  }

  @Test
  void findsAnEntryOnlyUnderItsOwnIndex() {
    RecentEntries recent = new RecentEntries();
    RaftEntry first = entry(1, 10);
    recent.add(first);

    assertThat(recent.get(1)).isSameAs(first);
    assertThat(recent.get(2)).isNull();
    assertThat(recent.get(1 + RecentEntries.SLOTS)).as("same slot, other index").isNull();

    RaftEntry later = entry(1 + RecentEntries.SLOTS, 20);
    recent.add(later);
    assertThat(recent.get(1)).as("its slot was taken").isNull();
    assertThat(recent.get(1 + RecentEntries.SLOTS)).isSameAs(later);
    assertThat(recent.bytes()).isEqualTo(20);
  }

  @Test
  void keepsWithinItsByteBudget() {
    RecentEntries recent = new RecentEntries();
    int half = (int) (RecentEntries.MAX_BYTES / 2);
    recent.add(entry(1, half));
    recent.add(entry(2, half));
    recent.add(entry(3, 1)); // over the budget: not remembered

    assertThat(recent.get(3)).isNull();
    assertThat(recent.bytes()).isEqualTo(RecentEntries.MAX_BYTES);

    recent.add(entry(1 + RecentEntries.SLOTS, 1)); // frees entry 1's bytes first
    assertThat(recent.get(1 + RecentEntries.SLOTS)).isNotNull();
    assertThat(recent.bytes()).isEqualTo(half + 1);
  }

  @Test
  void clearForgetsEverything() {
    RecentEntries recent = new RecentEntries();
    recent.add(entry(5, 100));
    recent.clear();

    assertThat(recent.get(5)).isNull();
    assertThat(recent.bytes()).isZero();
  }
}
