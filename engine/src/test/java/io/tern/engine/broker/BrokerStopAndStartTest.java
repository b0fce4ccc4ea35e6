package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/broker} as a process, as a user meets it: the exit codes of a stop on Ctrl-C and
 * SIGTERM (0, not the JVM's 130 and 143), the distribution's configuration file read from another
 * working directory and named in the log, and a second broker on the same data refused in one line.
 */
@Tag("slow") // broker processes stopped and started again: docs/testing.md
class BrokerStopAndStartTest {
  private static final Duration READY = Duration.ofSeconds(60);

  @TempDir Path dir;

  private Map<String, String> settings(Path data) {
    int[] ports = BrokerProcess.freePorts(4);
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_DATA_DIRECTORY", data.toString());
    settings.put("TERN_NETWORK_HOST", "127.0.0.1");
    settings.put("TERN_NETWORK_INTERNALPORT", Integer.toString(ports[0]));
    settings.put("TERN_NETWORK_COMMANDPORT", Integer.toString(ports[1]));
    settings.put("TERN_GATEWAY_PORT", Integer.toString(ports[2]));
    settings.put("TERN_GATEWAY_REST_PORT", "0");
    settings.put("TERN_MANAGEMENT_PORT", Integer.toString(ports[3]));
    settings.put("TERN_DATA_DISK_MINFREEBYTES", "0");
    settings.put("TERN_JOURNAL_SEGMENTSIZE", "8MB");
    return settings;
  }

  /**
   * The README's way: the distribution's file edited, the broker started from elsewhere (the
   * repository's root); then a second broker on the same data; then SIGTERM.
   */
  @Test
  void readsTheDistributionsFileRefusesASecondBrokerOnItsDataAndExitsZeroOnSigterm()
      throws Exception {
    Path home = dir.resolve("tern");
    Path shipped =
        write(home.resolve("config").resolve("tern.yaml"), "cluster:\n  partitionsCount: 2\n");
    Path data = dir.resolve("data");
    Map<String, String> settings = settings(data);
    Path log = dir.resolve("broker.log");
    Process broker = BrokerProcess.start(settings, log, "-Xmx256m", "-Dtern.home=" + home);
    try {
      awaitReady(broker, settings, log);
      assertThat(read(log))
          .contains("Configuration read from " + shipped + "; TERN_* environment variables win")
          .contains("2 partition(s)");

      Path secondLog = dir.resolve("second.log");
      Process second = BrokerProcess.start(settings(data), secondLog, "-Xmx256m");
      assertThat(exitCode(second, secondLog)).isEqualTo(1);
      assertThat(read(secondLog))
          .contains(
              "did not start: data.directory "
                  + data
                  + " is in use by another broker (process "
                  + broker.pid()
                  + ") (it holds the lock "
                  + data.resolve("broker.lock")
                  + ")")
          .as("one line, no stack trace")
          .doesNotContain("\tat ")
          .doesNotContain("Exception");
    } finally {
      broker.destroy(); // SIGTERM
    }
    assertThat(exitCode(broker, log)).as("exit code after SIGTERM; log:\n%s", read(log)).isZero();
    assertThat(read(log)).contains("Stopping the broker").contains("Broker stopped");
  }

  @Test
  void withoutAFileTheLogSaysSoAndCtrlCStopsWithExitCodeZero() throws Exception {
    Map<String, String> settings = settings(dir.resolve("data"));
    Path log = dir.resolve("broker.log");
    Process broker = BrokerProcess.start(settings, log, "-Xmx256m");
    try {
      assumeThat(sigintIgnored(broker.pid()))
          .as("SIGINT is ignored in this process tree (started in the background by a shell)")
          .isFalse();
      awaitReady(broker, settings, log);
      assertThat(read(log))
          .contains("Configuration: no file read (the defaults and TERN_* environment variables)");
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(broker.pid())).start();
      assertThat(kill.waitFor()).isZero();
      assertThat(exitCode(broker, log)).as("exit code after SIGINT; log:\n%s", read(log)).isZero();
      assertThat(read(log)).contains("Broker stopped");
    } finally {
      broker.destroyForcibly();
    }
  }

  @Test
  void aBadValueInTheDistributionsFileExitsTwoNamingTheFile() throws Exception {
    Path home = dir.resolve("tern");
    Path shipped =
        write(home.resolve("config").resolve("tern.yaml"), "cluster.partitionsCount: 0\n");
    Path log = dir.resolve("broker.log");
    Process broker = BrokerProcess.start(settings(dir.resolve("data")), log, "-Dtern.home=" + home);
    assertThat(exitCode(broker, log)).isEqualTo(2);
    assertThat(read(log)).contains("'cluster.partitionsCount' = '0' (from " + shipped + ")");
  }

  @Test
  void aSecondBrokerInTheSameProcessIsRefusedAndTheDataIsFreeAfterTheClose() {
    BrokerConfig config = TestBrokers.config(dir, Map.of("TERN_JOURNAL_SEGMENTSIZE", "8MB"));
    try (Broker broker = Broker.start(config)) {
      assertThatThrownBy(() -> Broker.start(config))
          .isInstanceOf(DataDirectoryLock.InUseException.class)
          .hasMessageContaining("is in use by another broker in this process");
    }
    Broker.start(config).close();
  }

  private static void awaitReady(Process broker, Map<String, String> settings, Path log)
      throws InterruptedException {
    BrokerProcess.awaitReady(
        broker, Integer.parseInt(settings.get("TERN_MANAGEMENT_PORT")), log, READY);
  }

  /** Waits for the process to end (killing it after 60 s) and answers its exit code. */
  private static int exitCode(Process process, Path log) throws Exception {
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError("the broker did not stop in 60 s; its log:\n" + read(log));
    }
    return process.exitValue();
  }

  /** Whether the process ignores SIGINT: bit 2 of its SigIgn mask (Linux). */
  private static boolean sigintIgnored(long pid) throws IOException {
    Path status = Path.of("/proc", Long.toString(pid), "status");
    if (!Files.exists(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseLong(line.substring("SigIgn:".length()).strip(), 16) & 0x2) != 0;
      }
    }
    return false;
  }

  private static Path write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.writeString(file, text);
  }

  private static String read(Path log) throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }
}
