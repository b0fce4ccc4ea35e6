package io.tern.engine.broker;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/gateway}: a standalone gateway, configured like a broker (see {@link BrokerMain} for
 * where the configuration comes from). Ctrl-C and SIGTERM stop it cleanly, exit code 0.
 */
public final class GatewayMain {
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(5);

  private GatewayMain() {}

  public static void main(String[] args) throws InterruptedException {
    LaunchArguments.Loaded loaded =
        LaunchArguments.loadOrExit(
            args, "gateway", "a standalone gateway in front of Tern's brokers");
    if (loaded == null) {
      return;
    }
    BrokerConfig config = loaded.config();
    Logging.configure("gateway", config.logLevel());
    Logger log = LoggerFactory.getLogger(GatewayMain.class); // after the log setup: see Logging
    log.info(loaded.describeFiles());
    StandaloneGateway gateway;
    try {
      gateway = StandaloneGateway.start(config);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    } catch (ListenFailedException e) {
      log.error("Tern gateway did not start: {}", e.getMessage());
      System.exit(1);
      return;
    } catch (RuntimeException e) {
      log.error("Tern gateway did not start", e);
      System.exit(1);
      return;
    }
    Runtime.getRuntime().addShutdownHook(StopSignals.shutdownHook(log, "gateway", gateway));
    StopSignals.exitZeroOnStop(log);
    log.info(
        "Tern gateway serving on {}:{} for brokers {}",
        config.gateway().host(),
        gateway.port(),
        config.contactPoints());
    if (gateway.awaitLeaders(READY_TIMEOUT)) {
      log.info("Every one of {} partition(s) has a leader", config.partitionsCount());
    } else {
      log.warn("Not every partition has a known leader after {}", READY_TIMEOUT);
    }
  }
}
