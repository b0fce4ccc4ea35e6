package io.tern.deploy;

import static io.tern.deploy.Manifests.at;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * charts/tern renders, lints strictly and validates against Kubernetes 1.30's schemas with its
 * default values and each values-*.yaml, and renders what matters: node ids and contact points, the
 * tmpfs volumes, the layered configuration, the rebalance jobs.
 */
class TernChartTest {

  @Test
  void lintsStrictly() {
    Charts.lintStrictly(Charts.TERN);
  }

  static Stream<String> valuesFiles() {
    return Charts.valuesFiles(Charts.TERN, "values.yaml", "values-tmpfs.yaml", "values-large.yaml");
  }

  @ParameterizedTest
  @MethodSource("valuesFiles")
  void everyValuesFileRendersValidManifests(String file) {
    Manifests manifests =
        Charts.render(Charts.TERN).values(Charts.TERN.resolve(file)).manifests("tern-" + file);
    assertThat(manifests.kinds()).contains("StatefulSet", "ConfigMap", "Service", "CronJob");
  }

  @Test
  void everyOptionalPartRendersValidManifests() {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("gateway.enabled", true)
            .set("prometheusServiceMonitor.enabled", true)
            .set("broker.netAdmin", true)
            .set("broker.podAntiAffinity", "soft")
            .set("persistence.type", "memory")
            .set("runtimeDirectory.tmpfs", true)
            .set("broker.nodeSelector.pool", "brokers")
            .set("broker.tolerations[0].key", "dedicated")
            .set("broker.tolerations[0].operator", "Exists")
            .set("extraEnv[0].name", "TERN_LOGGING_LEVEL")
            .set("extraEnv[0].value", "debug")
            .manifests();
    assertThat(manifests.names())
        .contains(
            "StatefulSet/tern-broker",
            "Deployment/tern-gateway",
            "Service/tern-broker",
            "Service/tern-gateway",
            "PodDisruptionBudget/tern-broker",
            "PodDisruptionBudget/tern-gateway",
            "ServiceMonitor/tern",
            "CronJob/tern-rebalance",
            "Job/tern-rebalance-r1",
            "ConfigMap/tern-config",
            "ConfigMap/tern-dashboard");
    Map<String, Object> pod = at(manifests.one("StatefulSet"), "spec.template.spec");
    assertThat(at(pod, "containers.0.securityContext.capabilities.add").toString())
        .isEqualTo("[NET_ADMIN]");
    assertThat(at(pod, "nodeSelector").toString()).isEqualTo("{pool=brokers}");
    assertThat(at(pod, "tolerations.0.key").toString()).isEqualTo("dedicated");
    assertThat(env(pod)).containsEntry("TERN_LOGGING_LEVEL", "debug");
    assertThat(at(pod, "affinity.podAntiAffinity").toString())
        .contains("preferredDuringScheduling");
    Map<String, Object> gatewayService = manifests.named("Service", "tern-gateway");
    Map<String, String> selector = at(gatewayService, "spec.selector");
    assertThat(selector).containsEntry("app.kubernetes.io/component", "gateway");
    assertThat(config(manifests)).containsEntry("gateway", Map.of("enable", false, "port", 26500));
  }

  @Test
  void theSchemasRejectUnknownFieldsAndWrongTypes() {
    Map<String, Object> statefulSet = Charts.render(Charts.TERN).manifests().one("StatefulSet");
    Map<String, Object> podSpec = at(statefulSet, "spec.template.spec");
    podSpec.put("nodeSelektor", Map.of("pool", "brokers"));
    assertThatThrownBy(() -> Charts.validate(statefulSet)).hasMessageContaining("nodeSelektor");
    podSpec.remove("nodeSelektor");
    Map<String, Object> spec = at(statefulSet, "spec");
    spec.put("replicas", "three");
    assertThatThrownBy(() -> Charts.validate(statefulSet)).hasMessageContaining("replicas");
    spec.put("replicas", 3);
    Charts.validate(statefulSet);
  }

