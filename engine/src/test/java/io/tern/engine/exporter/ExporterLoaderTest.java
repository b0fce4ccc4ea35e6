package io.tern.engine.exporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exporters built into jars at test time are loaded, created and configured, or refused with a
 * message naming the exporter's id and the cause.
 */
class ExporterLoaderTest {
  private static final SimpleMeterRegistry REGISTRY = new SimpleMeterRegistry();
  private static final InstantSource CLOCK =
      InstantSource.fixed(Instant.parse("2026-01-02T03:04:05Z"));

  @TempDir Path dir;

  private final ExporterLoader loader = new ExporterLoader(3, REGISTRY, CLOCK);

  /** An exporter whose configure maps its args onto a class with private fields only. */
  static final String GOOD =
      """
      package acme;

      import io.camunda.zeebe.exporter.api.Exporter;
      import io.camunda.zeebe.exporter.api.context.Context;
      import io.camunda.zeebe.protocol.record.Record;
      import java.time.Duration;
      import java.util.List;

      public class GoodExporter implements Exporter {
        public static class Config {
          private String url = "unset";
          private int bulkSize;
          private Duration timeout;
          private Inner nested;
          private Mode mode = Mode.SLOW;
          public String url() { return url; }
        }
        public static class Inner {
          private int size;
          private List<String> names;
        }
        public enum Mode { SLOW, FAST }

        public volatile String seen;
        public volatile Context context;
        public volatile ClassLoader contextLoader;

        @Override
        public void configure(Context context) {
          Config config = context.getConfiguration().instantiate(Config.class);
          this.context = context;
          this.contextLoader = Thread.currentThread().getContextClassLoader();
          seen = "id=" + context.getConfiguration().getId()
              + " url=" + config.url()
              + " bulkSize=" + config.bulkSize
              + " timeout=" + config.timeout
              + " size=" + config.nested.size
              + " names=" + config.nested.names
              + " mode=" + config.mode
              + " logger=" + context.getLogger().getName();
        }

        @Override
        public void export(Record<?> record) {}
      }
      """;

  @Test
  void aGoodExporterGetsItsArgsWithPropertyNamesInAnyCase() throws Exception {
    Path jar = ExporterJars.in(dir).source(GOOD).build("good");
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("URL", "http://localhost:9200");
    args.put("bulksize", "7"); // as an environment variable gives it: text
    args.put("timeout", "PT5S");
    args.put("Nested", Map.of("SIZE", 3, "names", List.of("a", "b")));
    args.put("mode", "fast");
    args.put("unknown", "ignored");

    try (LoadedExporter loaded =
        loader.load(new ExporterDescriptor("good", "acme.GoodExporter", jar, args))) {
      assertThat(field(loaded, "seen"))
          .isEqualTo(
              "id=good url=http://localhost:9200 bulkSize=7 timeout=PT5S size=3 names=[a, b]"
                  + " mode=FAST logger=io.tern.exporter.good");
      assertThat(loaded.exporter().getClass().getClassLoader())
          .isInstanceOf(ExporterClassLoader.class)
          .isSameAs(loaded.classLoader())
          .isSameAs(field(loaded, "contextLoader"));
      assertThat(loaded.context()).isSameAs(field(loaded, "context"));
      assertThat(loaded.context().getPartitionId()).isEqualTo(3);
      assertThat(loaded.context().getMeterRegistry()).isSameAs(REGISTRY);
      assertThat(loaded.context().clock()).isSameAs(CLOCK);
      assertThat(Thread.currentThread().getContextClassLoader())
          .as("restored after configure")
          .isNotSameAs(loaded.classLoader());
      ClassLoader duringCall =
          loaded.call(exporter -> Thread.currentThread().getContextClassLoader());
      assertThat(duringCall).as("every call into the exporter").isSameAs(loaded.classLoader());
      assertThat(Thread.currentThread().getContextClassLoader()).isNotSameAs(loaded.classLoader());
    }
  }

  @Test
  void argsThatDoNotFitTheConfigurationNameTheProperty() throws Exception {
    Path jar = ExporterJars.in(dir).source(GOOD).build("good");
    assertThatThrownBy(
            () ->
                loader.load(
                    new ExporterDescriptor(
                        "good", "acme.GoodExporter", jar, Map.of("bulkSize", "many"))))
        .isInstanceOf(ExporterLoadException.class)
        .hasMessageStartingWith(
            "exporter 'good': configure threw java.lang.IllegalArgumentException")
        .hasMessageContaining("bulkSize")
        .hasMessageContaining("many");
  }

