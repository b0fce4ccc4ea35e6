package io.tern.deploy;

import static io.tern.deploy.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * charts/tern-benchmark (with the tern chart as its subchart) renders, lints strictly and validates
 * against Kubernetes 1.30's schemas and Chaos Mesh's NetworkChaos schema with its default values
 * and each scenario file; the starter and workers call the benchmark commands with the options they
 * take, against the subchart's gateway; the chaos selectors name the brokers; the soak CronJob runs
 * on Mondays at 01:00.
 */
class BenchmarkChartTest {

  @Test
  void lintsStrictly() {
    Charts.lintStrictly(Charts.BENCHMARK);
  }

  static Stream<String> valuesFiles() {
    return Charts.valuesFiles(
        Charts.BENCHMARK,
        "values.yaml",
        "values-typical.yaml",
        "values-latency.yaml",
        "values-max.yaml",
        "values-latency-35ms.yaml");
  }

  @ParameterizedTest
  @MethodSource("valuesFiles")
  void everyScenarioRendersValidManifests(String file) {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .release("bench")
            .values(Charts.BENCHMARK.resolve(file))
            .manifests("tern-benchmark-" + file);
    assertThat(manifests.names())
        .contains(
            "StatefulSet/bench-tern-broker",
            "Service/bench-tern-gateway",
            // A starter with a duration runs once, as a Job.
            (file.equals("values-latency-35ms.yaml") ? "Job" : "Deployment") + "/bench-starter",
            "Deployment/bench-worker-benchmark");
    assertThat(arguments(manifests, "bench-starter"))
        .as("the starter reaches the subchart's gateway Service")
        .containsSequence("--gateway", "bench-tern-gateway:26500");
  }

  /**
   * Every tern-benchmark command line the chart renders (starter, each worker, the soak's script)
   * with every scenario file is read by that command's own parser (in benchmark/target's jar, one
   * JVM for all): an option renamed in the benchmark fails here, not in a user's cluster.
   */
  @Test
  @Tag("slow") // runs the shaded jar, which -Pquick does not build
  void everyRenderedCommandLineIsOneTheBenchmarkReads(@TempDir Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    for (String file : valuesFiles().toList()) {
      Manifests manifests =
          Charts.render(Charts.BENCHMARK)
              .release("bench")
              .values(Charts.BENCHMARK.resolve(file))
              .set("soak.enabled", true)
              .set("soak.baseline", "/reports/baseline")
              .manifests();
      List<List<String>> commandLines = new ArrayList<>();
      List<Map<String, Object>> workloads = new ArrayList<>(manifests.ofKind("Deployment"));
      workloads.addAll(manifests.ofKind("Job")); // a starter with a duration
      for (Map<String, Object> deployment : workloads) {
        List<?> command = at(deployment, "spec.template.spec.containers.0.command");
        if ("tern-benchmark".equals(String.valueOf(command.get(0)))) {
          commandLines.add(command.stream().map(String::valueOf).toList());
        }
      }
      Map<String, Object> cronJob = manifests.named("CronJob", "bench-soak");
      List<?> shell = at(cronJob, "spec.jobTemplate.spec.template.spec.containers.0.command");
      commandLines.add(soakCommandLine(String.valueOf(shell.get(2))));
      assertThat(commandLines.stream().map(c -> c.get(1)))
          .as("the commands %s renders", file)
          .contains("starter", "worker", "soak");
      commandLines.forEach(c -> lines.add(String.join("\t", c)));
    }
    // The check itself must fail on an option no command has.
    lines.add("tern-benchmark\tsoak\t--rates\t100");
    Path file = dir.resolve("command-lines.tsv");
    Files.write(file, lines);
    Podman.Result checked =
        Podman.run(
            Duration.ofMinutes(1),
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            Podman.ROOT.resolve("benchmark/target/tern-benchmark.jar").toString(),
            "io.tern.benchmark.soak.SoakCommandLines",
            file.toString());
    List<String> failed = checked.output().lines().filter(l -> l.startsWith("FAILED: ")).toList();
    assertThat(failed)
        .as("command lines the benchmark does not read:\n%s", checked.output())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("FAILED: tern-benchmark soak --rates 100:")
        .contains("--rates");
    assertThat(checked.output().lines().filter(l -> l.startsWith("ok: ")))
        .hasSize(lines.size() - 1);
  }

