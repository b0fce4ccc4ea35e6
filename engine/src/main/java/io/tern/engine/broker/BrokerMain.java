package io.tern.engine.broker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/broker}: starts a broker with the configuration file given as the only argument, or
 * named by {@code TERN_CONFIG}, or {@code config/tern.yaml} under the working directory if it
 * exists, else with the defaults (a single broker, one partition, data under {@code ./data}); every
 * key can be overridden by a {@code TERN_*} environment variable. Stops cleanly on SIGTERM.
 */
public final class BrokerMain {
  private static final Logger LOG = LoggerFactory.getLogger(BrokerMain.class);
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

  private BrokerMain() {}

  public static void main(String[] args) throws InterruptedException {
    Path file = configFile(args);
    BrokerConfig config;
    try {
      config = BrokerConfigLoader.load(file, System.getenv());
    } catch (BrokerConfigLoader.ConfigException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    long startNanos = System.nanoTime();
    Broker broker = Broker.start(config);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LOG.info("Stopping the broker");
                  broker.close();
                  LOG.info("Broker stopped");
                },
                "tern-shutdown"));
    if (broker.awaitReady(READY_TIMEOUT)) {
      LOG.info(
          "Tern broker {} ready in {} ms: gateway on {}:{}, {} partition(s), data under {}{}",
          config.nodeId(),
          Duration.ofNanos(System.nanoTime() - startNanos).toMillis(),
          config.gateway().host(),
          broker.gatewayPort(),
          config.partitionsCount(),
          config.dataDirectory(),
          file == null ? "" : ", configured by " + file);
    } else {
      LOG.warn("Not every partition has a processing leader after {}", READY_TIMEOUT);
    }
  }

  static Path configFile(String[] args) {
    if (args.length > 0) {
      return Path.of(args[0]);
    }
    String named = System.getenv("TERN_CONFIG");
    if (named != null && !named.isBlank()) {
      return Path.of(named);
    }
    Path fallback = Path.of("config", "tern.yaml");
    return Files.isRegularFile(fallback) ? fallback : null;
  }
}
