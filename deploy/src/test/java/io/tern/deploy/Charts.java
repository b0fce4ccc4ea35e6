package io.tern.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Renders the charts with embedded Helm (helm-java: no helm binary) and validates what they render
 * against the JSON schemas kept in src/test/resources/schemas: Kubernetes 1.30's (the "strict"
 * variant, where unknown fields fail) and the CRDs' (made strict here the same way).
 */
final class Charts {
  static final Path TERN = Podman.ROOT.resolve("charts/tern");
  static final Path BENCHMARK = Podman.ROOT.resolve("charts/tern-benchmark");
  static final String NAMESPACE = "tern-test";

  /** The image every rendering names unless a test sets another: pushed, as docs/deploy.md says. */
  static final String IMAGE_REPOSITORY = "europe-west1-docker.pkg.dev/tern-test/tern/tern";

  static final String IMAGE_TAG = "0.1.0";

  /** The Kubernetes version the charts declare (kubeVersion) and the schemas are of. */
  static final String KUBE_VERSION = "1.30.0";

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final SchemaRegistry SCHEMAS =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7);
  private static final Map<String, Schema> LOADED = new ConcurrentHashMap<>();

  /** Schema file of each kind the charts may render, by apiVersion and kind. */
  private static final Map<String, String> SCHEMA_FILES =
      Map.ofEntries(
          Map.entry("apps/v1 StatefulSet", "kubernetes-1.30/statefulset-apps-v1.json.gz"),
          Map.entry("apps/v1 Deployment", "kubernetes-1.30/deployment-apps-v1.json.gz"),
          Map.entry("v1 Service", "kubernetes-1.30/service-v1.json.gz"),
          Map.entry("v1 ConfigMap", "kubernetes-1.30/configmap-v1.json.gz"),
          Map.entry("v1 Secret", "kubernetes-1.30/secret-v1.json.gz"),
          Map.entry(
              "networking.k8s.io/v1 NetworkPolicy",
              "kubernetes-1.30/networkpolicy-networking-v1.json.gz"),
          Map.entry("v1 ServiceAccount", "kubernetes-1.30/serviceaccount-v1.json.gz"),
          Map.entry("v1 Pod", "kubernetes-1.30/pod-v1.json.gz"),
          Map.entry("v1 PersistentVolumeClaim", "kubernetes-1.30/persistentvolumeclaim-v1.json.gz"),
          Map.entry(
              "policy/v1 PodDisruptionBudget",
              "kubernetes-1.30/poddisruptionbudget-policy-v1.json.gz"),
          Map.entry("batch/v1 CronJob", "kubernetes-1.30/cronjob-batch-v1.json.gz"),
          Map.entry("batch/v1 Job", "kubernetes-1.30/job-batch-v1.json.gz"),
          Map.entry("monitoring.coreos.com/v1 ServiceMonitor", "crds/servicemonitor_v1.json.gz"),
          Map.entry("monitoring.googleapis.com/v1 PodMonitoring", "crds/podmonitoring_v1.json.gz"),
          Map.entry("chaos-mesh.org/v1alpha1 NetworkChaos", "crds/networkchaos_v1alpha1.json.gz"));

  private Charts() {}

  /** A rendering: the chart, its values files and --set values. */
  static final class Render {
    private final Path chart;
    private final List<Path> valuesFiles = new ArrayList<>();
    private final Map<String, Object> sets = new LinkedHashMap<>();
    private String release = "tern";

    private Render(Path chart) {
      this.chart = chart;
      // helm-java's template asks a cluster for lookup (helm template answers it empty): the
      // management Secret skips its lookup here, and makes a new token as on a first install.
      sets.put((chart.equals(BENCHMARK) ? "tern." : "") + "management.token.keepExisting", false);
      // The charts refuse to render without an image a cluster can pull (global.image).
      sets.put("global.image.repository", IMAGE_REPOSITORY);
      sets.put("global.image.tag", IMAGE_TAG);
    }

    Render values(Path file) {
      valuesFiles.add(file);
      return this;
    }

    Render set(String key, Object value) {
      sets.put(key, value);
      return this;
    }

    Render release(String name) {
      release = name;
      return this;
    }

    /** The rendered YAML. */
    String yaml() {
      TemplateCommand template =
          new Helm(chart)
              .template()
              .withName(release)
              .withNamespace(NAMESPACE)
              .withKubeVersion(KUBE_VERSION);
      valuesFiles.forEach(template::withValuesFile);
      sets.forEach(template::set);
      return template.call();
    }

    /** The rendered manifests, each validated against its schema. */
    Manifests manifests() {
      return manifests(null);
    }

    /**
     * The rendered manifests, each validated against its schema; the YAML is also written to
     * target/rendered/{@code saveAs} (when not null) for a person to read.
     */
    Manifests manifests(String saveAs) {
      String yaml = yaml();
      if (saveAs != null) {
        try {
          Path file = Path.of("target/rendered").resolve(saveAs);
          Files.createDirectories(file.getParent());
          Files.writeString(file, yaml);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      List<Map<String, Object>> documents = new ArrayList<>();
      Load load = new Load(LoadSettings.builder().build());
      for (Object document : load.loadAllFromString(yaml)) {
        if (document != null) {
          @SuppressWarnings("unchecked")
          Map<String, Object> manifest = (Map<String, Object>) document;
          validate(manifest);
          documents.add(manifest);
        }
      }
      return new Manifests(documents);
    }
  }

  static Render render(Path chart) {
    dependencies(chart);
    return new Render(chart);
  }

  private static final Map<Path, Boolean> DEPENDENCIES_BUILT = new ConcurrentHashMap<>();

  /**
   * Packs a chart's local dependencies into its charts/ directory (git ignores it) once per JVM,
   * from the working tree: the benchmark chart then renders the tern chart as it is.
   */
  static void dependencies(Path chart) {
    if (chart.equals(BENCHMARK)) {
      DEPENDENCIES_BUILT.computeIfAbsent(
          chart,
          c -> {
            new Helm(c).dependency().update().skipRefresh().call();
            return true;
          });
    }
  }

  /**
   * The chart's values files (values.yaml and every values-*.yaml), sorted, for parameterized
   * tests; fails unless the {@code expected} ones are among them, so that a renamed file cannot
   * silently drop out of the tests.
   */
  static Stream<String> valuesFiles(Path chart, String... expected) {
    try (Stream<Path> files = Files.list(chart)) {
      List<String> names =
          files
              .map(f -> f.getFileName().toString())
              .filter(n -> n.startsWith("values") && n.endsWith(".yaml"))
              .sorted()
              .toList();
      assertThat(names).contains(expected);
      return names.stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * helm lint --strict: no warning or error. helm-java's lint takes no values, and the charts
   * refuse to render without an image (global.image): the lint runs on a copy of the chart whose
   * values.yaml names one, as an operator's --set would.
   */
  static void lintStrictly(Path chart) {
    dependencies(chart);
    Path copy = Path.of("target/lint").resolve(chart.getFileName());
    try {
      if (Files.exists(copy)) {
        try (Stream<Path> old = Files.walk(copy)) {
          old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
      try (Stream<Path> files = Files.walk(chart)) {
        for (Path file : files.toList()) {
          Path target = copy.resolve(chart.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(target);
          } else {
            // The dashboard is a link out of the chart (to dashboards/): copied as its content.
            Files.copy(file, target);
          }
        }
      }
      Path values = copy.resolve("values.yaml");
      String text = Files.readString(values);
      String withImage =
          text.replaceFirst(
                  "(?m)^(global:\\n  image:\\n(?:    #.*\\n)*)    repository: \"\"",
                  "$1    repository: " + IMAGE_REPOSITORY)
              .replaceFirst("(?m)^    tag: \"\"", "    tag: \"" + IMAGE_TAG + "\"");
      assertThat(withImage).as("global.image in %s", values).contains(IMAGE_REPOSITORY);
      Files.writeString(values, withImage);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    LintResult lint = new Helm(copy).lint().strict().call();
    assertThat(lint.isFailed())
        .as("helm lint --strict %s: %s", chart, lint.getMessages())
        .isFalse();
    assertThat(lint.getMessages())
        .as("helm lint --strict %s", chart)
        .noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
  }

  /** Fails unless the manifest matches its kind's schema exactly (unknown fields fail). */
  static void validate(Map<String, Object> manifest) {
    String key = manifest.get("apiVersion") + " " + manifest.get("kind");
    String file = SCHEMA_FILES.get(key);
    assertThat(file).as("a schema for %s (%s)", key, name(manifest)).isNotNull();
    Schema schema = LOADED.computeIfAbsent(file, Charts::load);
    JsonNode node = JSON.valueToTree(manifest);
    List<Error> errors = schema.validate(node);
    assertThat(errors)
        .as("%s %s against %s:\n%s", key, name(manifest), file, node.toPrettyString())
        .isEmpty();
  }

  static String name(Map<String, Object> manifest) {
    Object metadata = manifest.get("metadata");
    return metadata instanceof Map<?, ?> m ? String.valueOf(m.get("name")) : "(no name)";
  }

  private static Schema load(String file) {
    try (InputStream in =
        new GZIPInputStream(
            Objects.requireNonNull(
                Charts.class.getResourceAsStream("/schemas/" + file), "schema " + file))) {
      JsonNode node = JSON.readTree(in);
      // "http://json-schema.org/schema#" (any draft) names no dialect the validator knows; the
      // schemas use nothing that differs between draft 4 and draft 7.
      ((ObjectNode) node).remove("$schema");
      if (file.startsWith("crds/")) {
        strict(node);
        goDurations(node);
        // The CRD schemas point at Kubernetes' ObjectMeta in a file of their catalog; take it from
        // the Kubernetes schemas kept here.
        ((ObjectNode) node.get("properties")).set("metadata", objectMeta());
      }
      return SCHEMAS.getSchema(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode objectMeta() {
    try (InputStream in =
        new GZIPInputStream(
            Objects.requireNonNull(
                Charts.class.getResourceAsStream(
                    "/schemas/kubernetes-1.30/configmap-v1.json.gz")))) {
      return JSON.readTree(in).get("properties").get("metadata");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Drops {@code format: duration} from a CRD schema: to Kubernetes it is a Go duration ("30s"), to
   * JSON Schema an ISO 8601 one ("PT30S"), so the validator would refuse what the API server
   * accepts. The CRDs' own patterns, where they have them, still apply.
   */
  static void goDurations(JsonNode node) {
    if (node instanceof ObjectNode object) {
      if ("duration".equals(object.path("format").asString(""))) {
        object.remove("format");
      }
      object.values().forEach(Charts::goDurations);
    } else if (node != null && node.isArray()) {
      node.values().forEach(Charts::goDurations);
    }
  }

  /**
   * Rejects unknown fields: every object schema with properties and no word on other fields gets
   * additionalProperties: false (what the Kubernetes "strict" schemas do; a CRD's structural schema
   * prunes unknown fields, which would otherwise hide a misspelt key).
   */
  static void strict(JsonNode node) {
    if (node instanceof ObjectNode object) {
      if (object.has("properties")
          && !object.has("additionalProperties")
          && !object.has("x-kubernetes-preserve-unknown-fields")) {
        object.put("additionalProperties", false);
      }
      object.values().forEach(Charts::strict);
    } else if (node != null && node.isArray()) {
      node.values().forEach(Charts::strict);
    }
  }
}
