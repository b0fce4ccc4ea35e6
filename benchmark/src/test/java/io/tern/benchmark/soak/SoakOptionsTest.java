package io.tern.benchmark.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.benchmark.common.CommandLines;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SoakOptionsTest {
  @Test
  void theHelmChartsCommandLineIsAccepted() {
    SoakOptions options =
        SoakOptions.parse(
            new String[] {
              "--dir",
              "/data/soak",
              "--duration",
              "7d",
              "--interval",
              "30s",
              "--rate",
              "150",
              "--workers",
              "3",
              "--capacity",
              "60",
              "--completion-delay",
              "50ms",
              "--polling",
              "--workload",
              "message-start",
              "--gateway",
              "tern-gateway:26500",
              "--management",
              "tern-0.tern:9600,tern-1.tern:9600,tern-2.tern:9600",
              "--slo-p99",
              "500ms",
              "--max-leader-changes",
              "3"
            });

    assertThat(options.duration).isEqualTo(Duration.ofDays(7));
    assertThat(options.management).hasSize(3);
    assertThat(options.workload.startMessage()).isEqualTo(SoakWorkload.START_MESSAGE);
    assertThat(options.thresholds.sloP99()).isEqualTo(Duration.ofMillis(500));
    assertThat(options.thresholds.maxLeaderChanges()).isEqualTo(3);
    assertThat(options.polling).isTrue();
  }

  @Test
  void configKeysBecomeTheBrokersEnvironment() {
    SoakOptions options =
        SoakOptions.parse(
            new String[] {
              "--dir",
              "d",
              "--config",
              "raft.flush.mode=async",
              "--config",
              "TERN_DATA_SNAPSHOTPERIOD=1m"
            });

    assertThat(options.environment())
        .containsEntry("TERN_RAFT_FLUSH_MODE", "async")
        .containsEntry("TERN_DATA_SNAPSHOTPERIOD", "1m");
  }

  @Test
  void wrongCommandLinesSayWhatIsWrong() {
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--rate", "10"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--dir");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--dir", "d", "--gateway", "g:26500"}))
        .hasMessageContaining("--gateway needs --management");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--dir", "d", "--workload", "huge"}))
        .hasMessageContaining("no workload named 'huge'; known: one-task, typical");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--dir", "d", "--brokers", "1"}))
        .hasMessageContaining("--replication 3 is more than --brokers 1");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--dir", "d", "--interval", "soon"}))
        .hasMessageContaining("is not a duration");
    assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--dir", "d", "--payload", "p.json"}))
        .hasMessageContaining("--payload goes with --bpmn");
  }

  @Test
  void soakReportJudgesWithTheThresholdsTheRunWasGiven() {
    assertThat(
            ThresholdOptions.among(
                new String[] {"--dir", "d", "--slo-p99", "2s", "--rate", "5", "--warmup=1m"}))
        .containsExactly("--slo-p99", "2s", "--warmup=1m");
  }

  @Test
  void anInstancesVariablesAreItsPayloadAndWhenItWasSent() {
    assertThat(SoakWorkload.named("multi-instance").variables(42))
        .isEqualTo("{\"soakSentAtMs\":42,\"items\":[1,2,3,4,5]}");
    assertThat(new SoakWorkload("f", "p", t -> new byte[0], null, "{ }", null).variables(7))
        .isEqualTo("{\"soakSentAtMs\":7}");
  }
}
