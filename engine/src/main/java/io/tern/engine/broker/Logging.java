package io.tern.engine.broker;

import java.util.logging.Level;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The log setup of {@code bin/broker} and {@code bin/gateway}, done before their first logger is
 * made: {@code log4j2.xml} puts the node's name and level into every line from these system
 * properties, and gRPC's {@code java.util.logging} records go through slf4j to the same lines
 * instead of a second format on stderr.
 */
final class Logging {
  /** The system properties log4j2.xml reads. */
  static final String NODE_PROPERTY = "tern.node";

  static final String LEVEL_PROPERTY = "tern.log.level";

  private Logging() {}

  /**
   * @param node how lines name this process, e.g. "broker-0" or "gateway"
   * @param level error, warn, info, debug or trace
   */
  static void configure(String node, String level) {
    System.setProperty(NODE_PROPERTY, node);
    System.setProperty(LEVEL_PROPERTY, level);
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    // java.util.logging filters before the bridge sees a record: let through what slf4j wants.
    java.util.logging.Logger.getLogger("")
        .setLevel(level.equals("debug") || level.equals("trace") ? Level.ALL : Level.INFO);
  }
}