  @Test
  void anExceptionOfConfigureIsNamedWithItsMessage() throws Exception {
    Path jar =
        ExporterJars.in(dir)
            .source(
                """
                package acme;
                public class Throwing implements io.camunda.zeebe.exporter.api.Exporter {
                  public void configure(io.camunda.zeebe.exporter.api.context.Context context) {
                    throw new IllegalStateException("no url given");
                  }
                  public void export(io.camunda.zeebe.protocol.record.Record<?> record) {}
                }
                """)
            .build("throwing");
    assertThatThrownBy(() -> loader.load(descriptor("bad", "acme.Throwing", jar)))
        .isInstanceOf(ExporterLoadException.class)
        .hasMessage(
            "exporter 'bad': configure threw java.lang.IllegalStateException: no url given");
  }

  @Test
  void aClassThatIsNotAnExporterIsRefused() throws Exception {
    Path jar = ExporterJars.in(dir).source("package acme; public class Plain {}").build("plain");
    assertThatThrownBy(() -> loader.load(descriptor("plain", "acme.Plain", jar)))
        .hasMessage(
            "exporter 'plain': class acme.Plain is not an exporter: it does not implement"
                + " io.camunda.zeebe.exporter.api.Exporter");
  }

  @Test
  void anExporterWithoutAPublicNoArgConstructorIsRefused() throws Exception {
    Path jar =
        ExporterJars.in(dir)
            .source(
                """
                package acme;
                public class NeedsUrl implements io.camunda.zeebe.exporter.api.Exporter {
                  public NeedsUrl(String url) {}
                  public void export(io.camunda.zeebe.protocol.record.Record<?> record) {}
                }
                """)
            .build("needs-url");
    assertThatThrownBy(() -> loader.load(descriptor("nourl", "acme.NeedsUrl", jar)))
        .hasMessage("exporter 'nourl': class acme.NeedsUrl has no public no-arg constructor");
  }

  @Test
  void aMissingOrUnreadableJarIsNamedWithItsKey() throws IOException {
    Path missing = dir.resolve("missing.jar");
    assertThatThrownBy(() -> loader.load(descriptor("gone", "acme.X", missing)))
        .hasMessage("exporter 'gone': jar " + missing + " not found (exporters.gone.jarPath)");

    Path text = Files.writeString(dir.resolve("text.jar"), "not a jar");
    assertThatThrownBy(() -> loader.load(descriptor("text", "acme.X", text)))
        .hasMessageStartingWith(
            "exporter 'text': jar " + text + " cannot be read as a jar (exporters.text.jarPath)");

    assertThatThrownBy(() -> loader.load(descriptor("folder", "acme.X", dir)))
        .hasMessage(
            "exporter 'folder': jar " + dir + " is not a readable file (exporters.folder.jarPath)");
  }

  @Test
  void aMissingClassOrClassNameIsNamed() throws Exception {
    Path jar = ExporterJars.in(dir).source(GOOD).build("good");
    assertThatThrownBy(() -> loader.load(descriptor("typo", "acme.GodExporter", jar)))
        .hasMessage("exporter 'typo': class acme.GodExporter not found in " + jar);
    assertThatThrownBy(() -> loader.load(descriptor("cp", "acme.GoodExporter", null)))
        .hasMessage(
            "exporter 'cp': class acme.GoodExporter not found on the broker's class path"
                + " (exporters.cp.jarPath is not set)");
    assertThatThrownBy(() -> loader.load(descriptor("nameless", null, jar)))
        .hasMessage("exporter 'nameless': no class name: set exporters.nameless.className");
  }

  @Test
  void anExporterOnTheBrokersClassPathNeedsNoJar() throws Exception {
    try (LoadedExporter loaded =
        loader.load(descriptor("local", ClassPathExporter.class.getName(), null))) {
      ClassPathExporter exporter = (ClassPathExporter) loaded.exporter();
      assertThat(exporter.context).isSameAs(loaded.context());
      assertThat(exporter.contextLoader).isSameAs(ExporterLoader.class.getClassLoader());
    }
  }

  @Test
  void aClassForANewerJavaNamesTheJavaItNeedsAndTheOneRunning() throws Exception {
    Path jar = ExporterJars.in(dir).source(GOOD).build("good");
    int running = Runtime.version().feature();
    Path newer = withClassFileVersion(jar, "acme/GoodExporter.class", running + 1 + 44);
    assertThatThrownBy(() -> loader.load(descriptor("future", "acme.GoodExporter", newer)))
        .hasMessageStartingWith(
            "exporter 'future': class acme.GoodExporter needs Java "
                + (running + 1)
                + " (class file version "
                + (running + 45)
                + "), but this broker runs on Java "
                + running
                + " (")
        .hasMessageContaining("build the exporter for Java " + running);
  }

