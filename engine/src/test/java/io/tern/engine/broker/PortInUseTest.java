package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A port already taken stops the broker or gateway at once: the error names the key and the port,
 * whatever had started is stopped again (its other ports and its data are free), and the process
 * exits non-zero.
 */
@Tag("slow") // broker processes that must stop on a taken port: docs/testing.md
class PortInUseTest {
  private static final String HOST = "127.0.0.1";

  @TempDir Path dir;

  /** Each server's port key, with fixed free ports for all of them. */
  private Map<String, String> settings(int[] ports) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_DATA_DIRECTORY", dir.resolve("data").toString());
    settings.put("TERN_NETWORK_HOST", HOST);
    settings.put("TERN_NETWORK_INTERNALPORT", Integer.toString(ports[0]));
    settings.put("TERN_NETWORK_COMMANDPORT", Integer.toString(ports[1]));
    settings.put("TERN_GATEWAY_PORT", Integer.toString(ports[2]));
    settings.put("TERN_MANAGEMENT_PORT", Integer.toString(ports[3]));
    settings.put("TERN_GATEWAY_REST_PORT", Integer.toString(ports[4]));
    settings.put("TERN_DATA_DISK_MINFREEBYTES", "0");
    return settings;
  }

  private static int indexOf(String key) {
    return switch (key) {
      case "network.internalPort" -> 0;
      case "network.commandPort" -> 1;
      case "gateway.port" -> 2;
      case "management.port" -> 3;
      case "gateway.rest.port" -> 4;
      default -> throw new IllegalArgumentException(key);
    };
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "network.internalPort",
        "network.commandPort",
        "gateway.port",
        "management.port",
        "gateway.rest.port"
      })
  void aTakenPortIsNamedAndEverythingStartedIsStoppedAgain(String key) throws Exception {
    int[] ports = BrokerProcess.freePorts(5);
    int taken = ports[indexOf(key)];
    Map<String, String> settings = settings(ports);
    try (ServerSocket squatter = new ServerSocket(taken, 1, InetAddress.getByName(HOST))) {
      assertThatThrownBy(() -> Broker.start(BrokerConfigLoader.load(null, settings)))
          .isInstanceOf(ListenFailedException.class)
          .hasMessageContaining(HOST + ":" + taken)
          .hasMessageContaining("(" + key + ")")
          .hasMessageContaining("Address already in use")
          .satisfies(e -> assertThat(((ListenFailedException) e).key()).isEqualTo(key));
    }
    for (int port : ports) {
      try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
        assertThat(free.getLocalPort()).as("port %d is free again", port).isEqualTo(port);
      }
    }
    // The partition opened before the failure is closed: its data opens again.
    try (Broker again = Broker.start(BrokerConfigLoader.load(null, settings))) {
      assertThat(again.awaitReady(Duration.ofSeconds(30))).isTrue();
    }
  }

  @Test
  void aStandaloneGatewayNamesItsTakenPortToo() throws Exception {
    int[] ports = BrokerProcess.freePorts(5);
    Map<String, String> settings = settings(ports);
    settings.put("TERN_CLUSTER_CONTACTPOINTS", HOST + ":" + ports[1]);
    try (ServerSocket squatter = new ServerSocket(ports[2], 1, InetAddress.getByName(HOST))) {
      assertThatThrownBy(() -> StandaloneGateway.start(BrokerConfigLoader.load(null, settings)))
          .isInstanceOf(ListenFailedException.class)
          .hasMessageContaining("(gateway.port)")
          .hasMessageContaining(HOST + ":" + ports[2]);
    }
    try (ServerSocket squatter = new ServerSocket(ports[4], 1, InetAddress.getByName(HOST))) {
      assertThatThrownBy(() -> StandaloneGateway.start(BrokerConfigLoader.load(null, settings)))
          .isInstanceOf(ListenFailedException.class)
          .hasMessageContaining("(gateway.rest.port)")
          .hasMessageContaining(HOST + ":" + ports[4]);
    }
    // Both refusals closed what they had started: the gateway starts on the same ports now.
    try (StandaloneGateway gateway =
        StandaloneGateway.start(BrokerConfigLoader.load(null, settings))) {
      assertThat(gateway.restPort()).isEqualTo(ports[4]);
    }
  }

  @Test
  void theBrokerProcessExitsNonZeroNamingThePort() throws Exception {
    int[] ports = BrokerProcess.freePorts(5);
    Path log = dir.resolve("broker.log");
    try (ServerSocket squatter = new ServerSocket(ports[3], 1, InetAddress.getByName(HOST))) {
      Process broker = BrokerProcess.start(settings(ports), log);
      boolean exited = broker.waitFor(60, TimeUnit.SECONDS);
      if (!exited) {
        broker.destroyForcibly();
      }
      assertThat(exited).as("the broker exits; its log: %s", Files.readString(log)).isTrue();
      assertThat(broker.exitValue()).isEqualTo(1);
    }
    assertThat(Files.readString(log))
        .contains("did not start: cannot listen on " + HOST + ":" + ports[3] + " (management.port)")
        .as("every line carries the time and the node")
        .containsPattern(
            "(?m)^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\S* ERROR \\[broker-0\\] ");
  }
}