  @Test
  void theDefaultsAreAHardenedThreeBrokerCluster() {
    Manifests manifests = Charts.render(Charts.TERN).manifests();
    Map<String, Object> statefulSet = manifests.one("StatefulSet");
    assertThat(at(statefulSet, "spec.podManagementPolicy").toString()).isEqualTo("Parallel");
    Map<String, Object> pod = at(statefulSet, "spec.template.spec");
    assertThat(at(pod, "affinity.podAntiAffinity").toString())
        .contains("requiredDuringScheduling")
        .contains("kubernetes.io/hostname");
    assertThat(at(pod, "securityContext.runAsNonRoot").toString()).isEqualTo("true");
    assertThat(at(pod, "containers.0.securityContext.capabilities").toString())
        .isEqualTo("{drop=[ALL]}");
    assertThat(at(pod, "containers.0.readinessProbe.httpGet.path").toString())
        .isEqualTo("/actuator/health/readiness");
    assertThat(at(pod, "containers.0.image").toString())
        .isEqualTo(Charts.IMAGE_REPOSITORY + ":" + Charts.IMAGE_TAG);
    Map<String, Object> headless = manifests.named("Service", "tern-broker");
    assertThat(at(headless, "spec.clusterIP").toString()).isEqualTo("None");
    assertThat(at(headless, "spec.publishNotReadyAddresses").toString()).isEqualTo("true");
    assertThat(manifests.kinds()).doesNotContain("Deployment", "ServiceMonitor");
    assertThat(config(manifests)).containsEntry("gateway", Map.of("enable", true, "port", 26500));
  }

  @ParameterizedTest
  @ValueSource(ints = {3, 5})
  void nodeIdsAndContactPointsFollowTheClusterSize(int brokers) {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .release("prod")
            .set("clusterSize", brokers)
            .set("partitionsCount", 7)
            .manifests();
    Map<String, Object> statefulSet = manifests.one("StatefulSet");
    assertThat(Charts.name(statefulSet)).isEqualTo("prod-tern-broker");
    assertThat((Integer) at(statefulSet, "spec.replicas")).isEqualTo(brokers);
    assertThat(at(statefulSet, "spec.serviceName").toString()).isEqualTo("prod-tern-broker");

    Map<String, Object> cluster = at(config(manifests), "cluster");
    String expected =
        IntStream.range(0, brokers)
            .mapToObj(n -> "prod-tern-broker-" + n + ".prod-tern-broker.tern-test.svc:26501")
            .collect(Collectors.joining(","));
    assertThat(cluster)
        .containsEntry("contactPoints", expected)
        .containsEntry("clusterSize", brokers)
        .containsEntry("partitionsCount", 7)
        .containsEntry("replicationFactor", 3);

    List<Map<String, Object>> env = at(statefulSet, "spec.template.spec.containers.0.env");
    Map<String, Object> nodeId =
        env.stream().filter(e -> "TERN_CLUSTER_NODEID".equals(e.get("name"))).findFirst().get();
    assertThat(at(nodeId, "valueFrom.fieldRef.fieldPath").toString())
        .as("the node id is the pod's ordinal")
        .isEqualTo("metadata.labels['apps.kubernetes.io/pod-index']");
    assertThat(env(at(statefulSet, "spec.template.spec")))
        .containsEntry("TERN_NETWORK_ADVERTISEDHOST", "$(POD_NAME).prod-tern-broker.tern-test.svc");
    assertThat(env.get(0)).containsEntry("name", "POD_NAME");

    String rebalance =
        at(manifests.one("CronJob"), "spec.jobTemplate.spec.template.spec.containers.0.command")
            .toString();
    for (int n = 0; n < brokers; n++) {
      assertThat(rebalance)
          .contains("prod-tern-broker-" + n + ".prod-tern-broker.tern-test.svc:9600");
    }
  }

  /**
   * Scaling (docs/operations.md): the StatefulSet runs broker.replicas pods while every broker's
   * configuration keeps the initial cluster, so that the pods added start outside it and no running
   * broker restarts (the config checksum is the pod template's).
   */
  @ParameterizedTest
  @ValueSource(ints = {5, 2})
  void theReplicasScaleWithoutChangingTheBrokersConfiguration(int replicas) {
    Manifests initial = Charts.render(Charts.TERN).manifests();
    Manifests scaled =
        Charts.render(Charts.TERN)
            .set("broker.replicas", replicas)
            .set("backups.schedule.enabled", true)
            .manifests();
    Map<String, Object> statefulSet = scaled.one("StatefulSet");
    assertThat((Integer) at(statefulSet, "spec.replicas")).isEqualTo(replicas);
    assertThat(config(scaled)).isEqualTo(config(initial));
    assertThat(at(config(scaled), "cluster.clusterSize").toString()).isEqualTo("3");
    assertThat(at(config(scaled), "cluster.contactPoints").toString())
        .contains("tern-broker-2.")
        .doesNotContain("tern-broker-3.");
    assertThat(at(statefulSet, "spec.template.metadata.annotations").toString())
        .isEqualTo(at(initial.one("StatefulSet"), "spec.template.metadata.annotations").toString());

    List<String> rebalance = at(scaled.one("Job"), "spec.template.spec.containers.0.command");
    List<String> backup =
        at(
            scaled.named("CronJob", "tern-backup"),
            "spec.jobTemplate.spec.template.spec.containers.0.command");
    List<String> every =
        IntStream.range(0, replicas)
            .mapToObj(n -> "tern-broker-" + n + ".tern-broker.tern-test.svc:9600")
            .toList();
    assertThat(rebalance)
        .as("the rebalance Job waits for every broker running")
        .endsWith(every.toArray(String[]::new));
    assertThat(backup.subList(1, backup.size())).isEqualTo(every);
  }

