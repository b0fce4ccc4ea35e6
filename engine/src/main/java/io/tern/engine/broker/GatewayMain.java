package io.tern.engine.broker;

import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/gateway}: a standalone gateway, configured like a broker (see {@link BrokerMain} for
 * where the configuration comes from). Stops cleanly on SIGTERM.
 */
public final class GatewayMain {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayMain.class);
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

  private GatewayMain() {}

  public static void main(String[] args) throws InterruptedException {
    Path file = BrokerMain.configFile(args);
    BrokerConfig config;
    StandaloneGateway gateway;
    try {
      config = BrokerConfigLoader.load(file, System.getenv());
      gateway = StandaloneGateway.start(config);
    } catch (BrokerConfigLoader.ConfigException | IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("Stopping the gateway");
                  gateway.close();
                },
                "tern-shutdown"));
    LOG.info(
        "Tern gateway serving on {}:{} for brokers {}",
        config.gateway().host(),
        gateway.port(),
        config.contactPoints());
    if (gateway.awaitLeaders(READY_TIMEOUT)) {
      LOG.info("Every one of {} partition(s) has a leader", config.partitionsCount());
    } else {
      LOG.warn("Not every partition has a known leader after {}", READY_TIMEOUT);
    }
  }
}
