package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadOptionsTest {
  @TempDir Path dir;

  @Test
  void tlsAloneSecuresLocalBrokersAndWithAGatewayTakesItsCa() throws Exception {
    LoadOptions local = LoadOptions.parse(new String[] {"--tls", "--brokers", "3"});
    assertThat(local.tls()).isTrue();
    assertThat(local.tlsCaFile).as("made when the brokers start").isNull();
    assertThat(LoadOptions.parse(new String[] {"--brokers", "3"}).tls()).isFalse();

    Path ca = Files.writeString(dir.resolve("ca.crt"), "a PEM certificate");
    LoadOptions external =
        LoadOptions.parse(new String[] {"--gateway", "gw:26500", "--tls", ca.toString()});
    assertThat(external.tls()).isTrue();
    assertThat(external.tlsCaFile).isEqualTo(ca);
  }

  @Test
  void tlsAndOAuthThatCannotWorkAreRefusedSayingWhy() throws Exception {
    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--tls", "--gateway", "gw:26500"}))
        .hasMessageContaining("--tls with --gateway needs the CA file");
    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--tls", "ca.crt"}))
        .hasMessageContaining("--tls CA_FILE goes with --gateway");
    String missing = dir.resolve("missing.crt").toString();
    assertThatThrownBy(
            () -> LoadOptions.parse(new String[] {"--gateway", "gw:26500", "--tls", missing}))
        .hasMessageContaining("cannot read the CA file " + missing);
    // A local gateway left without token checks would make a secured run that is not.
    Path secret = Files.writeString(dir.resolve("secret"), "s");
    String[] oauth = {
      "--oauth", "http://issuer/token", "--oauth-client-secret-file", secret.toString()
    };
    assertThatThrownBy(() -> LoadOptions.parse(oauth))
        .hasMessageContaining("--set gateway.security.authentication.mode=oauth");
  }

  @Test
  void restCreatesOverTheRestApiOfTheLocalBrokersOrTheGatewaysHost() {
    LoadOptions grpc = LoadOptions.parse(new String[0]);
    assertThat(grpc.rest()).isFalse();
    assertThat(grpc.workload().rest()).as("gRPC unless asked").isFalse();

    LoadOptions local = LoadOptions.parse(new String[] {"--rest", "--brokers", "1"});
    assertThat(local.rest()).isTrue();
    assertThat(local.workload().rest()).as("the driver's creates go over REST").isTrue();
    assertThat(local.workload().withResult()).isTrue();
    assertThat(local.inFlight).isEqualTo(16);
    assertThat(local.restAddress).as("known once the local brokers started").isNull();

    LoadOptions external = LoadOptions.parse(new String[] {"--gateway", "gw:26500", "--rest"});
    assertThat(external.restAddress).as("the gateway's host, Camunda's port").isEqualTo("gw:8080");
    LoadOptions given =
        LoadOptions.parse(new String[] {"--gateway", "gw:26500", "--rest", "api:18080"});
    assertThat(given.restAddress).isEqualTo("api:18080");
    assertThat(given.workload().rest()).isTrue();

    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--rest", "api:18080"}))
        .hasMessageContaining("--rest HOST:PORT goes with --gateway");
    assertThatThrownBy(
            () -> LoadOptions.parse(new String[] {"--gateway", "gw:26500", "--rest", "api"}))
        .hasMessageContaining("--rest takes HOST:PORT, not api");
  }

  @Test
  void aRestProblemsStatusCountsAsTheGrpcCodeCamundaMapsItFrom() {
    assertThat(LoadDriver.ofHttpStatus(429)).isEqualTo(io.grpc.Status.Code.RESOURCE_EXHAUSTED);
    assertThat(LoadDriver.ofHttpStatus(504)).isEqualTo(io.grpc.Status.Code.DEADLINE_EXCEEDED);
    assertThat(LoadDriver.ofHttpStatus(500)).isEqualTo(io.grpc.Status.Code.UNKNOWN);
  }

  @Test
  void aLocalClusterDefaultsToAPartitionPerBrokerAndAtMostThreeReplicas() {
    LoadOptions three = LoadOptions.parse(new String[] {"--brokers", "3"});
    assertThat(three.brokers).isEqualTo(3);
    assertThat(three.partitions).isEqualTo(3);
    assertThat(three.replication).isEqualTo(3);
    LoadOptions five = LoadOptions.parse(new String[] {"--brokers", "5", "--partitions", "10"});
    assertThat(five.partitions).isEqualTo(10);
    assertThat(five.replication).isEqualTo(3);
    LoadOptions single = LoadOptions.parse(new String[0]);
    assertThat(single.brokers).isEqualTo(1);
    assertThat(single.partitions).isEqualTo(1);
    assertThat(single.replication).isEqualTo(1);
    assertThat(single.withResult).isTrue();
    assertThat(single.openLoop()).isFalse();
  }

  @Test
  void impossibleClustersAreRefusedSayingWhy() {
    assertThatThrownBy(
            () -> LoadOptions.parse(new String[] {"--brokers", "2", "--replication", "3"}))
        .hasMessageContaining("--replication from 1 to --brokers");
    assertThatThrownBy(
            () -> LoadOptions.parse(new String[] {"--brokers", "3", "--gateway", "host:26500"}))
        .hasMessageContaining("not with --gateway");
    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--brokers", "0"}))
        .hasMessageContaining("--brokers must be at least 1");
    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--rate", "0"}))
        .hasMessageContaining("--rate must be positive");
    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--with-result", "maybe"}))
        .hasMessageContaining("on or off");
    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--nonsense"}))
        .hasMessageContaining("--nonsense")
        .hasMessageContaining("Usage");
  }

  @Test
  void settingsBecomeTheLocalBrokersEnvironment() {
    LoadOptions options =
        LoadOptions.parse(
            new String[] {
              "--set", "backpressure.enabled=false", "--set", "processing.maxCommandsInBatch=1"
            });
    assertThat(options.environment())
        .isEqualTo(
            Map.of(
                "TERN_BACKPRESSURE_ENABLED", "false", "TERN_PROCESSING_MAXCOMMANDSINBATCH", "1"));
  }
}