  /** The script itself runs against brokers in the engine's ScaleBrokersScriptTest. */
  @Test
  void theScaleScriptIsExecutableAndPassesShellcheck() throws Exception {
    Path script = Charts.TERN.resolve("scripts/scale-brokers.sh");
    assertThat(Files.isExecutable(script)).as(script + " is executable").isTrue();
    boolean shellcheck;
    try {
      shellcheck = new ProcessBuilder("shellcheck", "--version").start().waitFor() == 0;
    } catch (IOException notInstalled) {
      shellcheck = false;
    }
    Assumptions.assumeTrue(shellcheck, "shellcheck is not installed: the script is not linted");
    Process lint =
        new ProcessBuilder("shellcheck", script.toString()).redirectErrorStream(true).start();
    String findings = new String(lint.getInputStream().readAllBytes(), UTF_8);
    assertThat(lint.waitFor()).as(findings).isZero();
  }

  @Test
  void replicasThatAreNoNumberOfBrokersFailToRender() {
    Map<String, Object> empty =
        Charts.render(Charts.TERN).set("broker.replicas", "").manifests().one("StatefulSet");
    assertThat((Integer) at(empty, "spec.replicas")).as("empty: clusterSize").isEqualTo(3);
    for (Object bad : List.of(0, -1, "three")) {
      assertThatThrownBy(() -> Charts.render(Charts.TERN).set("broker.replicas", bad).manifests())
          .hasMessageContaining(
              "broker.replicas must be a number of brokers (1 or more), not " + bad);
    }
  }

  @Test
  void aReplicationFactorAboveTheClusterSizeFailsToRender() {
    assertThatThrownBy(() -> Charts.render(Charts.TERN).set("replicationFactor", 4).manifests())
        .hasMessageContaining("replicationFactor (4) cannot exceed clusterSize (3)");
    assertThatThrownBy(() -> Charts.render(Charts.TERN).set("persistence.type", "nfs").manifests())
        .hasMessageContaining("persistence.type must be disk, memory or local");
  }

  @Test
  void diskPersistenceIsAClaimTemplateAndNoTmpfs() {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("persistence.size", "10Gi")
            .set("persistence.storageClassName", "ssd")
            .manifests();
    Map<String, Object> statefulSet = manifests.one("StatefulSet");
    assertThat(
            at(statefulSet, "spec.volumeClaimTemplates.0.spec.resources.requests.storage")
                .toString())
        .isEqualTo("10Gi");
    assertThat(at(statefulSet, "spec.volumeClaimTemplates.0.spec.storageClassName").toString())
        .isEqualTo("ssd");
    Map<String, Object> claimLabels =
        at(statefulSet, "spec.volumeClaimTemplates.0.metadata.labels");
    assertThat(claimLabels)
        .as("docs/deploy.md removes the brokers' claims by this label after helm uninstall")
        .containsEntry("app.kubernetes.io/component", "broker");
    List<Map<String, Object>> volumes = at(statefulSet, "spec.template.spec.volumes");
    assertThat(volumes)
        .extracting(v -> v.get("name"))
        .containsExactly("config", "tmp", "management-token");
    assertThat(volumes.toString()).doesNotContain("Memory");
    Map<String, Object> data = at(config(manifests), "data");
    assertThat(data).doesNotContainKey("runtimeDirectory");
    assertThat(data)
        .as("the watermark is 5% of the 10 GiB volume")
        .containsEntry("disk", Map.of("minFreeBytes", "512MB"));
  }

