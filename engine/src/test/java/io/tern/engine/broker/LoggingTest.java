package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Handler;
import java.util.logging.LogManager;
import org.junit.jupiter.api.Test;
import org.slf4j.bridge.SLF4JBridgeHandler;

/** The log setup of bin/broker and bin/gateway. */
class LoggingTest {
  @Test
  void nodeAndLevelReachTheLogFormatAndGrpcsLoggingGoesThroughSlf4j() {
    String node = System.getProperty(Logging.NODE_PROPERTY);
    String level = System.getProperty(Logging.LEVEL_PROPERTY);
    try {
      Logging.configure("broker-7", "debug");

      assertThat(System.getProperty(Logging.NODE_PROPERTY)).isEqualTo("broker-7");
      assertThat(System.getProperty(Logging.LEVEL_PROPERTY)).isEqualTo("debug");
      Handler[] handlers = LogManager.getLogManager().getLogger("").getHandlers();
      assertThat(handlers)
          .as("java.util.logging (gRPC's) has one handler, the bridge to slf4j")
          .singleElement()
          .isInstanceOf(SLF4JBridgeHandler.class);
    } finally {
      SLF4JBridgeHandler.uninstall();
      restore(Logging.NODE_PROPERTY, node);
      restore(Logging.LEVEL_PROPERTY, level);
    }
  }

  private static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }
}
