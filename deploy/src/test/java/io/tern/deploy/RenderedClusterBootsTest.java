package io.tern.deploy;

import static io.tern.deploy.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.BrokerInfo;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.client.api.response.Topology;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;

/**
 * The cluster the tern chart renders boots: each broker pod of the rendered StatefulSet becomes a
 * Pod (podman kube play plays no StatefulSets) with exactly the rendered container, environment,
 * config file and volumes, plus what Kubernetes itself would add: the pod's name, hostname and
 * subdomain, the pod-index label, $(VAR) expansion in env values, and DNS names of the headless
 * Service (as host aliases, each pod on a fixed address of a podman network); each pod's emptyDir
 * volumes get names of their own (podman 4.3 shares them by name across pods, on disk); the
 * container ports are left out and the probes' named ports resolved (see {@link #pod}), and each
 * pod must pass its rendered startup, readiness and liveness probes, run as the kubelet runs them.
 * The official client then sees three brokers under their advertised names, deploys a process and
 * completes an instance; the rendered rebalance Job's command rebalances the leaders. Skipped
 * (loudly) where podman is not installed. The client goes through the chart's standalone gateway
 * (its Deployment's pod, played the same way), and the rebalance CronJob's command runs too.
 */
@Tag("slow") // containers (podman): docs/testing.md
@ResourceLock(Podman.CONTAINERS)
class RenderedClusterBootsTest {
  private static final int BROKERS = 3;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

  private final String network = "tern-boot-" + ProcessHandle.current().pid();
  private final String subnet = "10.213." + (ProcessHandle.current().pid() % 200 + 20);

  /** Each played pod's container, with its rendered probes. */
  private final Map<String, Map<String, Object>> played = new LinkedHashMap<>();

  /** Each played pod's name and its container's. */
  private final Map<String, String> pods = new LinkedHashMap<>();

  @TempDir Path dir;

  @AfterEach
  void removePodsAndNetwork() throws Exception {
    if (!Podman.installed()) {
      return; // skipped: nothing ran
    }
    for (String pod : pods.keySet()) {
      String container = pod + "-" + pods.get(pod);
      System.out.printf(
          "--- last lines of %s:%n%s%n",
          container, Podman.podman("logs", "--tail", "40", container).output());
      Podman.podman("pod", "rm", "-f", "-t", "0", pod);
      for (String volume : List.of("data", "runtime", "tmp")) {
        Podman.podman("volume", "rm", "-f", pod + "-" + volume);
      }
    }
    // kube play keeps the ConfigMap as a volume of its name.
    Podman.podman("volume", "rm", "-f", "tern-config");
    Podman.podman("volume", "rm", "-f", "tern-management");
    Podman.podman("network", "rm", "-f", network);
  }