  /** The words of the soak script's exec line, its variables given example values. */
  private static List<String> soakCommandLine(String script) {
    String line =
        script
            .replace("\\\n", " ")
            .lines()
            .filter(l -> l.strip().startsWith("exec "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no exec line in " + script))
            .strip()
            .substring("exec ".length())
            .replace("$GATEWAY", "gateway:26500")
            .replace("$MANAGEMENT", "broker-0:9600")
            .replace("$dir", "/reports/run");
    List<String> words = new ArrayList<>();
    Matcher word = Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(line);
    while (word.find()) {
      words.add(word.group(1) != null ? word.group(1) : word.group(2));
    }
    return words;
  }

  @Test
  void theLatencyScenarioIsOneInstancePerSecondAndOneWorker() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .values(Charts.BENCHMARK.resolve("values-latency.yaml"))
            .manifests();
    assertThat(arguments(manifests, "tern-starter"))
        .containsExactly(
            "tern-benchmark",
            "starter",
            "--gateway",
            "tern-gateway:26500",
            "--rate",
            "1",
            "--workload",
            "one-task");
    Map<String, Object> worker = manifests.named("Deployment", "tern-worker-benchmark");
    assertThat((Integer) at(worker, "spec.replicas")).isEqualTo(1);
    assertThat(arguments(manifests, "tern-worker-benchmark"))
        .containsExactly(
            "tern-benchmark",
            "worker",
            "--gateway",
            "tern-gateway:26500",
            "--job-type",
            "benchmark-task",
            "--capacity",
            "10",
            "--completion-delay",
            "0ms",
            "--workload",
            "one-task");
  }

  @Test
  void workersAreAMapOfDeployments() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .set("workers.benchmark", null)
            .set("workers.fast.replicas", 2)
            .set("workers.fast.jobType", "fast")
            .set("workers.fast.capacity", 30)
            .set("workers.fast.completionDelay", "10ms")
            .set("workers.slow.replicas", 1)
            .set("workers.slow.jobType", "slow")
            .set("workers.slow.capacity", 5)
            .set("workers.slow.completionDelay", "2s")
            .set("workers.slow.polling", true)
            .manifests();
    assertThat(manifests.ofKind("Deployment"))
        .extracting(Charts::name)
        .containsExactlyInAnyOrder("tern-starter", "tern-worker-fast", "tern-worker-slow");
    assertThat(arguments(manifests, "tern-worker-fast"))
        .containsSequence("--job-type", "fast", "--capacity", "30", "--completion-delay", "10ms")
        .doesNotContain("--polling");
    assertThat(arguments(manifests, "tern-worker-slow"))
        .containsSequence("--job-type", "slow")
        .contains("--polling")
        .endsWith("--workload", "typical");
    assertThatThrownBy(
            () ->
                Charts.render(Charts.BENCHMARK)
                    .set("workers.benchmark.completionDelay", "50 ms")
                    .manifests())
        .hasMessageContaining("workers.benchmark.completionDelay");
  }