  @Test
  void memoryPersistenceAndTheRuntimeDirectoryAreTmpfsVolumes() {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("persistence.type", "memory")
            .set("persistence.size", "4Gi")
            .set("runtimeDirectory.tmpfs", true)
            .set("runtimeDirectory.size", "1Gi")
            .manifests();
    Map<String, Object> statefulSet = manifests.one("StatefulSet");
    assertThat((Object) at(statefulSet, "spec.volumeClaimTemplates")).isNull();
    Map<String, Map<String, Object>> volumes = volumes(statefulSet);
    assertThat(volumes.get("data"))
        .isEqualTo(
            Map.of("name", "data", "emptyDir", Map.of("medium", "Memory", "sizeLimit", "4Gi")));
    assertThat(volumes.get("runtime"))
        .isEqualTo(
            Map.of("name", "runtime", "emptyDir", Map.of("medium", "Memory", "sizeLimit", "1Gi")));
    List<Map<String, Object>> mounts =
        at(statefulSet, "spec.template.spec.containers.0.volumeMounts");
    assertThat(mounts)
        .contains(Map.of("name", "runtime", "mountPath", "/usr/local/tern/runtime"))
        .contains(Map.of("name", "data", "mountPath", "/usr/local/tern/data"));
    Map<String, Object> data = at(config(manifests), "data");
    assertThat(data)
        .containsEntry("runtimeDirectory", "/usr/local/tern/runtime")
        .containsEntry("directory", "/usr/local/tern/data")
        .containsEntry("disk", Map.of("minFreeBytes", "204MB", "runtimeMinFreeBytes", "102MB"));

    Map<String, Map<String, Object>> local =
        volumes(
            Charts.render(Charts.TERN)
                .set("persistence.type", "local")
                .manifests()
                .one("StatefulSet"));
    assertThat(local.get("data"))
        .isEqualTo(Map.of("name", "data", "emptyDir", Map.of("sizeLimit", "64Gi")));
    assertThat(local).doesNotContainKey("runtime");
  }

  @Test
  void userConfigIsLayeredOverTheChartDefaults() {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("config.processing.maxCommandsInBatch", 50)
            .set("config.raft.flush.mode", "delayed")
            .set("config.data.disk.minFreeBytes", "1GB")
            .set("config.data.snapshotPeriod", "1m")
            .manifests();
    Map<String, Object> config = config(manifests);
    assertThat(config)
        .containsEntry("processing", Map.of("maxCommandsInBatch", 50))
        .containsEntry("raft", Map.of("flush", Map.of("mode", "delayed")));
    assertThat(at(config, "data.directory").toString()).isEqualTo("/usr/local/tern/data");
    assertThat(at(config, "data.snapshotPeriod").toString()).isEqualTo("1m");
    assertThat(at(config, "data.disk.minFreeBytes").toString())
        .as("a user key wins over the chart's default")
        .isEqualTo("1GB");
    assertThat(at(config, "cluster.contactPoints").toString()).contains("tern-broker-2");
    assertThat(at(config, "cluster.clusterSize").toString()).isEqualTo("3");
  }

  @Test
  void leadersAreRebalancedOnAScheduleAndAfterInstall() {
    Manifests manifests =
        Charts.render(Charts.TERN).set("leaderBalancing.schedule", "*/10 * * * *").manifests();
    Map<String, Object> cronJob = manifests.one("CronJob");
    assertThat(at(cronJob, "spec.schedule").toString()).isEqualTo("*/10 * * * *");
    assertThat(at(cronJob, "spec.concurrencyPolicy").toString()).isEqualTo("Forbid");
    List<String> command = at(cronJob, "spec.jobTemplate.spec.template.spec.containers.0.command");
    assertThat(command.get(0)).isEqualTo("tern-rebalance");
    assertThat(command).doesNotContain("--wait-ready").hasSize(4);
    Map<String, Object> once = manifests.one("Job");
    assertThat(Charts.name(once)).as("a new Job each revision").isEqualTo("tern-rebalance-r1");
    assertThat((Integer) at(once, "spec.ttlSecondsAfterFinished")).isPositive();
    List<String> onceCommand = at(once, "spec.template.spec.containers.0.command");
    assertThat(onceCommand).contains("--wait-ready");

    Manifests disabled =
        Charts.render(Charts.TERN).set("leaderBalancing.enabled", false).manifests();
    assertThat(disabled.kinds()).doesNotContain("CronJob", "Job");
    Manifests noHook =
        Charts.render(Charts.TERN).set("leaderBalancing.onInstall", false).manifests();
    assertThat(noHook.kinds()).contains("CronJob").doesNotContain("Job");
  }

