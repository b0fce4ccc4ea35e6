package io.tern.raft.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import java.util.Arrays;

/** Assertions on messages, whose records hold byte arrays and entries (compared by content). */
final class Messages {
  private Messages() {}

  static void assertSameMessage(RaftMessage actual, RaftMessage expected) {
    assertThat(actual)
        .usingRecursiveComparison()
        // Element by element through reflection takes seconds for a 1 MiB payload.
        .withEqualsForType((a, b) -> Arrays.equals(a, b), byte[].class)
        // By content: a received entry views its frame where the sent one owns an array.
        .withEqualsForType(RaftEntry::equals, RaftEntry.class)
        .isEqualTo(expected);
  }
}