  @Test
  void theRenderedBrokersFormAClusterThatCompletesAnInstance() throws Exception {
    Podman.buildImage();
    long start = System.nanoTime();
    Manifests manifests =
        Charts.render(Charts.TERN)
            .set("clusterSize", BROKERS)
            .set("partitionsCount", 3)
            .set("replicationFactor", 3)
            .set("global.image.local", true)
            .set("global.image.repository", Podman.IMAGE.substring(0, Podman.IMAGE.indexOf(':')))
            .set("global.image.tag", Podman.IMAGE.substring(Podman.IMAGE.indexOf(':') + 1))
            .set("global.image.pullPolicy", "Never")
            .set("persistence.type", "local")
            .set("persistence.size", "2Gi")
            .set("runtimeDirectory.tmpfs", true)
            .set("runtimeDirectory.size", "256Mi")
            .set("broker.resources.requests.cpu", "250m")
            .set("broker.resources.requests.memory", "512Mi")
            .set("broker.resources.limits.cpu", "2")
            .set("broker.resources.limits.memory", "1536Mi")
            .set("config.state.rocksdb.memoryLimitMb", 128)
            .set("broker.javaOpts", Podman.TEST_JAVA_OPTS)
            .set("gateway.javaOpts", Podman.TEST_JAVA_OPTS)
            .set("gateway.enabled", true)
            .set("gateway.replicas", 1)
            .set("gateway.resources.requests.cpu", "250m")
            .set("gateway.resources.requests.memory", "256Mi")
            .set("gateway.resources.limits.memory", "768Mi")
            .manifests();
    Map<String, Object> statefulSet = manifests.one("StatefulSet");
    Map<String, Object> configMap = manifests.named("ConfigMap", "tern-config");
    // The management token's Secret, played with each broker: the brokers and the rebalance
    // commands run in them read it from a file, as in Kubernetes. podman 4.3's kube play panics on
    // a Secret volume (its secrets manager is nil there), so the Secret goes in as a ConfigMap of
    // the same files, mounted where the Secret would be (pod() turns the volume over).
    Map<String, Object> tokenSecret =
        secretAsConfigMap(manifests.named("Secret", "tern-management"));
    String headless = at(statefulSet, "spec.serviceName");

    Map<String, String> addresses = new LinkedHashMap<>();
    for (int n = 0; n < BROKERS; n++) {
      addresses.put(Charts.name(statefulSet) + "-" + n, subnet + "." + (10 + n));
    }
    Podman.Result created =
        Podman.podman("network", "create", "--subnet", subnet + ".0/24", network);
    assertThat(created.code()).as("podman network create:\n%s", created.output()).isZero();

    for (Map.Entry<String, String> broker : addresses.entrySet()) {
      Map<String, Object> pod = pod(statefulSet, broker.getKey(), headless, addresses);
      Charts.validate(pod);
      played.put(broker.getKey(), at(pod, "spec.containers.0"));
      Path file = dir.resolve(broker.getKey() + ".yaml");
      Dump dump = new Dump(DumpSettings.builder().build());
      Files.writeString(
          file, dump.dumpAllToString(List.of(configMap, tokenSecret, pod).iterator()));
      play(file, broker.getKey(), "broker", broker.getValue());
    }
    Map<String, Object> deployment = manifests.one("Deployment");
    String gatewayPod = Charts.name(deployment) + "-0";
    String gateway = subnet + ".9";
    Map<String, Object> gatewayPodManifest =
        gatewayPod(deployment, gatewayPod, headless, addresses);
    Charts.validate(gatewayPodManifest);
    played.put(gatewayPod, at(gatewayPodManifest, "spec.containers.0"));
    Path gatewayFile = dir.resolve(gatewayPod + ".yaml");
    Files.writeString(
        gatewayFile,
        new Dump(DumpSettings.builder().build())
            .dumpAllToString(List.of(configMap, gatewayPodManifest).iterator()));
    play(gatewayFile, gatewayPod, "gateway", gateway);

    Map<String, String> everyPod = new LinkedHashMap<>(addresses);
    everyPod.put(gatewayPod, gateway);
    for (Map.Entry<String, String> pod : everyPod.entrySet()) {
      passesItsProbes(pod.getKey(), played.get(pod.getKey()), pod.getValue());
      // podman took the liveness probe as the container's health check (a curl it cannot run
      // here: no timers), on the port the probe's name resolved to.
      Map<String, Object> liveness = at(played.get(pod.getKey()), "livenessProbe.httpGet");
      assertThat(
              Podman.podman(
                      "inspect",
                      pod.getKey() + "-" + pods.get(pod.getKey()),
                      "--format",
                      "{{json .Config.Healthcheck.Test}}")
                  .output())
          .as("%s's health check from its liveness probe", pod.getKey())
          .contains("localhost:" + liveness.get("port") + liveness.get("path"));
    }
    System.out.printf(
        "Rendered cluster of %d brokers and a gateway ready %d s after rendering%n",
        BROKERS, (System.nanoTime() - start) / 1_000_000_000);

    try (CamundaClient client =
        CamundaClient.newClientBuilder()
            .grpcAddress(URI.create("http://" + gateway + ":26500"))
            .preferRestOverGrpc(false)
            .defaultRequestTimeout(Duration.ofSeconds(30))
            .build()) {
      // Each broker being ready does not mean the gateway has heard from all of them yet.
      Topology topology =
          await("the gateway's topology lists every broker")
              .atMost(Duration.ofMinutes(1))
              .pollInterval(Duration.ofMillis(500))
              .until(
                  () -> client.newTopologyRequest().send().join(),
                  t -> t.getBrokers().size() == BROKERS);
      assertThat(topology.getClusterSize()).isEqualTo(BROKERS);
      assertThat(topology.getPartitionsCount()).isEqualTo(3);
      assertThat(topology.getBrokers())
          .extracting(BrokerInfo::getNodeId, BrokerInfo::getHost)
          .as("node ids from the pod ordinals, hosts as advertised through the headless service")
          .containsExactlyInAnyOrder(
              addresses.keySet().stream()
                  .map(
                      name ->
                          org.assertj.core.groups.Tuple.tuple(
                              Integer.parseInt(name.substring(name.lastIndexOf('-') + 1)),
                              name + "." + headless + "." + Charts.NAMESPACE + ".svc"))
                  .toArray(org.assertj.core.groups.Tuple[]::new));

      client
          .newDeployResourceCommand()
          .addProcessModel(
              Bpmn.createExecutableProcess("boot-check")
                  .startEvent()
                  .serviceTask("task", t -> t.zeebeJobType("boot-check"))
                  .endEvent()
                  .done(),
              "boot-check.bpmn")
          .send()
          .join();
      try (JobWorker worker =
          client
              .newWorker()
              .jobType("boot-check")
              .handler(
                  (jobClient, job) ->
                      jobClient
                          .newCompleteCommand(job)
                          .variables(Map.of("done", true))
                          .send()
                          .join())
              .open()) {
        for (int i = 0; i < 3; i++) {
          ProcessInstanceResult result =
              client
                  .newCreateInstanceCommand()
                  .bpmnProcessId("boot-check")
                  .latestVersion()
                  .variables(Map.of("i", i))
                  .withResult()
                  .requestTimeout(Duration.ofSeconds(60))
                  .send()
                  .join();
          assertThat(result.getVariablesAsMap()).containsEntry("i", i).containsEntry("done", true);
        }
      }
    }

    // The rendered one-off rebalance Job's command, run in a broker's container (same image).
    List<String> rebalance =
        new ArrayList<>(List.of("exec", Charts.name(statefulSet) + "-0-broker"));
    List<?> command = at(manifests.one("Job"), "spec.template.spec.containers.0.command");
    command.forEach(c -> rebalance.add(c.toString()));
    Podman.Result rebalanced = Podman.podman(rebalance.toArray(String[]::new));
    assertThat(rebalanced.code()).as("%s:\n%s", rebalance, rebalanced.output()).isZero();
    assertThat(rebalanced.output()).contains("rebalanced");
    // The CronJob's command afterwards: every partition is led by its primary already.
    List<String> scheduled =
        new ArrayList<>(List.of("exec", Charts.name(statefulSet) + "-0-broker"));
    List<?> cronCommand =
        at(manifests.one("CronJob"), "spec.jobTemplate.spec.template.spec.containers.0.command");
    cronCommand.forEach(c -> scheduled.add(c.toString()));
    Podman.Result again = Podman.podman(scheduled.toArray(String[]::new));
    assertThat(again.code()).as("%s:\n%s", scheduled, again.output()).isZero();
    assertThat(again.output())
        .as("the scheduled rebalance finds each partition led by its primary")
        .contains("\"1\":\"already led by its primary")
        .contains("\"2\":\"already led by its primary")
        .contains("\"3\":\"already led by its primary");
    // docs/deploy.md's round-trip measurement (how to see Chaos Mesh's delay in force) runs in
    // the image, from broker 0 to brokers 1 and 2 by their headless names; no delay here.
    String deploy = Files.readString(Podman.ROOT.resolve("docs/deploy.md"));
    int measure = deploy.indexOf("kubectl -n latency exec latency35-tern-broker-0 -- bash -c '");
    assertThat(measure).as("docs/deploy.md's round-trip measurement").isNotNegative();
    int scriptStart = deploy.indexOf('\'', measure) + 1;
    String script =
        deploy
            .substring(scriptStart, deploy.indexOf('\'', scriptStart))
            .replace("latency35-tern-broker", Charts.name(statefulSet))
            .replace(".latency.svc", "." + Charts.NAMESPACE + ".svc");
    Podman.Result measured =
        Podman.podman("exec", Charts.name(statefulSet) + "-0-broker", "bash", "-c", script);
    assertThat(measured.code()).as("%s:\n%s", script, measured.output()).isZero();
    assertThat(measured.output())
        .containsPattern("broker 0 -> broker 1: connect [0-9]+ ms")
        .containsPattern("broker 0 -> broker 2: connect [0-9]+ ms");
    // After the load and the leader moves, every pod still passes its liveness probe.
    for (Map.Entry<String, String> pod : everyPod.entrySet()) {
      assertThat(probe(played.get(pod.getKey()), "livenessProbe", pod.getValue()))
          .as("%s's liveness probe after the run", pod.getKey())
          .isTrue();
    }
    System.out.printf(
        "Rendered cluster test done %d s after rendering%n",
        (System.nanoTime() - start) / 1_000_000_000);
  }