  @Test
  void backupsAreTakenOnAScheduleOnlyWhenAskedWithTheManagementToken() {
    assertThat(Charts.render(Charts.TERN).manifests().names())
        .as("off by default: a backup needs a store")
        .doesNotContain("CronJob/tern-backup");
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("backups.schedule.enabled", true)
            .set("backups.schedule.cron", "30 3 * * *")
            .set("global.image.pullSecrets[0].name", "registry")
            .manifests();
    Map<String, Object> cronJob = manifests.named("CronJob", "tern-backup");
    assertThat(at(cronJob, "spec.schedule").toString()).isEqualTo("30 3 * * *");
    assertThat(at(cronJob, "spec.concurrencyPolicy").toString()).isEqualTo("Forbid");
    Map<String, Object> container = at(cronJob, "spec.jobTemplate.spec.template.spec.containers.0");
    List<String> command = at(container, "command");
    assertThat(command.get(0)).isEqualTo("tern-backup");
    assertThat(command)
        .hasSize(4)
        .allMatch(part -> part.equals("tern-backup") || part.endsWith(":9600"));
    assertThat(container.toString())
        .contains("TERN_MANAGEMENT_SECURITY_TOKENFILE")
        .contains("TERN_BACKUP_TIMEOUT");
    assertThat(at(cronJob, "spec.jobTemplate.spec.template.metadata.labels").toString())
        .contains("backup");
    assertThat(at(cronJob, "spec.jobTemplate.spec.template.spec.imagePullSecrets").toString())
        .isEqualTo("[{name=registry}]");
  }

  @Test
  void aRestoreIsAnInitContainerWithTheBrokersConfigurationAndVolumeOnlyWhenAsked(@TempDir Path dir)
      throws Exception {
    Map<String, Object> plain = Charts.render(Charts.TERN).manifests().one("StatefulSet");
    assertThat((Map<String, Object>) at(plain, "spec.template.spec"))
        .as("absent by default")
        .doesNotContainKey("initContainers");

    Path values = dir.resolve("restore.yaml");
    // As an operator writes it: a number in a values file (YAML gives Helm a float).
    Files.writeString(values, "restore:\n  backupId: 20261207\n");
    Manifests manifests =
        Charts.render(Charts.TERN)
            .values(values)
            .set("config.data.backup.store", "s3")
            .set("config.data.backup.s3.bucketName", "tern-backups")
            .set("extraEnv[0].name", "TERN_DATA_BACKUP_S3_SECRETKEY")
            .set("extraEnv[0].valueFrom.secretKeyRef.name", "tern-backup-s3")
            .set("extraEnv[0].valueFrom.secretKeyRef.key", "secretKey")
            .set("broker.initContainers[0].name", "mine")
            .set("broker.initContainers[0].image", "busybox")
            .manifests("tern-restore.yaml");
    Map<String, Object> pod = at(manifests.one("StatefulSet"), "spec.template.spec");
    List<Map<String, Object>> inits = at(pod, "initContainers");
    assertThat(inits).extracting(init -> init.get("name")).containsExactly("restore", "mine");
    Map<String, Object> restore = inits.get(0);
    Map<String, Object> broker = at(pod, "containers.0");
    assertThat(restore.get("image")).isEqualTo(broker.get("image"));
    assertThat((List<String>) restore.get("args"))
        .containsExactly("restore", "--backupId", "20261207", "--skipIfRestored");
    // The broker's own configuration: the same environment (node id from the pod's index, the
    // config file, the store's secret key) and the same volumes, its data volume among them.
    assertThat(restore.get("env")).isEqualTo(broker.get("env"));
    assertThat(restore.get("env").toString())
        .contains("TERN_CONFIG")
        .contains("apps.kubernetes.io/pod-index")
        .contains("TERN_DATA_BACKUP_S3_SECRETKEY, valueFrom={secretKeyRef=")
        .contains("name=tern-backup-s3");
    assertThat(restore.get("volumeMounts")).isEqualTo(broker.get("volumeMounts"));
    assertThat(restore.get("volumeMounts").toString())
        .contains("{name=data, mountPath=/usr/local/tern/data}")
        .contains("{name=config, mountPath=/usr/local/tern/config, readOnly=true}");
    assertThat(restore.get("securityContext")).isEqualTo(broker.get("securityContext"));
    assertThat(config(manifests).toString()).contains("bucketName=tern-backups");

    assertThatThrownBy(
            () -> Charts.render(Charts.TERN).set("restore.backupId", "yesterday").manifests())
        .hasMessageContaining("restore.backupId must be a backup's id")
        .hasMessageContaining("not yesterday");
  }

