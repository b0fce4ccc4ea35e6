package io.tern.deploy;

import static io.tern.deploy.Manifests.at;
import static io.tern.deploy.TernChartTest.config;
import static io.tern.deploy.TernChartTest.volumes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The chart's tls values: Secrets mounted whole, the config pointing at them, probes on https. */
class TlsChartTest {
  @Test
  void clusterAndGatewayTlsComeFromMountedSecrets() {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("gateway.enabled", true)
            .set("tls.cluster.enabled", true)
            .set("tls.cluster.secretName", "tern-cluster-tls")
            .set("tls.gateway.enabled", true)
            .set("tls.gateway.secretName", "tern-gateway-tls")
            .set("tls.gateway.clientAuth", "required")
            .set("tls.gateway.clientCaSecretName", "tern-client-ca")
            .manifests("tern-tls");
    Map<String, Object> config = config(manifests);
    assertThat((Map<String, Object>) at(config, "network.security"))
        .containsEntry("enabled", true)
        .containsEntry("certificateChainPath", "/usr/local/tern/tls/cluster/tls.crt")
        .containsEntry("privateKeyPath", "/usr/local/tern/tls/cluster/tls.key")
        .containsEntry("trustedCertificatesPath", "/usr/local/tern/tls/cluster/ca.crt");
    assertThat((Map<String, Object>) at(config, "gateway.security"))
        .containsEntry("enabled", true)
        .containsEntry("certificateChainPath", "/usr/local/tern/tls/gateway/tls.crt")
        .containsEntry("clientAuth", "required")
        .containsEntry("trustedCertificatesPath", "/usr/local/tern/tls/gateway-clients/ca.crt");

    for (Map<String, Object> workload :
        List.of(manifests.one("StatefulSet"), manifests.one("Deployment"))) {
      Map<String, Map<String, Object>> volumes = volumes(workload);
      assertThat(at(volumes.get("tls-cluster"), "secret.secretName").toString())
          .isEqualTo("tern-cluster-tls");
      assertThat(at(volumes.get("tls-gateway"), "secret.secretName").toString())
          .isEqualTo("tern-gateway-tls");
      assertThat(at(volumes.get("tls-gateway-clients"), "secret.secretName").toString())
          .isEqualTo("tern-client-ca");
      List<Map<String, Object>> mounts =
          at(workload, "spec.template.spec.containers.0.volumeMounts");
      assertThat(mounts)
          .contains(
              Map.of(
                  "name", "tls-cluster",
                  "mountPath", "/usr/local/tern/tls/cluster",
                  "readOnly", true))
          .as("a subPath mount would never see a renewed Secret")
          .allSatisfy(mount -> assertThat(mount).doesNotContainKey("subPath"));
    }
    assertThat(
            at(manifests.one("Deployment"), "spec.template.spec.securityContext.fsGroup")
                .toString())
        .as("the gateway's group reads the Secret files (mode 0440)")
        .isEqualTo("1001");
  }

  @Test
  void managementTlsSwitchesProbesAndTheServiceMonitorToHttps() {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("prometheusServiceMonitor.enabled", true)
            .set("leaderBalancing.enabled", false)
            .set("tls.management.enabled", true)
            .set("tls.management.secretName", "tern-management-tls")
            .manifests("tern-tls-management");
    assertThat((Map<String, Object>) at(config(manifests), "management.security.tls"))
        .containsEntry("enabled", true)
        .containsEntry("privateKeyPath", "/usr/local/tern/tls/management/tls.key");
    Map<String, Object> container =
        at(manifests.one("StatefulSet"), "spec.template.spec.containers.0");
    for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
      assertThat(at(container, probe + ".httpGet.scheme").toString()).isEqualTo("HTTPS");
    }
    assertThat(at(manifests.one("ServiceMonitor"), "spec.endpoints.0.scheme").toString())
        .isEqualTo("https");
    assertThat(
            at(manifests.one("ServiceMonitor"), "spec.endpoints.0.tlsConfig.ca.secret.name")
                .toString())
        .isEqualTo("tern-management-tls");

    Manifests plain = Charts.render(Charts.TERN).manifests();
    assertThat(
            at(
                    plain.one("StatefulSet"),
                    "spec.template.spec.containers.0.readinessProbe.httpGet.scheme")
                .toString())
        .isEqualTo("HTTP");
    assertThat((Object) at(config(plain), "network.security")).isNull();
  }

  @Test
  void missingSecretsAndImpossibleCombinationsFailToRender() {
    assertThatThrownBy(
            () -> Charts.render(Charts.TERN).set("tls.cluster.enabled", true).manifests())
        .hasMessageContaining("tls.cluster.enabled needs tls.cluster.secretName");
    assertThatThrownBy(
            () ->
                Charts.render(Charts.TERN)
                    .set("tls.gateway.enabled", true)
                    .set("tls.gateway.secretName", "g")
                    .set("tls.gateway.clientAuth", "sometimes")
                    .manifests())
        .hasMessageContaining("none, optional or required");
    assertThatThrownBy(
            () ->
                Charts.render(Charts.TERN)
                    .set("tls.management.enabled", true)
                    .set("tls.management.secretName", "m")
                    .manifests())
        .hasMessageContaining("leaderBalancing.enabled=false");
  }
}
