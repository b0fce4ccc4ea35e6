package io.tern.deploy;

import static io.tern.deploy.Manifests.at;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every pod the charts render (brokers, gateways, rebalance jobs, starter, workers, the soak run
 * and its report server, the latency experiments' wait Job), with every values file and with the
 * optional parts on, passes the Pod Security Standard "restricted" profile's rules (Kubernetes
 * 1.30, what a namespace labelled pod-security.kubernetes.io/enforce=restricted admits), and what
 * this project asks beyond it: a read-only root filesystem with /tmp on an emptyDir, and volume
 * ownership changed only on a mismatch (large disks).
 */
class PodSecurityTest {

  /** The volume types the restricted profile allows. */
  private static final Set<String> ALLOWED_VOLUMES =
      Set.of(
          "configMap",
          "csi",
          "downwardAPI",
          "emptyDir",
          "ephemeral",
          "persistentVolumeClaim",
          "projected",
          "secret");

  static Stream<Arguments> renderings() {
    List<Arguments> all = new ArrayList<>();
    Charts.valuesFiles(Charts.TERN, "values.yaml")
        .forEach(f -> all.add(Arguments.of("tern " + f, tern().values(Charts.TERN.resolve(f)))));
    Charts.valuesFiles(Charts.BENCHMARK, "values.yaml", "values-latency-35ms.yaml")
        .forEach(
            f ->
                all.add(
                    Arguments.of(
                        "tern-benchmark " + f, benchmark().values(Charts.BENCHMARK.resolve(f)))));
    all.add(
        Arguments.of(
            "tern, every optional part",
            tern()
                .set("gateway.enabled", true)
                .set("persistence.type", "memory")
                .set("runtimeDirectory.tmpfs", true)
                .set("tls.cluster.enabled", true)
                .set("tls.cluster.secretName", "tern-cluster-tls")
                .set("broker.initContainers[0].name", "check")
                .set("broker.initContainers[0].image", "busybox:1.36")
                .set("broker.initContainers[0].securityContext.allowPrivilegeEscalation", false)
                .set("broker.initContainers[0].securityContext.readOnlyRootFilesystem", true)
                .set("broker.initContainers[0].securityContext.capabilities.drop[0]", "ALL")));
    all.add(
        Arguments.of(
            "tern-benchmark, the weekly soak and the latency experiment",
            benchmark()
                .values(Charts.BENCHMARK.resolve("values-latency-35ms.yaml"))
                .set("chaosMesh.hooks", false)
                .set("soak.enabled", true)));
    return all.stream();
  }

  private static Charts.Render tern() {
    return Charts.render(Charts.TERN);
  }