  @Test
  void theManagementTokenComesFromASecretToBrokersAndRebalanceJobs() throws IOException {
    Manifests manifests = Charts.render(Charts.TERN).manifests();
    Map<String, Object> secret = manifests.named("Secret", "tern-management");
    Map<String, String> data = at(secret, "data");
    String token = new String(java.util.Base64.getDecoder().decode(data.get("token")), UTF_8);
    assertThat(token).hasSize(48).matches("[A-Za-z0-9]+");
    assertThat(at(secret, "metadata.annotations").toString())
        .contains("helm.sh/resource-policy=keep");
    assertThat(Files.readString(Charts.TERN.resolve("templates/secret-management.yaml")))
        .as("an upgrade must keep the token brokers read at start")
        .contains("lookup \"v1\" \"Secret\"");

    String file = "/usr/local/tern/secrets/management/token";
    Map<String, Object> broker = at(manifests.one("StatefulSet"), "spec.template.spec");
    assertThat(env(broker)).containsEntry("TERN_MANAGEMENT_SECURITY_TOKENFILE", file);
    assertThat(tokenVolume(broker, "tern-management")).isTrue();
    Map<String, Object> scheduled =
        at(manifests.one("CronJob"), "spec.jobTemplate.spec.template.spec");
    Map<String, Object> once = at(manifests.one("Job"), "spec.template.spec");
    for (Map<String, Object> job : List.of(scheduled, once)) {
      assertThat(env(job)).containsEntry("TERN_MANAGEMENT_SECURITY_TOKENFILE", file);
      assertThat(tokenVolume(job, "tern-management")).isTrue();
    }
    // The token is never in the configuration file or an environment variable's value.
    assertThat(manifests.named("ConfigMap", "tern-config").toString()).doesNotContain(token);
    assertThat(broker.toString()).doesNotContain(token);

    Manifests own =
        Charts.render(Charts.TERN).set("management.token.existingSecret", "ops-token").manifests();
    assertThat(own.kinds()).doesNotContain("Secret");
    assertThat(tokenVolume(at(own.one("StatefulSet"), "spec.template.spec"), "ops-token")).isTrue();

    assertThatThrownBy(
            () -> Charts.render(Charts.TERN).set("management.token.create", false).manifests())
        .hasMessageContaining("leaderBalancing needs the management token");
    Manifests none =
        Charts.render(Charts.TERN)
            .set("management.token.create", false)
            .set("leaderBalancing.enabled", false)
            .manifests();
    assertThat(none.kinds()).doesNotContain("Secret", "CronJob");
    assertThat(env(at(none.one("StatefulSet"), "spec.template.spec")))
        .doesNotContainKey("TERN_MANAGEMENT_SECURITY_TOKENFILE");
  }

  @Test
  void aNetworkPolicyKeepsCommandAndRaftPortsBetweenBrokers() {
    Manifests manifests = Charts.render(Charts.TERN).manifests();
    Map<String, Object> policy = manifests.named("NetworkPolicy", "tern-broker");
    assertThat(at(policy, "spec.podSelector.matchLabels").toString())
        .contains("app.kubernetes.io/component=broker");
    assertThat(peers(policy, 26501)).containsExactly("broker");
    assertThat(peers(policy, 26502)).containsExactly("broker");
    assertThat(rule(policy, 26500)).doesNotContainKey("from"); // clients: anyone
    assertThat(rule(policy, 8080)).as("REST, beside gRPC").isEqualTo(rule(policy, 26500));
    assertThat(rule(policy, 9600)).doesNotContainKey("from"); // probes, Prometheus: anyone

    Manifests restricted =
        Charts.render(Charts.TERN)
            .set("gateway.enabled", true)
            .set(
                "networkPolicy.management.from[0].namespaceSelector.matchLabels.purpose",
                "monitoring")
            .manifests();
    Map<String, Object> withGateways = restricted.named("NetworkPolicy", "tern-broker");
    assertThat(peers(withGateways, 26501)).containsExactly("broker", "gateway");
    assertThat(peers(withGateways, 26502)).containsExactly("broker");
    assertThat(rule(withGateways, 26500)).as("no embedded gateways").isNull();
    assertThat(peers(withGateways, 9600))
        .containsExactly("broker", "rebalance", "backup", "monitoring");

    assertThat(Charts.render(Charts.TERN).set("networkPolicy.enabled", false).manifests().kinds())
        .doesNotContain("NetworkPolicy");
  }

