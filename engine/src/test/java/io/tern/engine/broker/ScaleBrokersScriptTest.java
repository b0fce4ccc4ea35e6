package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's {@code scripts/scale-brokers.sh} against real brokers, with a fake {@code kubectl} on
 * the PATH standing for Kubernetes: it records each call, keeps the StatefulSet's replica count in
 * a file, serves the management token's Secret, and its port-forward says it listens but leaves the
 * script's local port to broker 0's management port itself (or fails as kubectl does when the port
 * is taken). When the script scales the StatefulSet, the fake records the cluster's topology as
 * broker 0 answers it then: the pods come before the change on the way up and after it on the way
 * down.
 */
@Tag("slow") // brokers moving a partition, and the script run with bash and curl: docs/testing.md
class ScaleBrokersScriptTest {
  private static final Path SCRIPT = Path.of("..", "charts", "tern", "scripts", "scale-brokers.sh");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String FAKE_KUBECTL =
      """
      #!/usr/bin/env bash
      call="$*"
      echo "$call" >> "$FAKE_DIR/calls"
      case "$call" in
        *"get statefulset tern-broker -o jsonpath={.spec.replicas}") cat "$FAKE_DIR/replicas" ;;
        *"scale statefulset tern-broker --replicas="*)
          echo "${call##*--replicas=}" > "$FAKE_DIR/replicas"
          curl -s "http://127.0.0.1:$FAKE_MANAGEMENT_PORT/actuator/cluster" >> "$FAKE_DIR/at-scale"
          echo >> "$FAKE_DIR/at-scale" ;;
        *"rollout status statefulset/tern-broker"*) echo "rolling update complete" ;;
        *"get secret tern-management -o jsonpath={.data.token}") printf %s "$FAKE_TOKEN" ;;
        *"port-forward pod/tern-broker-0 --address 127.0.0.1 $FAKE_FREE_PORT:9600")
      echo "Forwarding from 127.0.0.1:$FAKE_FREE_PORT -> 9600"
      exec sleep 300 ;;
    *"port-forward "*)
      echo "error: unable to listen on any of the requested ports: [${call##* }]" >&2
      exit 1 ;;
        *) echo "fake kubectl: unexpected call: $*" >&2; exit 1 ;;
      esac
      """;

  @TempDir Path dir;

  private record Run(int exit, String output) {}

  @Test
  void scalesUpAndDownThroughTheApiInTheRightOrder() throws Exception {
    Assumptions.assumeTrue(
        new ProcessBuilder("curl", "--version").start().waitFor() == 0,
        "scale-brokers.sh needs curl, which this machine does not have");
    try (TestCluster cluster = new TestCluster(dir, 1, 2, 1, Map.of(), 1).start()) {
      cluster.awaitReady(Duration.ofSeconds(60));
      // What Kubernetes does when the script scales the StatefulSet up: broker 1 starts, outside
      // the cluster (started first here, so that the fake needs to start nothing).
      cluster.startBroker(1);
      int port = cluster.broker(0).managementPort();
      Awaitility.await("broker 0 heard of broker 1")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () ->
                  ManagementCalls.send(
                              port,
                              "POST",
                              "/actuator/cluster/brokers?dryRun=true",
                              "[0, 1]",
                              TestBrokers.BEARER,
                              Duration.ofSeconds(10))
                          .statusCode()
                      == 200);
      Path fake = dir.resolve("fake");
      Files.createDirectories(fake.resolve("bin"));
      Path kubectl = fake.resolve("bin").resolve("kubectl");
      Files.writeString(kubectl, FAKE_KUBECTL);
      Files.setPosixFilePermissions(kubectl, PosixFilePermissions.fromString("rwx------"));
      Files.writeString(fake.resolve("replicas"), "1");

      Run dryRun = script(fake, port, "--dry-run", "2");
      assertThat(dryRun.exit()).as(dryRun.output()).isZero();
      assertThat(dryRun.output())
          .contains("would scale the StatefulSet tern-broker to 2 pods")
          .contains("PARTITION_JOIN broker 1 partition 2")
          .contains("dry run: nothing changed");
      assertThat(calls(fake))
          .doesNotContain("scale statefulset")
          .contains("get secret tern-management");
      assertThat(members(port)).containsExactly(0);

      Run up = script(fake, port, "2");
      assertThat(up.exit()).as(up.output()).isZero();
      assertThat(up.output())
          .contains("2 steps, one at a time")
          .containsPattern("change \\d+ COMPLETED")
          .contains("asked for a rebalance")
          .contains("set broker.replicas=2");
      assertThat(members(port)).containsExactly(0, 1);
      assertThat(ClusterScalingTest.ids(cluster.broker(1).partitions())).containsExactly(2);
      JsonNode atScaleUp = JSON.readTree(Files.readAllLines(fake.resolve("at-scale")).get(0));
      assertThat(atScaleUp.get("brokers").size()).as("scaled up before the change").isEqualTo(1);

      // Something else on the local port (here broker 0 itself, not forwarded): kubectl cannot
      // listen there, and the script stops rather than talk to whatever answers.
      Run portInUse = scriptForwarding(fake, port, "none", "2");
      assertThat(portInUse.exit()).isEqualTo(1);
      assertThat(portInUse.output()).contains("the port-forward to tern-broker-0 ended");

      Run wrongToken = script(fake, port, "--token-file", write("not-the-token-0123456789"), "1");
      assertThat(wrongToken.exit()).isEqualTo(1);
      assertThat(wrongToken.output()).contains("refused the management token (401)");
      assertThat(members(port)).containsExactly(0, 1);

      Run down = script(fake, port, "1");
      assertThat(down.exit()).as(down.output()).isZero();
      assertThat(down.output())
          .containsPattern("change \\d+ COMPLETED")
          .contains("delete pvc data-tern-broker-1");
      assertThat(members(port)).containsExactly(0);
      JsonNode atScaleDown = JSON.readTree(Files.readAllLines(fake.resolve("at-scale")).get(1));
      assertThat(atScaleDown.get("brokers").size()).as("scaled down after the change").isEqualTo(1);
      assertThat(atScaleDown.get("pendingChange")).isNull();
      assertThat(Files.readString(fake.resolve("replicas")).strip()).isEqualTo("1");

      // A change requested before the script runs (an interrupted run's), held up by its new
      // broker being down: the script follows it to its end, then does what it was asked.
      cluster.stop(1);
      Files.writeString(fake.resolve("replicas"), "2");
      var requested =
          ManagementCalls.send(
              port,
              "POST",
              "/actuator/cluster/brokers",
              "[0, 1]",
              TestBrokers.BEARER,
              Duration.ofSeconds(10));
      assertThat(requested.statusCode()).as(requested.body()).isEqualTo(202);
      Path againLog = dir.resolve("again.log");
      Process running = start(fake, port, Integer.toString(port), againLog, "1");
      Awaitility.await("the script follows the change under way")
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(againLog).contains("following it to its end first"));
      cluster.startBroker(1);
      Run again = finish(running, againLog);
      assertThat(again.exit()).as(again.output()).isZero();
      assertThat(again.output()).containsPattern("change \\d+ accepted");
      assertThat(members(port)).containsExactly(0);

