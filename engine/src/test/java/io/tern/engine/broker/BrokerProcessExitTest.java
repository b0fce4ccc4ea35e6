package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that started brokers with {@link BrokerProcess} stops them when it exits, so an interrupted
 * benchmark or chaos run leaves no broker behind holding ports and data.
 */
@Tag("slow") // a JVM process that starts a broker process and exits: docs/testing.md
class BrokerProcessExitTest {
  @TempDir Path dir;

  @Test
  void theBrokersOfAnExitingJvmStopWithIt() throws Exception {
    Process parent =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                StartOneBrokerAndExit.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    long brokerPid;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
      brokerPid = Long.parseLong(out.readLine().trim());
    }
    assertThat(parent.waitFor(60, TimeUnit.SECONDS)).as("the starting JVM exits").isTrue();
    Optional<ProcessHandle> broker = ProcessHandle.of(brokerPid);
    try {
      // Gone at once or within the grace the exiting JVM gives it.
      broker.ifPresent(handle -> handle.onExit().orTimeout(30, TimeUnit.SECONDS).join());
      assertThat(broker.map(ProcessHandle::isAlive).orElse(false))
          .as("broker %d stopped with the JVM that started it", brokerPid)
          .isFalse();
    } finally {
      broker.ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /** Starts a broker, prints its pid and returns from main without stopping it. */
  public static final class StartOneBrokerAndExit {
    public static void main(String[] args) throws Exception {
      Path dir = Path.of(args[0]);
      int[] ports = BrokerProcess.freePorts(4);
      Map<String, String> settings = new HashMap<>();
      settings.put("TERN_DATA_DIRECTORY", dir.resolve("data").toString());
      settings.put("TERN_NETWORK_HOST", "127.0.0.1");
      settings.put("TERN_NETWORK_INTERNALPORT", Integer.toString(ports[0]));
      settings.put("TERN_NETWORK_COMMANDPORT", Integer.toString(ports[1]));
      settings.put("TERN_GATEWAY_PORT", Integer.toString(ports[2]));
      settings.put("TERN_GATEWAY_REST_PORT", "0");
      settings.put("TERN_MANAGEMENT_PORT", Integer.toString(ports[3]));
      settings.put("TERN_DATA_DISK_MINFREEBYTES", "0");
      Process broker = BrokerProcess.start(settings, dir.resolve("broker.log"), "-Xmx128m");
      System.out.println(broker.pid());
      System.out.flush();
    }
  }
}