  private static Charts.Render benchmark() {
    return Charts.render(Charts.BENCHMARK);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("renderings")
  void everyPodIsRestricted(String name, Charts.Render render) {
    Manifests manifests = render.manifests();
    List<String> checked = new ArrayList<>();
    for (Map<String, Object> manifest : manifests.all()) {
      Map<String, Object> pod = podSpec(manifest);
      if (pod != null) {
        String what = manifest.get("kind") + "/" + Charts.name(manifest);
        assertThat(violations(pod)).as("%s in %s", what, name).isEmpty();
        checked.add(what);
      }
    }
    assertThat(checked).as(name).isNotEmpty();
  }

  @Test
  void theCheckFindsWhatTheProfileForbids() {
    Map<String, Object> statefulSet =
        tern().set("broker.netAdmin", true).manifests().one("StatefulSet");
    assertThat(violations(podSpec(statefulSet)))
        .containsExactly("container broker adds capability NET_ADMIN");
    Map<String, Object> loose =
        tern()
            .set("broker.podSecurityContext.seccompProfile", "null")
            .set("broker.securityContext.readOnlyRootFilesystem", false)
            .set("broker.securityContext.allowPrivilegeEscalation", "null")
            .manifests()
            .one("StatefulSet");
    assertThat(violations(podSpec(loose)))
        .contains(
            "container broker has no seccompProfile RuntimeDefault (nor has the pod)",
            "container broker does not set allowPrivilegeEscalation: false",
            "container broker has a writable root filesystem");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> podSpec(Map<String, Object> manifest) {
    return switch (String.valueOf(manifest.get("kind"))) {
      case "Pod" -> at(manifest, "spec");
      case "StatefulSet", "Deployment", "Job" -> at(manifest, "spec.template.spec");
      case "CronJob" -> at(manifest, "spec.jobTemplate.spec.template.spec");
      default -> null;
    };
  }

  /** What in a pod spec breaks the restricted profile (and this project's additions). */
  @SuppressWarnings("unchecked")
  static List<String> violations(Map<String, Object> pod) {
    List<String> found = new ArrayList<>();
    for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
      if (Boolean.TRUE.equals(pod.get(host))) {
        found.add("the pod sets " + host);
      }
    }
    Map<String, Object> podContext =
        (Map<String, Object>) pod.getOrDefault("securityContext", Map.of());
    if (podContext.get("sysctls") != null) {
      found.add("the pod sets sysctls");
    }
    Object podUser = podContext.get("runAsUser");
    if (podUser != null && ((Number) podUser).longValue() == 0) {
      found.add("the pod runs as uid 0");
    }
    String podSeccomp = seccomp(podContext);
    if ("Unconfined".equals(podSeccomp)) {
      found.add("the pod's seccompProfile is Unconfined");
    }
    boolean podNonRoot = Boolean.TRUE.equals(podContext.get("runAsNonRoot"));
    if (podContext.containsKey("fsGroup")
        && !"OnRootMismatch".equals(podContext.get("fsGroupChangePolicy"))) {
      found.add("the pod has an fsGroup without fsGroupChangePolicy: OnRootMismatch");
    }
    List<Map<String, Object>> volumes =
        (List<Map<String, Object>>) pod.getOrDefault("volumes", List.of());
    for (Map<String, Object> volume : volumes) {
      List<String> types = volume.keySet().stream().filter(k -> !k.equals("name")).toList();
      for (String type : types) {
        if (!ALLOWED_VOLUMES.contains(type)) {
          found.add("volume " + volume.get("name") + " is a " + type);
        }
      }
    }
    List<Map<String, Object>> containers = new ArrayList<>();
    containers.addAll((List<Map<String, Object>>) pod.getOrDefault("initContainers", List.of()));
    containers.addAll((List<Map<String, Object>>) pod.get("containers"));
    for (Map<String, Object> container : containers) {
      String name = "container " + container.get("name");
      Map<String, Object> context =
          (Map<String, Object>) container.getOrDefault("securityContext", Map.of());
      if (Boolean.TRUE.equals(context.get("privileged"))) {
        found.add(name + " is privileged");
      }
      if (!Boolean.FALSE.equals(context.get("allowPrivilegeEscalation"))) {
        found.add(name + " does not set allowPrivilegeEscalation: false");
      }
      Map<String, Object> capabilities =
          (Map<String, Object>) context.getOrDefault("capabilities", Map.of());
      List<String> drop = (List<String>) capabilities.getOrDefault("drop", List.of());
      if (!drop.contains("ALL")) {
        found.add(name + " does not drop ALL capabilities");
      }
      for (String added : (List<String>) capabilities.getOrDefault("add", List.of())) {
        if (!added.equals("NET_BIND_SERVICE")) {
          found.add(name + " adds capability " + added);
        }
      }
      String containerSeccomp = seccomp(context);
      if ("Unconfined".equals(containerSeccomp)
          || (containerSeccomp == null && podSeccomp == null)) {
        found.add(name + " has no seccompProfile RuntimeDefault (nor has the pod)");
      }
      Object nonRoot = context.get("runAsNonRoot");
      if (Boolean.FALSE.equals(nonRoot) || (nonRoot == null && !podNonRoot)) {
        found.add(name + " may run as root (runAsNonRoot)");
      }
      Object user = context.get("runAsUser");
      if (user != null && ((Number) user).longValue() == 0) {
        found.add(name + " runs as uid 0");
      }
      if (context.get("procMount") != null && !"Default".equals(context.get("procMount"))) {
        found.add(name + " sets procMount");
      }
      for (Map<String, Object> port :
          (List<Map<String, Object>>) container.getOrDefault("ports", List.of())) {
        if (port.get("hostPort") != null) {
          found.add(name + " uses a hostPort");
        }
      }
      if (!Boolean.TRUE.equals(context.get("readOnlyRootFilesystem"))) {
        found.add(name + " has a writable root filesystem");
      }
      // The project's own containers keep /tmp writable on an emptyDir (the JVM needs it).
      String image = String.valueOf(container.get("image"));
      if (image.startsWith(Charts.IMAGE_REPOSITORY)) {
        boolean tmp = false;
        for (Map<String, Object> mount :
            (List<Map<String, Object>>) container.getOrDefault("volumeMounts", List.of())) {
          if ("/tmp".equals(mount.get("mountPath"))) {
            tmp =
                volumes.stream()
                    .anyMatch(
                        v -> v.get("name").equals(mount.get("name")) && v.containsKey("emptyDir"));
          }
        }
        if (!tmp) {
          found.add(name + " has no emptyDir at /tmp");
        }
      }
    }
    return found;
  }

  @SuppressWarnings("unchecked")
  private static String seccomp(Map<String, Object> context) {
    Object profile = context.get("seccompProfile");
    return profile instanceof Map<?, ?> map
        ? String.valueOf(((Map<String, Object>) map).get("type"))
        : null;
  }
}
