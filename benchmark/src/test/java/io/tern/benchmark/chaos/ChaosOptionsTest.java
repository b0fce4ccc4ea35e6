package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chaos command line: the link faults turn the brokers' fault injection on, and the disk-full
 * fault refuses to run without a small file system of its own, so it never fills a real disk.
 */
class ChaosOptionsTest {
  @TempDir Path dir;

  @Test
  void linkFaultsTurnFaultInjectionOnAndSlowLinksTakeTheirDelay() {
    ChaosOptions options =
        ChaosOptions.parse(
            new String[] {"--dir", dir.toString(), "--faults", "slow", "--slow-link-delay", "1s"});
    assertThat(options.faultList).containsExactly(Fault.SLOW);
    assertThat(options.slowLinkDelay.toMillis()).isEqualTo(1000);
    assertThat(options.environment())
        .containsEntry("TERN_EXPERIMENTAL_FAULTINJECTION_ENABLED", "true");
    assertThat(
            ChaosOptions.parse(new String[] {"--dir", dir.toString(), "--faults", "kill-random"})
                .environment())
        .doesNotContainKey("TERN_EXPERIMENTAL_FAULTINJECTION_ENABLED");
  }

  @Test
  void theMessageModeIsChosenByNameAndTakesItsKeys() {
    ChaosOptions options =
        ChaosOptions.parse(
            new String[] {"--dir", dir.toString(), "--workload", "messages", "--keys", "5"});
    assertThat(options.messages()).isTrue();
    assertThat(options.keys).isEqualTo(5);
    assertThat(ChaosOptions.parse(new String[] {"--dir", dir.toString()}).messages()).isFalse();
    assertThatThrownBy(
            () -> ChaosOptions.parse(new String[] {"--dir", dir.toString(), "--workload", "msg"}))
        .hasMessageStartingWith("--workload must be chaos or messages, got msg");
    assertThatThrownBy(
            () -> ChaosOptions.parse(new String[] {"--dir", dir.toString(), "--keys", "0"}))
        .hasMessageStartingWith("--keys must be positive");
  }

  @Test
  void diskFullNeedsASmallFileSystemOfItsOwn() throws Exception {
    String[] without = {"--dir", dir.toString(), "--faults", "disk-full"};
    assertThatThrownBy(() -> ChaosOptions.parse(without)).hasMessageContaining("--disk-full-dir");

    Path file = Files.createFile(dir.resolve("not-a-directory"));
    String[] notADirectory = {
      "--dir", dir.toString(), "--faults", "disk-full", "--disk-full-dir", file.toString()
    };
    assertThatThrownBy(() -> ChaosOptions.parse(notADirectory))
        .hasMessageContaining("is not a directory");

    // The test's directory is on the machine's own disk, or on the cluster's file system.
    Path sameDisk = Files.createDirectory(dir.resolve("small"));
    String reason = DiskFiller.unusable(sameDisk, dir.resolve("run"));
    assertThat(reason).isNotNull().containsAnyOf("mount point", "GiB", "same file system");
  }

  @Test
  void theScaleFaultStartsTwoSparesOutsideTheClusterAndIsNotTakenWithARestore() {
    ChaosOptions options =
        ChaosOptions.parse(new String[] {"--dir", dir.toString(), "--faults", "scale"});
    assertThat(options.spares()).isEqualTo(2);
    assertThat(options.environment()).containsEntry("TERN_CLUSTER_CLUSTERSIZE", "3");
    ChaosOptions without =
        ChaosOptions.parse(new String[] {"--dir", dir.toString(), "--faults", "kill-random"});
    assertThat(without.spares()).isZero();
    assertThat(without.environment()).doesNotContainKey("TERN_CLUSTER_CLUSTERSIZE");
    String[] withRestore = {
      "--dir", dir.toString(),
      "--faults", "scale,restore",
      "--config", "data.backup.store=filesystem"
    };
    assertThatThrownBy(() -> ChaosOptions.parse(withRestore))
        .hasMessageContaining("the scale and restore faults cannot run together");
  }
}