  @Test
  void theClientServiceDoesNotExposeTheBrokersManagementPort() {
    Map<String, Object> embedded =
        Charts.render(Charts.TERN).manifests().named("Service", "tern-gateway");
    List<Map<String, Object>> ports = at(embedded, "spec.ports");
    assertThat(ports)
        .as("gRPC and Camunda's REST API")
        .extracting(port -> port.get("port"))
        .containsExactly(26500, 8080);
    // A standalone gateway's management port has no operations; the ServiceMonitor scrapes it.
    Map<String, Object> standalone =
        Charts.render(Charts.TERN)
            .set("gateway.enabled", true)
            .manifests()
            .named("Service", "tern-gateway");
    List<Map<String, Object>> gatewayPorts = at(standalone, "spec.ports");
    assertThat(gatewayPorts)
        .extracting(port -> port.get("port"))
        .containsExactly(26500, 8080, 9600);
  }

  /** The ingress rule for {@code port}, or null. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> rule(Map<String, Object> policy, int port) {
    List<Map<String, Object>> rules = at(policy, "spec.ingress");
    for (Map<String, Object> rule : rules) {
      List<Map<String, Object>> ports = (List<Map<String, Object>>) rule.get("ports");
      if (ports.stream().anyMatch(each -> Integer.valueOf(port).equals(each.get("port")))) {
        return rule;
      }
    }
    return null;
  }

  /** Who a rule lets in: each peer's pod component, or its namespace's purpose label. */
  @SuppressWarnings("unchecked")
  private static List<String> peers(Map<String, Object> policy, int port) {
    List<Map<String, Object>> from = (List<Map<String, Object>>) rule(policy, port).get("from");
    return from.stream()
        .map(
            peer ->
                peer.containsKey("podSelector")
                    ? String.valueOf(
                        Manifests.<Map<String, Object>>at(peer, "podSelector.matchLabels")
                            .get("app.kubernetes.io/component"))
                    : String.valueOf(
                        Manifests.<Map<String, Object>>at(peer, "namespaceSelector.matchLabels")
                            .get("purpose")))
        .toList();
  }

  /** Whether the pod mounts the Secret {@code secret} as the management token's volume. */
  private static boolean tokenVolume(Map<String, Object> pod, String secret) {
    List<Map<String, Object>> volumes = at(pod, "volumes");
    List<Map<String, Object>> mounts = at(pod, "containers.0.volumeMounts");
    return volumes.stream()
            .anyMatch(
                volume ->
                    "management-token".equals(volume.get("name"))
                        && secret.equals(
                            Manifests.<Object>at(volume, "secret.secretName").toString()))
        && mounts.stream()
            .anyMatch(
                mount ->
                    "management-token".equals(mount.get("name"))
                        && Boolean.TRUE.equals(mount.get("readOnly")));
  }

  @Test
  void theDashboardShipsAsASidecarConfigMap() throws IOException {
    Map<String, Object> dashboard =
        Charts.render(Charts.TERN).manifests().named("ConfigMap", "tern-dashboard");
    assertThat(at(dashboard, "metadata.labels.grafana_dashboard").toString()).isEqualTo("1");
    Map<String, String> data = at(dashboard, "data");
    assertThat(data.get("tern.json"))
        .isEqualTo(Files.readString(Podman.ROOT.resolve("dashboards/tern.json")).strip());
  }

