package io.tern.engine.broker;

import io.tern.engine.exporter.ExporterLoadException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/broker}: starts a broker with the configuration files {@link LaunchArguments} finds
 * (the distribution's {@code config/tern.yaml}, then the file given as the only argument, or named
 * by {@code TERN_CONFIG}, or {@code config/tern.yaml} under the working directory), else with the
 * defaults (a single broker, one partition, data under {@code ./data}); every key can be overridden
 * by a {@code TERN_*} environment variable. Ctrl-C and SIGTERM stop it cleanly, exit code 0 ({@link
 * StopSignals}).
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
    Logging.configure("broker-" + config.nodeId(), config.logLevel());
    Logger log = LoggerFactory.getLogger(BrokerMain.class); // after the log setup: see Logging
    log.info(loaded.describeFiles());
    long startNanos = System.nanoTime();
    Broker broker;
    try {
      broker = Broker.start(config);
    } catch (ListenFailedException
        | DataDirectoryLock.InUseException
        | StoredTopology.MismatchException
        | ExporterLoadException e) {
      // The cause is the configuration or another process, not Tern: one line says it all.
      log.error("Tern broker {} did not start: {}", config.nodeId(), e.getMessage());
      System.exit(1);
      return;
    } catch (RuntimeException e) {
      log.error("Tern broker {} did not start", config.nodeId(), e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(StopSignals.shutdownHook(log, "broker", broker));
    StopSignals.exitZeroOnStop(log);
    if (broker.awaitReady(READY_TIMEOUT)) {
      log.info(
          "Tern broker {} ready in {} ms: gateway on {}:{}, {} partition(s), data under {}",
          config.nodeId(),
          Duration.ofNanos(System.nanoTime() - startNanos).toMillis(),
          config.gateway().host(),
          broker.gatewayPort(),
          config.partitionsCount(),
          config.dataDirectory());
    } else {
      log.warn("Not every partition has a processing leader after {}", READY_TIMEOUT);
    }
  }
}
