package io.tern.engine.broker;

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
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

  private BrokerMain() {}

  public static void main(String[] args) throws InterruptedException {
    LaunchArguments.Loaded loaded =
        LaunchArguments.loadOrExit(args, "broker", "a Tern broker with its embedded gateway");
    if (loaded == null) {
      return;
    }
    BrokerConfig config = loaded.config();
    Path file = loaded.file();
    Logging.configure("broker-" + config.nodeId(), config.logLevel());
    Logger log = LoggerFactory.getLogger(BrokerMain.class); // after the log setup: see Logging
    long startNanos = System.nanoTime();
    Broker broker;
    try {
      broker = Broker.start(config);
    } catch (ListenFailedException e) {
      log.error("Tern broker {} did not start: {}", config.nodeId(), e.getMessage());
      System.exit(1);
      return;
    } catch (RuntimeException e) {
      log.error("Tern broker {} did not start", config.nodeId(), e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  log.info("Stopping the broker");
                  broker.close();
                  log.info("Broker stopped");
                },
                "tern-shutdown"));
    if (broker.awaitReady(READY_TIMEOUT)) {
      log.info(
          "Tern broker {} ready in {} ms: gateway on {}:{}, {} partition(s), data under {}{}",
          config.nodeId(),
          Duration.ofNanos(System.nanoTime() - startNanos).toMillis(),
          config.gateway().host(),
          broker.gatewayPort(),
          config.partitionsCount(),
          config.dataDirectory(),
          file == null ? "" : ", configured by " + file);
    } else {
      log.warn("Not every partition has a processing leader after {}", READY_TIMEOUT);
    }
  }
}
