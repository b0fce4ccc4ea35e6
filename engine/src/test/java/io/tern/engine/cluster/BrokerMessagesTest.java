package io.tern.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.cluster.BrokerMessages.Answered;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.ClusterAnswer;
import io.tern.engine.cluster.BrokerMessages.ClusterRequest;
import io.tern.engine.cluster.BrokerMessages.Event;
import io.tern.engine.cluster.BrokerMessages.Execute;
import io.tern.engine.cluster.BrokerMessages.JobStreamRequest;
import io.tern.engine.cluster.BrokerMessages.MembershipAnswer;
import io.tern.engine.cluster.BrokerMessages.PartitionState;
import io.tern.engine.cluster.BrokerMessages.PushedJob;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BrokerMessagesTest {
  @Test
  void everyMessageReadsBackAsWritten() {
    Execute execute = Execute.decode(new Execute(3, 7, 2, 1L << 51 | 9, true, bytes(5)).encode());
    assertThat(execute.partitionId()).isEqualTo(3);
    assertThat(execute.valueType()).isEqualTo(7);
    assertThat(execute.intent()).isEqualTo(2);
    assertThat(execute.key()).isEqualTo(1L << 51 | 9);
    assertThat(execute.wantsAnswer()).isTrue();
    assertThat(execute.value()).isEqualTo(bytes(5));

    Answered answered =
        Answered.decode(new Answered(4, (short) 3, "no such job", 42, bytes(0)).encode());
    assertThat(answered.intent()).isEqualTo(4);
    assertThat(answered.rejection()).isEqualTo((short) 3);
    assertThat(answered.reason()).isEqualTo("no such job");
    assertThat(answered.key()).isEqualTo(42);
    assertThat(answered.value()).isEmpty();

    BrokerState state =
        new BrokerState(
            2,
            "broker-2.tern",
            26501,
            26502,
            List.of(new PartitionState(1, false, 4, true), new PartitionState(3, true, 7, false)));
    assertThat(Event.decode(Event.of(state).encode()).state()).isEqualTo(state);
    assertThat(Event.decode(Event.jobsAvailable("payment").encode()).jobsAvailable())
        .isEqualTo("payment");

    JobStreamRequest stream =
        new JobStreamRequest("payment", "worker-1", 30_000, List.of("a", "b"));
    assertThat(JobStreamRequest.decode(stream.encode())).isEqualTo(stream);

    PushedJob pushed = PushedJob.decode(new PushedJob(77, bytes(300)).encode());
    assertThat(pushed.jobKey()).isEqualTo(77);
    assertThat(pushed.value()).isEqualTo(bytes(300));

    Map<Integer, String> outcomes = Map.of(1, "moved", 2, "already led by its primary");
    assertThat(BrokerMessages.outcomes(BrokerMessages.outcomes(outcomes))).isEqualTo(outcomes);
  }

  @Test
  void membershipAnswersCarryPrioritiesAndAnOlderBrokersAnswerReadsWithout() {
    MembershipAnswer answer =
        new MembershipAnswer("ACCEPTED", List.of(1, 3), List.of(4), true, 7, 9, Map.of(1, 2, 4, 1));
    assertThat(MembershipAnswer.decode(answer.encode())).isEqualTo(answer);
    assertThat(answer.priorityOf(4)).isEqualTo(1);
    assertThat(answer.priorityOf(3)).isNull();

    byte[] whole = answer.encode();
    int prioritiesBytes = Integer.BYTES + 2 * 2 * Integer.BYTES;
    MembershipAnswer older =
        MembershipAnswer.decode(Arrays.copyOf(whole, whole.length - prioritiesBytes));
    assertThat(older.priorities()).isEmpty();
    assertThat(older.voters()).containsExactly(1, 3);
    assertThat(older.commitIndex()).isEqualTo(9);
  }

  @Test
  void aForwardedClusterChangeReadsBackAsWritten() {
    ClusterRequest request =
        new ClusterRequest(
            "POST",
            "/actuator/cluster/brokers",
            Map.of("dryRun", List.of("true"), "replicationFactor", List.of("2")),
            "[0, 1, 2]");
    assertThat(ClusterRequest.decode(request.encode())).isEqualTo(request);
    ClusterRequest noBody =
        new ClusterRequest("DELETE", "/actuator/cluster/brokers/2", Map.of(), null);
    assertThat(ClusterRequest.decode(noBody.encode()).body()).isEmpty();
    ClusterAnswer answer = new ClusterAnswer(202, "{\"changeId\":3}");
    assertThat(ClusterAnswer.decode(answer.encode())).isEqualTo(answer);
  }

  @Test
  void truncatedAndNewerMessagesAreRefusedSayingWhy() {
    byte[] whole = new Execute(1, 1, 1, 1, false, bytes(64)).encode();
    assertThatThrownBy(() -> Execute.decode(Arrays.copyOf(whole, whole.length - 1)))
        .hasMessageContaining("truncated");
    byte[] newer = whole.clone();
    newer[0] = BrokerMessages.VERSION + 1;
    assertThatThrownBy(() -> Execute.decode(newer))
        .hasMessageContaining("version " + (BrokerMessages.VERSION + 1));
    byte[] badLength = new JobStreamRequest("t", "w", 1, List.of()).encode();
    badLength[4] = 0x7f; // the type's length now claims far more bytes than there are
    assertThatThrownBy(() -> JobStreamRequest.decode(badLength)).hasMessageContaining("truncated");
  }

  private static byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (i * 31);
    }
    return bytes;
  }
}