  @Test
  void aWorkloadFromFilesIsMountedFromAConfigMap() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .set("starter.workload", "file")
            .set("starter.bpmn", "<definitions/>")
            .set("starter.payload", "{\"amount\": 5}")
            .manifests();
    assertThat(arguments(manifests, "tern-starter"))
        .containsSequence(
            "--bpmn", "/workload/process.bpmn", "--payload", "/workload/payload.json");
    Map<String, String> data = at(manifests.named("ConfigMap", "tern-workload"), "data");
    assertThat(data).containsEntry("process.bpmn", "<definitions/>");
    assertThat(data).containsEntry("payload.json", "{\"amount\": 5}");
  }

  @Test
  void theThirtyFiveMillisecondExperimentDelaysBrokerZeroToBrokerOne() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .release("exp")
            .values(Charts.BENCHMARK.resolve("values-latency-35ms.yaml"))
            // helm-java's template leaves Helm hooks out, as these are: rendered as plain objects.
            .set("chaosMesh.hooks", false)
            .manifests();
    Map<String, Object> statefulSet = manifests.one("StatefulSet");
    assertThat((Integer) at(statefulSet, "spec.replicas")).isEqualTo(8);
    Map<String, Object> chaos = manifests.one("NetworkChaos");
    assertThat(Charts.name(chaos)).isEqualTo("exp-broker-0-1");
    assertThat(at(chaos, "spec.selector").toString())
        .isEqualTo("{pods={" + Charts.NAMESPACE + "=[exp-tern-broker-0]}}");
    assertThat(at(chaos, "spec.target.selector").toString())
        .isEqualTo("{pods={" + Charts.NAMESPACE + "=[exp-tern-broker-1]}}");
    assertThat(at(chaos, "spec.direction").toString()).isEqualTo("both");
    assertThat(at(chaos, "spec.delay").toString())
        .isEqualTo("{latency=35ms, jitter=0ms, correlation=0}");
    assertThat(at(chaos, "spec.duration").toString()).isEqualTo("45m");
    // The starter's measured window: 30 minutes, which the experiment outlasts.
    // A Job, so that the starter is not started again when it ends.
    Map<String, Object> starter = manifests.named("Job", "exp-starter");
    assertThat(at(starter, "spec.template.spec.containers.0.command").toString())
        .contains("--duration, 30m");
    assertThat(at(starter, "spec.template.spec.restartPolicy").toString()).isEqualTo("OnFailure");
    // It starts when every broker is ready, as the experiment does: the window is not spent on
    // a cluster still starting.
    assertThat(at(starter, "spec.template.spec.initContainers.0.command").toString())
        .isEqualTo(
            at(manifests.named("Job", "exp-chaos-wait"), "spec.template.spec.containers.0.command")
                .toString())
        .startsWith("[tern-rebalance, --wait-ready, exp-tern-broker-0.");
    // The experiment waits for every broker: a Job that waits for all 8 to be ready.
    Map<String, Object> wait = manifests.named("Job", "exp-chaos-wait");
    List<?> command = at(wait, "spec.template.spec.containers.0.command");
    assertThat(command.subList(0, 2).toString()).isEqualTo("[tern-rebalance, --wait-ready]");
    assertThat(command.subList(2, command.size()))
        .hasSize(8)
        .allMatch(a -> a.toString().matches("exp-tern-broker-[0-7]\\.exp-tern-broker\\..*:9600"));
    // As hooks (the default), Helm creates both after the release's objects, the Job first
    // (weight 0), then the experiment (weight 1) once the Job succeeded.
    Manifests hooked =
        Charts.render(Charts.BENCHMARK)
            .release("exp")
            .values(Charts.BENCHMARK.resolve("values-latency-35ms.yaml"))
            .manifests();
    assertThat(hooked.kinds()).doesNotContain("NetworkChaos");
    assertThat(hooked.names()).doesNotContain("Job/exp-chaos-wait");
    String template;
    try {
      template =
          java.nio.file.Files.readString(Charts.BENCHMARK.resolve("templates/networkchaos.yaml"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(template)
        .containsSubsequence(
            "kind: Job",
            "helm.sh/hook: post-install,post-upgrade",
            "helm.sh/hook-weight: \"0\"",
            "kind: NetworkChaos",
            "helm.sh/hook: post-install,post-upgrade",
            "helm.sh/hook-weight: \"1\"");
    assertThat(Charts.name(statefulSet) + "-0").isEqualTo("exp-tern-broker-0");
    assertThat(TernChartTest.config(manifests)).doesNotContainKey("experimental");
    Map<String, Object> delay = at(chaos, "spec.delay");
    delay.put("latencyy", "35ms");
    assertThatThrownBy(() -> Charts.validate(chaos))
        .as("the NetworkChaos schema, made strict, rejects an unknown field")
        .hasMessageContaining("latencyy");
    delay.remove("latencyy");
    Map<String, Object> spec = at(chaos, "spec");
    spec.put("direction", "sideways");
    assertThatThrownBy(() -> Charts.validate(chaos)).hasMessageContaining("direction");

    Manifests everyBroker =
        Charts.render(Charts.BENCHMARK)
            .set("chaosMesh.hooks", false)
            .set("chaosMesh.enabled", true)
            .set("chaosMesh.experiments[0].name", "all")
            .set("chaosMesh.experiments[0].latency", "10ms")
            .manifests();
    Map<String, Object> all = everyBroker.one("NetworkChaos");
    assertThat(at(all, "spec.selector").toString())
        .isEqualTo(
            "{namespaces=["
                + Charts.NAMESPACE
                + "], labelSelectors={app.kubernetes.io/instance=tern, app.kubernetes.io/component=broker}}");
    Map<String, String> brokerLabels =
        at(everyBroker.one("StatefulSet"), "spec.template.metadata.labels");
    assertThat(brokerLabels)
        .as("the label selector matches the broker pods")
        .containsEntry("app.kubernetes.io/instance", "tern")
        .containsEntry("app.kubernetes.io/component", "broker");

    assertThatThrownBy(
            () ->
                Charts.render(Charts.BENCHMARK)
                    .set("chaosMesh.enabled", true)
                    .set("chaosMesh.experiments[0].name", "bad")
                    .set("chaosMesh.experiments[0].latency", "35 ms")
                    .manifests())
        .hasMessageContaining("chaosMesh.experiments[bad].latency");
    // An experiment that ends before the load would leave the end of the window undelayed.
    assertThatThrownBy(
            () ->
                Charts.render(Charts.BENCHMARK)
                    .values(Charts.BENCHMARK.resolve("values-latency-35ms.yaml"))
                    .set("chaosMesh.experiments[0].duration", "35m")
                    .yaml())
        .hasMessageContaining(
            "chaosMesh.experiments[broker-0-1].duration 35m does not cover the load: the starter"
                + " runs 30m")
        .hasMessageContaining("at least 2400s");
  }

  @Test
  void withoutChaosMeshTernInjectsTheLatencyItself() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .values(Charts.BENCHMARK.resolve("values-latency-35ms.yaml"))
            .set("chaosMesh.enabled", false)
            .set("tern.injectedLatency.enabled", true)
            .manifests();
    assertThat(manifests.kinds()).doesNotContain("NetworkChaos");
    assertThat(TernChartTest.config(manifests))
        .containsEntry(
            "experimental",
            Map.of("network", Map.of("latency", "35ms", "jitter", "0ms", "latencyBetween", "0-1")));
  }

  @Test
  void theWeeklySoakRunsOnMondaysAtOneAndItsVerdictsDecide() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .release("weekly")
            .set("soak.enabled", true)
            .set("soak.baseline", "/reports/baseline")
            .set("starter.enabled", false)
            .set("workers.benchmark", null)
            .manifests();
    assertThat(manifests.ofKind("Deployment")).isEmpty();
    Map<String, Object> cronJob = manifests.named("CronJob", "weekly-soak");
    assertThat(at(cronJob, "spec.schedule").toString()).isEqualTo("0 1 * * 1");
    assertThat(at(cronJob, "spec.timeZone").toString()).isEqualTo("Etc/UTC");
    assertThat(at(cronJob, "spec.concurrencyPolicy").toString()).isEqualTo("Forbid");
    assertThat((Integer) at(cronJob, "spec.jobTemplate.spec.backoffLimit")).isZero();
    Map<String, Object> container = at(cronJob, "spec.jobTemplate.spec.template.spec.containers.0");
    String script = ((List<?>) container.get("command")).get(2).toString();
    assertThat(script)
        .contains("exec tern-benchmark soak --gateway \"$GATEWAY\" --management \"$MANAGEMENT\"")
        .contains("--rate 100 --workers 3 --duration 164h")
        .contains("--dir \"$dir\"")
        .contains("--baseline \"/reports/baseline\"");
    Map<String, String> env = TernChartTest.env(at(cronJob, "spec.jobTemplate.spec.template.spec"));
    assertThat(env).containsEntry("GATEWAY", "weekly-tern-gateway:26500");
    assertThat(env.get("MANAGEMENT"))
        .isEqualTo(
            IntStream.range(0, 3)
                .mapToObj(
                    n ->
                        "weekly-tern-broker-"
                            + n
                            + ".weekly-tern-broker."
                            + Charts.NAMESPACE
                            + ".svc:9600")
                .collect(Collectors.joining(",")));
    // The run's reports, served read-only over HTTP by a native sidecar while the run holds the
    // ReadWriteOnce volume, through a Service selecting the soak's pods.
    Map<String, Object> podSpec = at(cronJob, "spec.jobTemplate.spec.template.spec");
    Map<String, Object> server = at(podSpec, "initContainers.0");
    assertThat(server.get("restartPolicy")).isEqualTo("Always");
    assertThat(server.get("command").toString())
        .isEqualTo("[java, -m, jdk.httpserver, -b, 0.0.0.0, -p, 8000, -d, /reports]");
    assertThat(at(server, "volumeMounts.0").toString())
        .isEqualTo("{name=reports, mountPath=/reports, readOnly=true}");
    Map<String, Object> service = manifests.named("Service", "weekly-soak-reports");
    assertThat(at(service, "spec.ports.0.targetPort").toString()).isEqualTo("reports");
    assertThat(at(server, "ports.0.name").toString()).isEqualTo("reports");
    Map<String, Object> podLabels = at(cronJob, "spec.jobTemplate.spec.template.metadata.labels");
    Map<String, Object> selector = at(service, "spec.selector");
    assertThat(podLabels).containsAllEntriesOf(selector);
    Map<String, Object> claim = manifests.one("PersistentVolumeClaim");
    assertThat(
            at(
                    cronJob,
                    "spec.jobTemplate.spec.template.spec.volumes.0.persistentVolumeClaim.claimName")
                .toString())
        .isEqualTo(Charts.name(claim));
  }

  @Test
  void aSoakAsLongAsTheWeekBetweenRunsIsRefused() {
    assertThatThrownBy(
            () ->
                Charts.render(Charts.BENCHMARK)
                    .set("soak.enabled", true)
                    .set("soak.duration", "7d")
                    .manifests())
        .hasMessageContaining("soak.duration: 7d is a week or more");
    assertThatThrownBy(
            () ->
                Charts.render(Charts.BENCHMARK)
                    .set("soak.enabled", true)
                    .set("soak.duration", "168.5h")
                    .manifests())
        .hasMessageContaining("soak.duration: 168.5h is a week or more");
    assertThatCode(
            () ->
                Charts.render(Charts.BENCHMARK)
                    .set("soak.enabled", true)
                    .set("soak.duration", "6.9d")
                    .manifests())
        .doesNotThrowAnyException();
  }

  @Test
  void anExistingClusterIsDrivenByAddress() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .set("tern.enabled", false)
            .set("gatewayAddress", "zeebe.example:26500")
            .manifests();
    assertThat(manifests.kinds()).doesNotContain("StatefulSet");
    assertThat(arguments(manifests, "tern-starter"))
        .containsSequence("--gateway", "zeebe.example:26500");
    assertThatThrownBy(() -> Charts.render(Charts.BENCHMARK).set("tern.enabled", false).manifests())
        .hasMessageContaining("gatewayAddress is required");
  }

  @Test
  void withOAuthTheStarterAndWorkersFetchTokensWithASecretFromASecret() {
    Manifests manifests =
        Charts.render(Charts.BENCHMARK)
            .set("oauth.enabled", true)
            .set("oauth.tokenUrl", "https://idp.example/token")
            .set("oauth.clientSecret.secretName", "bench-oauth")
            .manifests();
    for (String deployment : List.of("tern-starter", "tern-worker-benchmark")) {
      assertThat(arguments(manifests, deployment))
          .as(deployment)
          .containsSequence(
              "--oauth",
              "https://idp.example/token",
              "--oauth-client-id",
              "tern-benchmark",
              "--oauth-audience",
              "zeebe-api");
      List<Object> env =
          at(manifests.named("Deployment", deployment), "spec.template.spec.containers.0.env");
      assertThat(env)
          .as(deployment)
          .containsExactly(
              (Object)
                  Map.of(
                      "name",
                      "TERN_OAUTH_CLIENT_SECRET",
                      "valueFrom",
                      Map.of(
                          "secretKeyRef", Map.of("name", "bench-oauth", "key", "client-secret"))));
    }
    assertThat(arguments(Charts.render(Charts.BENCHMARK).manifests(), "tern-starter"))
        .doesNotContain("--oauth");
    assertThatThrownBy(
            () ->
                Charts.render(Charts.BENCHMARK)
                    .set("oauth.enabled", true)
                    .set("oauth.tokenUrl", "https://idp.example/token")
                    .manifests())
        .hasMessageContaining("oauth.clientSecret.secretName is required");
  }

  private static List<String> arguments(Manifests manifests, String deployment) {
    Map<String, Object> workload =
        manifests.ofKind("Deployment").stream().anyMatch(d -> deployment.equals(Charts.name(d)))
            ? manifests.named("Deployment", deployment)
            : manifests.named("Job", deployment);
    List<?> command = at(workload, "spec.template.spec.containers.0.command");
    return command.stream().map(String::valueOf).toList();
  }
}
