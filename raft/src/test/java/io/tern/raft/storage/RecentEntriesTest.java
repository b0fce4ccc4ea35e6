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
  }

  @Test
  void keepsTheLastSlotsEntriesDroppingTheOldest() {
    RecentEntries recent = new RecentEntries();
    int count = RecentEntries.SLOTS + 10;
    for (int index = 1; index <= count; index++) {
      recent.add(entry(index, 1));
    }

    assertThat(recent.get(10)).isNull();
    assertThat(recent.get(11)).isNotNull();
    assertThat(recent.get(count)).isNotNull();
    assertThat(recent.bytes()).isEqualTo(RecentEntries.SLOTS);
  }

  @Test
  void dropsTheOldestToStayWithinItsBudget() {
    RecentEntries recent = new RecentEntries(100);
    recent.add(entry(1, 50));
    recent.add(entry(2, 50));
    recent.add(entry(3, 1)); // the newest is kept, the oldest makes room

    assertThat(recent.get(1)).isNull();
    assertThat(recent.get(2)).isNotNull();
    assertThat(recent.get(3)).isNotNull();
    assertThat(recent.bytes()).isEqualTo(51);

    recent.add(entry(4, 101)); // larger than the whole budget: not kept, nothing before it either
    assertThat(recent.get(4)).isNull();
    assertThat(recent.get(3)).isNull();
    assertThat(recent.bytes()).isZero();

    recent.add(entry(5, 10));
    assertThat(recent.get(5)).isNotNull();
  }

  @Test
  void anIndexThatDoesNotFollowStartsAgain() {
    RecentEntries recent = new RecentEntries();
    recent.add(entry(1, 10));
    recent.add(entry(2, 10));
    recent.add(entry(2 + RecentEntries.SLOTS, 10));

    assertThat(recent.get(1)).isNull();
    assertThat(recent.get(2)).isNull();
    assertThat(recent.get(2 + RecentEntries.SLOTS)).isNotNull();
    assertThat(recent.bytes()).isEqualTo(10);
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