      String everything =
          dryRun.output() + up.output() + down.output() + again.output() + calls(fake);
      assertThat(everything).doesNotContain(TestBrokers.MANAGEMENT_TOKEN);
    }
  }

  private Run script(Path fake, int managementPort, String... args) throws Exception {
    return scriptForwarding(fake, managementPort, Integer.toString(managementPort), args);
  }

  /** {@code freePort}: the local port the fake kubectl can listen on (for a port-forward). */
  private Run scriptForwarding(Path fake, int managementPort, String freePort, String... args)
      throws Exception {
    Path log = Files.createTempFile(dir, "scale-brokers", ".log");
    return finish(start(fake, managementPort, freePort, log, args), log);
  }

  private static Process start(
      Path fake, int managementPort, String freePort, Path log, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
    command.addAll(
        List.of(
            "-n",
            "tern",
            "--local-port",
            Integer.toString(managementPort),
            "--poll",
            "0.2",
            "--timeout",
            "60"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.put("PATH", fake.resolve("bin").toAbsolutePath() + ":" + env.get("PATH"));
    env.put("FAKE_DIR", fake.toAbsolutePath().toString());
    env.put("FAKE_MANAGEMENT_PORT", Integer.toString(managementPort));
    env.put("FAKE_FREE_PORT", freePort);
    env.put(
        "FAKE_TOKEN",
        Base64.getEncoder()
            .encodeToString(TestBrokers.MANAGEMENT_TOKEN.getBytes(StandardCharsets.UTF_8)));
    return builder.redirectOutput(log.toFile()).start();
  }

  private static Run finish(Process process, Path log) throws Exception {
    if (!process.waitFor(90, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("scale-brokers.sh did not end: " + Files.readString(log));
    }
    return new Run(process.exitValue(), Files.readString(log));
  }

  private String write(String token) throws Exception {
    Path file = Files.createTempFile(dir, "token", "");
    Files.writeString(file, token + "\n");
    return file.toString();
  }

  private static String calls(Path fake) throws Exception {
    Path calls = fake.resolve("calls");
    return Files.exists(calls) ? Files.readString(calls) : "";
  }

  private static Set<Integer> members(int managementPort) throws Exception {
    var answer =
        ManagementCalls.send(
            managementPort, "GET", "/actuator/cluster", null, null, Duration.ofSeconds(10));
    return ClusterScalingTest.brokerIds(JSON.readTree(answer.body()));
  }
}