  /**
   * Broker {@code name} of the StatefulSet as a Pod: its template with what the StatefulSet
   * controller and the kubelet add. Annotations are left out: podman 4.3 applies the 63-character
   * label limit to annotation values and rejects the config checksum.
   */
  /** A Secret as a ConfigMap of the same name and files (see where the token's is played). */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> secretAsConfigMap(Map<String, Object> secret) {
    Map<String, Object> data = new LinkedHashMap<>();
    ((Map<String, Object>) secret.get("data"))
        .forEach(
            (key, value) ->
                data.put(
                    key,
                    new String(
                        java.util.Base64.getDecoder().decode(value.toString()),
                        java.nio.charset.StandardCharsets.UTF_8)));
    Map<String, Object> configMap = new LinkedHashMap<>();
    configMap.put("apiVersion", "v1");
    configMap.put("kind", "ConfigMap");
    configMap.put("metadata", Map.of("name", at(secret, "metadata.name")));
    configMap.put("data", data);
    return configMap;
  }

  private static Map<String, Object> pod(
      Map<String, Object> statefulSet,
      String name,
      String headless,
      Map<String, String> addresses) {
    Map<String, Object> template = deepCopy(at(statefulSet, "spec.template"));
    Map<String, Object> templateMetadata = at(template, "metadata");
    Map<String, Object> labels = new LinkedHashMap<>(at(templateMetadata, "labels"));
    labels.put("apps.kubernetes.io/pod-index", name.substring(name.lastIndexOf('-') + 1));
    labels.put("statefulset.kubernetes.io/pod-name", name);
    Map<String, Object> spec = at(template, "spec");
    spec.put("hostname", name);
    spec.put("subdomain", headless);
    asPlayable(spec, name, headless, addresses);
    return asPod(name, labels, spec);
  }

