package io.tern.raft.transport;

import static io.tern.raft.transport.Inbox.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.transport.RecordingTransport.Sent;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultInjectingTransportTest {
  private final RecordingTransport network = new RecordingTransport(1);
  private final FaultInjectingTransport faults = new FaultInjectingTransport(network, 42);

  @AfterEach
  void close() {
    faults.close();
  }

  @Test
  void passesMessagesStraightThroughWithoutFaults() {
    assertThat(faults.send(3, message(2, 1))).isTrue();

    assertThat(network.sent).extracting(Sent::partitionId).containsExactly(3);
    assertThat(faults.localMemberId()).isEqualTo(1);
  }

  @Test
  void aPartitionedLinkLosesEverythingUntilHealed() throws Exception {
    faults.setLinkFault(2, LinkFault.PARTITIONED);
    for (int i = 0; i < 10; i++) {
      assertThat(faults.send(1, message(2, i))).as("lost on the wire, not refused").isTrue();
      assertThat(faults.send(1, message(3, i))).isTrue();
    }
    assertThat(network.sentTo(2)).isEmpty();
    assertThat(network.sentTo(3)).hasSize(10);
    assertThat(faults.droppedMessages()).isEqualTo(10);

    faults.clear();
    faults.send(1, message(2, 10));
    assertThat(network.sentTo(2)).extracting(s -> s.message().term()).containsExactly(10L);
  }

  @Test
  void messagesStillDelayedWhenTheLinkIsCutAreLost() throws Exception {
    faults.setLinkFault(2, LinkFault.delay(200));
    for (int i = 0; i < 5; i++) {
      faults.send(1, message(2, i));
    }
    faults.setLinkFault(2, LinkFault.PARTITIONED);
    // Each is dropped when it falls due, on the cut link.
    await("the delayed messages dropped", () -> faults.droppedMessages() == 5);

    assertThat(network.sentTo(2)).isEmpty();
    assertThat(faults.droppedMessages()).isEqualTo(5);
    faults.clear();
    faults.send(1, message(2, 5));
    assertThat(network.sentTo(2)).extracting(s -> s.message().term()).containsExactly(5L);
  }

  @Test
  void dropsByProbability() {
    faults.setAllLinks(LinkFault.drop(1.0));
    for (int i = 0; i < 100; i++) {
      faults.send(1, message(2 + i % 2, i));
    }
    assertThat(network.sent).isEmpty();

    faults.setAllLinks(LinkFault.drop(0.5));
    for (int i = 0; i < 1000; i++) {
      faults.send(1, message(2, i));
    }
    assertThat(network.sent.size()).isBetween(400, 600);
  }

  @Test
  void theSameSeedLosesTheSameMessages() {
    RecordingTransport otherNetwork = new RecordingTransport(1);
    try (FaultInjectingTransport other = new FaultInjectingTransport(otherNetwork, 42)) {
      faults.setAllLinks(LinkFault.drop(0.3));
      other.setAllLinks(LinkFault.drop(0.3));
      for (int i = 0; i < 200; i++) {
        faults.send(1, message(2, i));
        other.send(1, message(2, i));
      }
      assertThat(otherNetwork.sent)
          .extracting(Sent::message)
          .isEqualTo(network.sent.stream().map(Sent::message).toList());
    }
  }

  @Test
  void delaysEachMessageByAtLeastTheSetDelay() throws Exception {
    faults.setLinkFault(2, LinkFault.delay(20));
    long[] sentAtNanos = new long[10];
    for (int i = 0; i < 10; i++) {
      sentAtNanos[i] = System.nanoTime();
      faults.send(1, message(2, i));
      faults.send(1, message(3, i));
      Thread.sleep(1); // pacing: send times spread out, each delay measured from its own
    }
    assertThat(network.sentTo(3)).hasSize(10); // other links are not delayed

    await("delayed delivery", () -> network.sentTo(2).size() == 10);
    List<Sent> delivered = network.sentTo(2);
    for (int i = 0; i < 10; i++) {
      long delayNanos = delivered.get(i).atNanos() - sentAtNanos[i];
      assertThat(delayNanos).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }
    assertThat(faults.delayedMessages()).isEqualTo(10);
  }

  @Test
  void keepsEachLinkInOrderDespiteJitter() throws Exception {
    faults.setAllLinks(LinkFault.delay(1, 10));
    for (int i = 0; i < 300; i++) {
      faults.send(1, message(2, i));
      faults.send(1, message(3, i));
    }

    await("all delivered", () -> network.sent.size() == 600);
    assertThat(network.sentTo(2)).extracting(s -> s.message().term()).isSorted().hasSize(300);
    assertThat(network.sentTo(3)).extracting(s -> s.message().term()).isSorted().hasSize(300);
  }

  @Test
  void anUndelayedMessageWaitsBehindDelayedOnesOnItsLink() throws Exception {
    faults.setLinkFault(2, LinkFault.delay(30));
    faults.send(1, message(2, 1));
    faults.clear();
    faults.send(1, message(2, 2));

    await("both delivered", () -> network.sentTo(2).size() == 2);
    assertThat(network.sentTo(2)).extracting(s -> s.message().term()).containsExactly(1L, 2L);
  }

  @Test
  void perLinkFaultsOverrideAllLinksUntilTheNextSetAllLinks() {
    faults.setAllLinks(LinkFault.PARTITIONED);
    faults.setLinkFault(3, LinkFault.NONE);
    assertThat(faults.linkFault(2)).isEqualTo(LinkFault.PARTITIONED);
    assertThat(faults.linkFault(3)).isEqualTo(LinkFault.NONE);

    faults.setAllLinks(LinkFault.delay(5, 1));
    assertThat(faults.linkFault(3)).isEqualTo(new LinkFault(0, 5, 1, false));
  }

  @Test
  void closeClosesTheWrappedTransportAndRefusesSends() {
    faults.close();

    assertThat(network.closed).isTrue();
    assertThat(faults.send(1, message(2, 1))).isFalse();
  }

  @Test
  void validatesFaults() {
    assertThatThrownBy(() -> LinkFault.drop(1.5))
        .hasMessage("link fault: dropProbability must be in [0, 1], got 1.5");
    assertThatThrownBy(() -> LinkFault.delay(-1))
        .hasMessage("link fault: delayMs and jitterMs must be >= 0, got -1 and 0");
  }

  private static RaftMessage message(int to, long term) {
    return new TimeoutNow(1, to, term);
  }
}
