package io.tern.engine.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BrokerProcessPortsTest {
  @Test
  void freePortsAreDistinctAndFreeOnceChosen() throws IOException {
    int[] ports = BrokerProcess.freePorts(64);

    assertEquals(64, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
    // Outgoing connections take ports from the ephemeral range (32768 and up by default).
    assertEquals(
        0, Arrays.stream(ports).filter(port -> port >= 32_768).count(), Arrays.toString(ports));
    for (int port : ports) {
      try (ServerSocket socket = new ServerSocket(port)) {
        assertEquals(port, socket.getLocalPort());
      }
    }
  }
}