  @Test
  void theHistoryStoreIsOnAndAClusterGivesItASharedDatabaseWithAPasswordFromASecret() {
    Map<String, Object> defaults = config(Charts.render(Charts.TERN).manifests());
    assertThat(at(defaults, "exporting.history.enabled").toString()).isEqualTo("true");
    assertThat(defaults)
        .as("three brokers and no database: the brokers run no history store and say why")
        .doesNotContainKey("exporters");

    Manifests postgres =
        Charts.render(Charts.TERN)
            .set("exporters.history.url", "jdbc:postgresql://db:5432/tern")
            .set("exporters.history.username", "tern")
            .set("exporters.history.passwordSecret.name", "history-db")
            .set("exporters.history.retention", "P90D")
            .manifests();
    String file = "/usr/local/tern/secrets/exporters/history/password";
    assertThat(Manifests.<Map<String, Object>>at(config(postgres), "exporters.history.args"))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "url", "jdbc:postgresql://db:5432/tern",
                "username", "tern",
                "passwordFile", file,
                "retention", "P90D"));
    Map<String, Object> statefulSet = postgres.one("StatefulSet");
    Map<String, Object> volume = volumes(statefulSet).get("exporter-history-password");
    assertThat(Manifests.<Object>at(volume, "secret.secretName").toString())
        .isEqualTo("history-db");
    assertThat(Manifests.<Object>at(volume, "secret.items.0.path").toString())
        .isEqualTo("password");
    List<Map<String, Object>> mounts =
        at(statefulSet, "spec.template.spec.containers.0.volumeMounts");
    assertThat(mounts)
        .anySatisfy(
            mount -> {
              assertThat(mount.get("name")).isEqualTo("exporter-history-password");
              assertThat(mount.get("mountPath") + "/password").isEqualTo(file);
            });

    Map<String, Object> single =
        config(
            Charts.render(Charts.TERN)
                .set("clusterSize", 1)
                .set("replicationFactor", 1)
                .set("exporters.history.retention", "P7D")
                .manifests());
    assertThat(Manifests.<Object>at(single, "exporters.history.args").toString())
        .as("one broker: H2 on its data volume, which the broker chooses")
        .isEqualTo("{retention=P7D}");
    Map<String, Object> off =
        config(Charts.render(Charts.TERN).set("exporters.history.enabled", false).manifests());
    assertThat(at(off, "exporting.history.enabled").toString()).isEqualTo("false");
  }

  @Test
  void theOpenSearchExporterTakesItsUrlArgsAndPasswordFromValues() {
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("exporters.opensearch.enabled", true)
            .set("exporters.opensearch.url", "https://search:9200")
            .set("exporters.opensearch.username", "tern")
            .set("exporters.opensearch.passwordSecret.name", "search-password")
            .set("exporters.opensearch.args.bulk.size", 500)
            .manifests();
    Map<String, Object> exporter = at(config(manifests), "exporters.opensearch");
    assertThat(exporter.get("className"))
        .isEqualTo("io.tern.exporter.opensearch.OpenSearchExporter");
    assertThat(at(exporter, "args.url").toString()).isEqualTo("https://search:9200");
    assertThat(at(exporter, "args.bulk.size").toString()).isEqualTo("500");
    assertThat(at(exporter, "args.authentication").toString())
        .isEqualTo(
            "{passwordFile=/usr/local/tern/secrets/exporters/opensearch/password, username=tern}");
    assertThat(volumes(manifests.one("StatefulSet"))).containsKey("exporter-opensearch-password");
    assertThat(manifests.named("ConfigMap", "tern-config").toString())
        .doesNotContain("search-password");

    assertThatThrownBy(
            () -> Charts.render(Charts.TERN).set("exporters.opensearch.enabled", true).manifests())
        .hasMessageContaining("exporters.opensearch.enabled needs exporters.opensearch.url");
  }

  static Map<String, Object> config(Manifests manifests) {
    Map<String, Object> configMap =
        manifests.ofKind("ConfigMap").stream()
            .filter(m -> Charts.name(m).endsWith("-config"))
            .findFirst()
            .orElseThrow();
    Map<String, String> data = at(configMap, "data");
    @SuppressWarnings("unchecked")
    Map<String, Object> config =
        (Map<String, Object>)
            new Load(LoadSettings.builder().build()).loadFromString(data.get("tern.yaml"));
    return config;
  }

  static Map<String, String> env(Map<String, Object> podSpec) {
    List<Map<String, Object>> env = at(podSpec, "containers.0.env");
    return env.stream()
        .filter(e -> e.get("value") != null)
        .collect(
            Collectors.toMap(
                e -> e.get("name").toString(), e -> e.get("value").toString(), (a, b) -> b));
  }

  static Map<String, Map<String, Object>> volumes(Map<String, Object> statefulSet) {
    List<Map<String, Object>> volumes = at(statefulSet, "spec.template.spec.volumes");
    return volumes.stream().collect(Collectors.toMap(v -> v.get("name").toString(), v -> v));
  }
}
