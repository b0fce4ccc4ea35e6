package io.tern.exporters.it;

import io.camunda.client.CamundaClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.broker.Broker;
import io.tern.engine.broker.BrokerConfig;
import io.tern.engine.broker.BrokerConfigLoader;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A Tern broker in the test's JVM, as the engine's tests start one (the engine has no test jar):
 * loopback, ports chosen by the system, fast elections, no disk watermark, no snapshots (so the
 * whole log stays for an exporter added later), plus the test's TERN_* settings.
 */
final class Brokers {
  private Brokers() {}

  static Broker start(Path dir, Map<String, String> extra) throws InterruptedException {
    return start(dir, extra, new SimpleMeterRegistry());
  }

  /** As {@link #start(Path, Map)}, with its meters on {@code registry}. */
  static Broker start(Path dir, Map<String, String> extra, MeterRegistry registry)
      throws InterruptedException {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_DATA_DIRECTORY", dir.resolve("data").toString());
    settings.put("TERN_NETWORK_HOST", "127.0.0.1");
    settings.put("TERN_NETWORK_COMMANDPORT", "0");
    settings.put("TERN_NETWORK_INTERNALPORT", "0");
    settings.put("TERN_GATEWAY_PORT", "0");
    // Not 8080: the examples' tour, in a module built beside this one, takes it as a user's does.
    settings.put("TERN_GATEWAY_REST_PORT", "0");
    settings.put("TERN_MANAGEMENT_PORT", "0");
    settings.put("TERN_DATA_DISK_MINFREEBYTES", "0");
    settings.put("TERN_DATA_SNAPSHOTEVERYRECORDS", "0");
    settings.put("TERN_RAFT_ELECTIONTIMEOUTMS", "300");
    settings.put("TERN_RAFT_HEARTBEATINTERVALMS", "50");
    settings.put("TERN_MANAGEMENT_SECURITY_TOKEN", "exporters-it-management-token-0123456789");
    settings.putAll(extra);
    BrokerConfig config = BrokerConfigLoader.load(null, settings);
    Broker broker = Broker.start(config, registry);
    if (!broker.awaitReady(Duration.ofMinutes(1))) {
      broker.close();
      throw new IllegalStateException("the broker did not become ready in a minute");
    }
    return broker;
  }

  /** The official client, over gRPC, to the broker's gateway. */
  static CamundaClient client(Broker broker) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://127.0.0.1:" + broker.gatewayPort()))
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(Duration.ofSeconds(10))
        .build();
  }
}
