package io.tern.benchmark.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.benchmark.common.CapturedOutput;
import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.machine.HandOffLoad;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RaftBenchmarkOptionsTest {
  @AfterEach
  void clearProperty() {
    System.clearProperty(HandOffLoad.PROBE_PROPERTY);
  }

  @Test
  void defaults() {
    RaftBenchmarkOptions options = RaftBenchmarkOptions.parse(new String[0]);

    assertThat(options.dataParentDir()).isEqualTo(Path.of("target"));
    assertThat(options.jsonOut().getFileName()).hasToString("raft-benchmark.json");
    assertThat(options.quick()).isFalse();
    assertThat(options.scenarios())
        .containsExactly("latency", "throughput", "failover", "snapshot");
    assertThat(options.modes()).containsExactly("sync", "delayed", "async", "off");
    assertThat(options.clusters()).containsExactly("tern", "ratis");
    assertThat(options.measureMs()).isEqualTo(10_000);
    assertThat(options.warmupMs()).isEqualTo(3000);
    assertThat(options.ratePerS()).isEqualTo(10_000);
    assertThat(options.anchorRatePerS()).isEqualTo(500);
    assertThat(options.latencyPartitions()).containsExactly(1, 10, 30);
    assertThat(options.throughputPartitions()).containsExactly(1, 3);
    assertThat(options.outstandingPerPartition()).isEqualTo(1000);
    assertThat(options.failovers()).isEqualTo(5);
    assertThat(options.snapshotBytes()).isEqualTo(RaftBenchmarkOptions.GIB);
    assertThat(options.electionTimeoutMinMs()).isEqualTo(1000);
    assertThat(options.handOffProbeRoundTripsPerS()).as("the hand-off probe is opt-in").isZero();
  }

  @Test
  void quickShortensWhatIsNotGivenExplicitly() {
    RaftBenchmarkOptions quick = RaftBenchmarkOptions.parse(new String[] {"--quick"});
    assertThat(quick.measureMs()).isEqualTo(1000);
    assertThat(quick.warmupMs()).isEqualTo(500);
    assertThat(quick.failovers()).isEqualTo(1);
    assertThat(quick.snapshotBytes()).isEqualTo(64 * RaftBenchmarkOptions.MIB);

    RaftBenchmarkOptions explicit =
        RaftBenchmarkOptions.parse(
            new String[] {
              "--quick", "--seconds", "2", "--failovers", "0", "--snapshot-bytes", "2M"
            });
    assertThat(explicit.measureMs()).isEqualTo(2000);
    assertThat(explicit.failovers()).isZero();
    assertThat(explicit.snapshotBytes()).isEqualTo(2 * RaftBenchmarkOptions.MIB);
  }

  @Test
  void listsAreReadAsBefore() {
    RaftBenchmarkOptions options =
        RaftBenchmarkOptions.parse(
            new String[] {
              "--modes", "SYNC, off", "--clusters=tern,ratis-direct", "--latency-partitions", "2,4"
            });

    assertThat(options.modes()).containsExactly("sync", "off");
    assertThat(options.clusters()).containsExactly("tern", "ratis-direct");
    assertThat(options.latencyPartitions()).isEqualTo(List.of(2, 4));
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertThatThrownBy(() -> RaftBenchmarkOptions.parse(new String[] {"--rate", "0"}))
        .isInstanceOf(CommandLines.UsageException.class)
        .hasMessageContaining("--rate must be positive, got 0")
        .hasMessageContaining("Usage: java -jar tern-benchmark.jar raft");
    assertThatThrownBy(() -> RaftBenchmarkOptions.parse(new String[] {"--rate", "fast"}))
        .hasMessageContaining("--rate")
        .hasMessageContaining("fast");
    assertThatThrownBy(() -> RaftBenchmarkOptions.parse(new String[] {"--modes", "sync,never"}))
        .hasMessageContaining("--modes: unknown value 'never'");
    assertThatThrownBy(() -> RaftBenchmarkOptions.parse(new String[] {"--clusters", "etcd"}))
        .hasMessageContaining("--clusters: unknown value 'etcd', known: tern,ratis,ratis-direct");
    assertThatThrownBy(
            () -> RaftBenchmarkOptions.parse(new String[] {"--latency-partitions", "1,x"}))
        .hasMessageContaining("--latency-partitions: 'x' is not a whole number");
    assertThatThrownBy(() -> RaftBenchmarkOptions.parse(new String[] {"--snapshot-bytes", "1T"}))
        .hasMessageContaining("--snapshot-bytes");
    assertThatThrownBy(() -> RaftBenchmarkOptions.parse(new String[] {"--failovers", "-1"}))
        .hasMessageContaining("--failovers must be 0 (off) or positive");
    assertThatThrownBy(() -> RaftBenchmarkOptions.parse(new String[] {"--hand-off-probe", "-5"}))
        .hasMessageContaining("--hand-off-probe must be 0 (off) or positive");
  }

  @Test
  void theHandOffProbeIsTurnedOnByItsOptionOrTheSystemProperty() {
    assertThat(
            RaftBenchmarkOptions.parse(new String[] {"--hand-off-probe", "5000"})
                .handOffProbeRoundTripsPerS())
        .isEqualTo(5000);

    System.setProperty(HandOffLoad.PROBE_PROPERTY, "3000");
    assertThat(RaftBenchmarkOptions.parse(new String[0]).handOffProbeRoundTripsPerS())
        .isEqualTo(3000);
    assertThat(
            RaftBenchmarkOptions.parse(new String[] {"--hand-off-probe", "0"})
                .handOffProbeRoundTripsPerS())
        .as("the option wins over the property")
        .isZero();
  }

  @Test
  void helpListsTheClustersAndTheProbe() throws Exception {
    CapturedOutput<RaftBenchmarkOptions> help =
        CapturedOutput.of(() -> RaftBenchmarkOptions.parse(new String[] {"-h"}));

    assertThat(help.result()).isNull();
    assertThat(help.out())
        .contains("Usage: java -jar tern-benchmark.jar raft")
        .contains("any of tern, ratis, ratis-direct (default tern,ratis)")
        .contains("--hand-off-probe=RATE")
        .contains("Off by default")
        .contains("-D" + HandOffLoad.PROBE_PROPERTY);
  }
}