  /** Pod {@code name} of the standalone gateway's Deployment, as its ReplicaSet would make it. */
  private static Map<String, Object> gatewayPod(
      Map<String, Object> deployment, String name, String headless, Map<String, String> addresses) {
    Map<String, Object> template = deepCopy(at(deployment, "spec.template"));
    Map<String, Object> labels = new LinkedHashMap<>(at(template, "metadata.labels"));
    Map<String, Object> spec = at(template, "spec");
    spec.put("hostname", name);
    asPlayable(spec, name, headless, addresses);
    return asPod(name, labels, spec);
  }

  private static Map<String, Object> asPod(
      String name, Map<String, Object> labels, Map<String, Object> spec) {
    Map<String, Object> pod = new LinkedHashMap<>();
    pod.put("apiVersion", "v1");
    pod.put("kind", "Pod");
    pod.put("metadata", new LinkedHashMap<>(Map.of("name", name, "labels", labels)));
    pod.put("spec", spec);
    return pod;
  }

  /**
   * What Kubernetes adds to pod {@code name}'s spec and what podman 4.3 needs: the brokers'
   * headless DNS names, per-pod emptyDir names, $(VAR) expansion, no ports (probes by number) and
   * no affinity or zone spread.
   */
  @SuppressWarnings("unchecked")
  private static void asPlayable(
      Map<String, Object> spec, String name, String headless, Map<String, String> addresses) {
    List<Map<String, Object>> aliases = new ArrayList<>();
    addresses.forEach(
        (pod, ip) ->
            aliases.add(
                Map.of(
                    "ip",
                    ip,
                    "hostnames",
                    List.of(pod + "." + headless + "." + Charts.NAMESPACE + ".svc"))));
    spec.put("hostAliases", aliases);
    // podman places pods on this one machine: anti-affinity has no meaning there.
    spec.remove("affinity");
    spec.remove("topologySpreadConstraints");
    Map<String, String> fields = Map.of("metadata.name", name);
    // podman 4.3 turns an emptyDir into a named volume of the volume's name, shared by every pod
    // that names one alike: give each pod its own (removed with the test's pods).
    for (Object volume : (List<?>) spec.get("volumes")) {
      Map<String, Object> v = (Map<String, Object>) volume;
      boolean secret = v.containsKey("secret");
      if (secret) {
        Map<String, Object> configMap =
            new LinkedHashMap<>((Map<String, Object>) v.remove("secret"));
        configMap.put("name", configMap.remove("secretName"));
        v.put("configMap", configMap);
      }
      if (v.containsKey("emptyDir") || secret) {
        v.put("name", name + "-" + v.get("name"));
      }
    }
    for (Object container : (List<?>) spec.get("containers")) {
      for (Object mount : (List<?>) ((Map<?, ?>) container).get("volumeMounts")) {
        Map<String, Object> m = (Map<String, Object>) mount;
        if (!m.get("name").equals("config")) {
          m.put("name", name + "-" + m.get("name"));
        }
      }
      expandEnvironment(at(container, "env"), fields);
      // podman 4.3 publishes every containerPort on the host (pods would collide, and with any
      // other 9600 here), so the ports go; the probes stay, their named ports resolved to numbers
      // as the kubelet resolves them against the rendered ports (a name that is not there fails
      // here). podman 4.3 runs no readiness or startup probe, and a liveness probe only through
      // curl in the image and systemd timers: the test runs every rendered probe itself, as the
      // kubelet would (see probe()).
      Map<String, Object> rendered = (Map<String, Object>) container;
      List<Map<String, Object>> ports = (List<Map<String, Object>>) rendered.remove("ports");
      for (String key : PROBES) {
        if (rendered.get(key) instanceof Map<?, ?> probe
            && probe.get("httpGet") instanceof Map<?, ?> get
            && get.get("port") instanceof String portName) {
          Map<String, Object> httpGet = (Map<String, Object>) get;
          Object number =
              ports.stream()
                  .filter(p -> portName.equals(p.get("name")))
                  .map(p -> p.get("containerPort"))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new AssertionError(
                              key + " names port " + portName + ", not in " + ports));
          httpGet.put("port", number);
        }
      }
    }
  }

  private static final List<String> PROBES =
      List.of("startupProbe", "readinessProbe", "livenessProbe");

  /**
   * Runs a rendered probe against the pod at {@code ip} as the kubelet does: GET on its scheme,
   * port and path, answered within its timeoutSeconds (default 1), success being 200 to 399.
   */
  private static boolean probe(Map<String, Object> container, String key, String ip) {
    Map<String, Object> probe = at(container, key);
    Map<String, Object> httpGet = at(probe, "httpGet");
    assertThat(httpGet).as("%s of %s", key, container.get("name")).isNotNull();
    int timeout = ((Number) probe.getOrDefault("timeoutSeconds", 1)).intValue();
    URI uri =
        URI.create(
            httpGet.getOrDefault("scheme", "HTTP").toString().toLowerCase(java.util.Locale.ROOT)
                + "://"
                + ip
                + ":"
                + httpGet.get("port")
                + httpGet.get("path"));
    try {
      int status =
          HTTP.send(
                  HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(timeout)).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode();
      return status >= 200 && status < 400;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The pod passes its rendered probes as the kubelet would run them: the startup probe (when there
   * is one) within its periodSeconds times failureThreshold; then readiness; and liveness, which
   * the kubelet starts once startup has passed, at once.
   */
  private static void passesItsProbes(String pod, Map<String, Object> container, String ip) {
    Map<String, Object> startup = at(container, "startupProbe");
    if (startup != null) {
      long budget =
          ((Number) startup.getOrDefault("periodSeconds", 10)).longValue()
              * ((Number) startup.getOrDefault("failureThreshold", 3)).longValue();
      await(pod + "'s startup probe")
          .atMost(Duration.ofSeconds(Math.min(budget, 240)))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> probe(container, "startupProbe", ip));
    }
    await(pod + "'s readiness probe")
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> probe(container, "readinessProbe", ip));
    assertThat(probe(container, "livenessProbe", ip)).as("%s's liveness probe", pod).isTrue();
  }

  private void play(Path file, String pod, String container, String ip) throws Exception {
    pods.put(pod, container);
    Podman.Result play =
        Podman.podman("kube", "play", "--network", network, "--ip", ip, file.toString());
    assertThat(play.code()).as("podman kube play %s:\n%s", file, play.output()).isZero();
  }

  /** Kubernetes' $(VAR) expansion of env values from the variables defined before them. */
  private static void expandEnvironment(List<Map<String, Object>> env, Map<String, String> fields) {
    Map<String, String> defined = new LinkedHashMap<>();
    for (Map<String, Object> variable : env) {
      String name = variable.get("name").toString();
      Object value = variable.get("value");
      if (value != null) {
        Matcher matcher = VARIABLE.matcher(value.toString());
        StringBuilder expanded = new StringBuilder();
        while (matcher.find()) {
          String replacement = defined.getOrDefault(matcher.group(1), matcher.group());
          matcher.appendReplacement(expanded, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(expanded);
        variable.put("value", expanded.toString());
        defined.put(name, expanded.toString());
      } else {
        Object fieldPath = at(variable, "valueFrom.fieldRef.fieldPath");
        if (fieldPath != null && fields.containsKey(fieldPath.toString())) {
          defined.put(name, fields.get(fieldPath.toString()));
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> T deepCopy(T node) {
    if (node instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(k, deepCopy(v)));
      return (T) copy;
    }
    if (node instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(v -> copy.add(deepCopy(v)));
      return (T) copy;
    }
    return node;
  }
}
