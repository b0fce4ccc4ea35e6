package io.tern.engine.exporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.protocol.record.Record;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/**
 * The 8.6 question (docs/exporters.md): an exporter built against the exporter API 8.6 calls {@code
 * Context.getPartitionId()}, {@code getMeterRegistry()} and {@code clock()} through the interface.
 * The broker ships both APIs in one multi-release jar (module exporter-api): 8.3.5 for JDK 17-20,
 * 8.6.12 (Java 21 bytecode) for JDK 21+, where Tern's {@link ExporterContext} (compiled against
 * 8.3) answers those calls. The plain 8.6 jar, to compile the test's exporter against, is copied by
 * the build to {@code target/exporter-api}.
 */
class ExporterApi86Test {
  private static final Path API_86 =
      Path.of("target", "exporter-api", "zeebe-exporter-api-8.6.jar");

  private static final String MODERN =
      """
      package acme;
      public class Modern implements io.camunda.zeebe.exporter.api.Exporter {
        public volatile String seen;
        public void configure(io.camunda.zeebe.exporter.api.context.Context context) {
          seen = "partition=" + context.getPartitionId()
              + " registry=" + context.getMeterRegistry()
              + " clock=" + (context.clock() != null);
        }
        public void export(io.camunda.zeebe.protocol.record.Record<?> record) {}
      }
      """;

  @TempDir Path dir;