  /**
   * An exporter built against the exporter API 8.5 or 8.6 calls {@code Context.getPartitionId()}
   * through the interface; with the 8.3 API on the class path that is a {@code NoSuchMethodError},
   * which must become a configuration error naming the API. The exporter is compiled against a
   * stand-in of the newer {@code Context} (left out of its jar).
   */
  @Test
  void anExporterNeedingANewerExporterApiIsNamedSo() throws Exception {
    Path jar =
        ExporterJars.in(dir)
            .source(
                """
                package io.camunda.zeebe.exporter.api.context;
                public interface Context {
                  org.slf4j.Logger getLogger();
                  Configuration getConfiguration();
                  void setFilter(RecordFilter filter);
                  int getPartitionId();
                  interface RecordFilter {
                    boolean acceptType(io.camunda.zeebe.protocol.record.RecordType type);
                    boolean acceptValue(io.camunda.zeebe.protocol.record.ValueType type);
                  }
                }
                """)
            .source(
                """
                package acme;
                public class Modern implements io.camunda.zeebe.exporter.api.Exporter {
                  public void configure(io.camunda.zeebe.exporter.api.context.Context context) {
                    context.getLogger().info("partition {}", context.getPartitionId());
                  }
                  public void export(io.camunda.zeebe.protocol.record.Record<?> record) {}
                }
                """)
            .compileOnly("io/camunda/")
            .build("modern");
    assertThatThrownBy(() -> loader.load(descriptor("modern", "acme.Modern", jar)))
        .hasMessageStartingWith(
            "exporter 'modern': it was built against a newer exporter API than this broker"
                + " provides (exporter API 8.3.5 on Java "
                + Runtime.version().feature())
        .hasMessageContaining("java.lang.NoSuchMethodError")
        .hasMessageContaining("getPartitionId");
  }

  /** Built against the 8.3 API, an exporter reaches the newer methods on Tern's class. */
  @Test
  void theNewerContextMethodsAreOnTernsContext() throws Exception {
    Path jar =
        ExporterJars.in(dir)
            .source(
                """
                package acme;
                public class Reflective implements io.camunda.zeebe.exporter.api.Exporter {
                  public volatile String seen;
                  public void configure(io.camunda.zeebe.exporter.api.context.Context context)
                      throws Exception {
                    seen = "partition=" + context.getClass().getMethod("getPartitionId").invoke(context)
                        + " clock=" + context.getClass().getMethod("clock").invoke(context)
                        + " registry=" + (context.getClass().getMethod("getMeterRegistry")
                            .invoke(context) != null);
                  }
                  public void export(io.camunda.zeebe.protocol.record.Record<?> record) {}
                }
                """)
            .build("reflective");
    try (LoadedExporter loaded = loader.load(descriptor("r", "acme.Reflective", jar))) {
      assertThat(field(loaded, "seen")).isEqualTo("partition=3 clock=" + CLOCK + " registry=true");
    }
  }

  @Test
  void everyExporterThatFailsIsNamedAndTheOthersAreReleased() throws Exception {
    Path jar = ExporterJars.in(dir).source(GOOD).build("good");
    Map<String, Object> args = Map.of("nested", Map.of("size", 1));
    List<ExporterDescriptor> descriptors =
        List.of(
            new ExporterDescriptor("a", "acme.GoodExporter", jar, args),
            descriptor("b", "acme.Missing", jar),
            descriptor("c", null, null));
    assertThatThrownBy(() -> loader.loadAll(descriptors))
        .isInstanceOf(ExporterLoadException.class)
        .hasMessage(
            "exporters cannot be used:\n"
                + "- exporter 'b': class acme.Missing not found in "
                + jar
                + "\n- exporter 'c': no class name: set exporters.c.className");

    assertThat(loader.loadAll(List.of(new ExporterDescriptor("a", "acme.GoodExporter", jar, args))))
        .extracting(LoadedExporter::id)
        .containsExactly("a");
  }

  private static ExporterDescriptor descriptor(String id, String className, Path jar) {
    return new ExporterDescriptor(id, className, jar, Map.of());
  }

  static Object field(LoadedExporter loaded, String name) throws ReflectiveOperationException {
    return loaded.exporter().getClass().getField(name).get(loaded.exporter());
  }

  /** A copy of {@code jar} whose {@code entry} claims another class file (major) version. */
  private Path withClassFileVersion(Path jar, String entry, int major) throws IOException {
    Path copy = dir.resolve("v" + major + "-" + jar.getFileName());
    try (var in = new java.util.jar.JarFile(jar.toFile());
        var out = new java.util.jar.JarOutputStream(Files.newOutputStream(copy))) {
      for (var entries = in.entries(); entries.hasMoreElements(); ) {
        var each = entries.nextElement();
        byte[] bytes = in.getInputStream(each).readAllBytes();
        if (each.getName().equals(entry)) {
          bytes[6] = (byte) (major >> 8);
          bytes[7] = (byte) major;
        }
        out.putNextEntry(new java.util.jar.JarEntry(each.getName()));
        out.write(bytes);
        out.closeEntry();
      }
    }
    return copy;
  }
}