  @Test
  void anExporterBuiltAgainstTheApi86RunsOnTernsContextWhenThatApiIsThere() throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "the exporter API 8.6 is Java 21 bytecode");
    assertThat(API_86).as("copied by the engine's build (maven-dependency-plugin)").exists();
    Path jar = modernExporter(dir);

    // A broker's class path with the 8.6 API in place of 8.3.5: Tern's classes, as compiled.
    List<URL> brokerClassPath = new ArrayList<>();
    for (Path path :
        List.of(
            ExporterJars.location(ExporterLoader.class),
            brokersApiJar(),
            ExporterJars.location(Record.class),
            ExporterJars.location(Logger.class),
            ExporterJars.location(MeterRegistry.class),
            ExporterJars.location(io.micrometer.common.KeyValue.class),
            ExporterJars.location(com.fasterxml.jackson.databind.ObjectMapper.class),
            ExporterJars.location(com.fasterxml.jackson.core.JsonParser.class),
            ExporterJars.location(com.fasterxml.jackson.annotation.JsonAutoDetect.class))) {
      brokerClassPath.add(url(path));
    }
    try (URLClassLoader broker =
        new URLClassLoader(
            "broker-with-api-8.6",
            brokerClassPath.toArray(URL[]::new),
            ClassLoader.getPlatformClassLoader())) {
      Class<?> descriptorType = broker.loadClass(ExporterDescriptor.class.getName());
      Class<?> loaderType = broker.loadClass(ExporterLoader.class.getName());
      Object descriptor =
          descriptorType
              .getConstructor(String.class, String.class, Path.class, Map.class)
              .newInstance("modern", "acme.Modern", jar, Map.of());
      Object loader =
          loaderType
              .getConstructor(
                  int.class, broker.loadClass(MeterRegistry.class.getName()), InstantSource.class)
              .newInstance(7, null, InstantSource.system());
      Object loaded;
      try {
        loaded = loaderType.getMethod("load", descriptorType).invoke(loader, descriptor);
      } catch (InvocationTargetException e) {
        throw new AssertionError("the exporter did not load: " + e.getCause(), e.getCause());
      }
      Object exporter = loaded.getClass().getMethod("exporter").invoke(loaded);
      assertThat(exporter.getClass().getField("seen").get(exporter))
          .isEqualTo("partition=7 registry=null clock=true");
      assertThat(
              broker
                  .loadClass("io.camunda.zeebe.exporter.api.context.Context")
                  .getMethod("getPartitionId"))
          .as("the 8.6 Context, not 8.3.5's")
          .isNotNull();
      loaded.getClass().getMethod("close").invoke(loaded);
    }
  }

  /** On JDK 21+ the broker's own class path offers the 8.6 API: the exporter runs as it is. */
  @Test
  void onJava21TheBrokersOwnClassPathRunsAnExporterBuiltAgainstTheApi86() throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "the exporter API 8.6 is Java 21 bytecode");
    assertThat(runModernExporter(dir)).isEqualTo("partition=7 registry=null clock=true");
  }

  /**
   * The same on a JDK 21+ found beside the JDK 17-20 that runs the build (temurin-25 here), in a
   * child JVM with this JVM's class path, so a build on JDK 17 checks the shipped jar on 21+ too.
   */
  @Test
  void aJava21PlusChildJvmRunsTheExporterOnTheShippedJar() throws Exception {
    assumeTrue(Runtime.version().feature() < 21, "this JVM runs the test above itself");
    brokersApiJar();
    Optional<Path> java = newerJava();
    assumeTrue(java.isPresent(), "no JDK 21+ under /usr/lib/jvm or in TERN_TEST_JDK21_HOME");
    Process child =
        new ProcessBuilder(
                java.get().toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ExporterApi86Test.class.getName(),
                dir.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(output)
        .as("the child on " + java.get())
        .contains(CHILD_SAW + "partition=7 registry=null clock=true");
  }

  private static final String CHILD_SAW = "the modern exporter saw: ";

  /** The child JVM's entry point: {@code args[0]} is a directory to build the exporter in. */
  public static void main(String[] args) throws Exception {
    System.out.println(CHILD_SAW + runModernExporter(Path.of(args[0])));
  }

  /**
   * Builds the 8.6 exporter under {@code dir}, loads it as a broker does, and returns what it saw.
   */
  private static String runModernExporter(Path dir) throws Exception {
    LoadedExporter loaded =
        new ExporterLoader(7, null, InstantSource.system())
            .load(new ExporterDescriptor("modern", "acme.Modern", modernExporter(dir), Map.of()));
    try {
      Object exporter = loaded.exporter();
      return String.valueOf(exporter.getClass().getField("seen").get(exporter));
    } finally {
      loaded.close();
    }
  }

  /** A JDK 21+ other than this one: TERN_TEST_JDK21_HOME, or the newest under /usr/lib/jvm. */
  private static Optional<Path> newerJava() throws IOException {
    List<Path> homes = new ArrayList<>();
    String configured = System.getenv("TERN_TEST_JDK21_HOME");
    if (configured != null && !configured.isBlank()) {
      homes.add(Path.of(configured));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (var list = Files.list(jvms)) {
        list.sorted(Comparator.reverseOrder()).forEach(homes::add);
      }
    }
    for (Path home : homes) {
      Path java = home.resolve("bin").resolve("java");
      if (Files.isExecutable(java) && featureVersion(home) >= 21) {
        return Optional.of(java);
      }
    }
    return Optional.empty();
  }

  /** The JAVA_VERSION of a JDK's {@code release} file ("25.0.1" is 25), or 0. */
  private static int featureVersion(Path home) throws IOException {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return 0;
    }
    for (String line : Files.readAllLines(release)) {
      Matcher version = Pattern.compile("^JAVA_VERSION=\"(\\d+)").matcher(line);
      if (version.find()) {
        return Integer.parseInt(version.group(1));
      }
    }
    return 0;
  }

  /**
   * The jar the broker ships holds both APIs, and each JVM sees the one for its version: 8.3's
   * Context (no getPartitionId) on JDK 17-20, 8.6's on JDK 21+.
   */
  @Test
  void theBrokersApiJarOffersApi83BelowJava21AndApi86FromIt() throws Exception {
    Path api = brokersApiJar();
    try (JarFile jar = new JarFile(api.toFile())) {
      assertThat(jar.isMultiRelease()).as("Multi-Release: true in " + api).isTrue();
      assertThat(jar.getEntry("io/camunda/zeebe/exporter/api/context/Context.class")).isNotNull();
      assertThat(
              jar.getEntry(
                  "META-INF/versions/21/io/camunda/zeebe/exporter/api/context/Context.class"))
          .isNotNull();
    }
    boolean api86 =
        Arrays.stream(Context.class.getMethods()).anyMatch(m -> m.getName().equals("clock"));
    assertThat(api86)
        .as("the 8.6 Context on Java " + Runtime.version().feature())
        .isEqualTo(Runtime.version().feature() >= 21);
    assertThat(ExporterProblems.apiVersion()).isEqualTo("8.3.5 on Java 17-20, 8.6.12 on Java 21+");
  }

  /** The exporter API jar on this JVM's class path: the broker's, built by module exporter-api. */
  private static Path brokersApiJar() {
    Path api = ExporterJars.location(Exporter.class);
    assumeTrue(
        api.toString().endsWith(".jar"),
        "the exporter API comes from a jar once module exporter-api is packaged, not " + api);
    return api;
  }

  private static Path modernExporter(Path dir) throws Exception {
    return ExporterJars.in(dir)
        .release(21)
        .classPath(
            List.of(
                API_86,
                ExporterJars.location(Record.class),
                ExporterJars.location(Logger.class),
                ExporterJars.location(MeterRegistry.class),
                ExporterJars.location(io.micrometer.common.KeyValue.class)))
        .source(MODERN)
        .build("modern");
  }

  private static URL url(Path path) {
    try {
      return path.toAbsolutePath().toUri().toURL();
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }
}
