package io.tern.engine.exporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.camunda.zeebe.protocol.record.Record;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/**
 * The 8.6 question (docs/exporters.md): an exporter built against the exporter API 8.6 calls {@code
 * Context.getPartitionId()}, {@code getMeterRegistry()} and {@code clock()} through the interface.
 * With the 8.6 API on the broker's class path, which needs JDK 21+, Tern's {@link ExporterContext}
 * (compiled against 8.3) answers them; with the 8.3 API, as the broker ships it now, the exporter
 * is refused with a clear error. The 8.6 jar is copied by the build to {@code target/exporter-api}.
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
    Path jar = modernExporter();

    // A broker's class path with the 8.6 API in place of 8.3.5: Tern's classes, as compiled.
    List<URL> brokerClassPath = new ArrayList<>();
    for (Path path :
        List.of(
            ExporterJars.location(ExporterLoader.class),
            API_86,
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

  @Test
  void theSameExporterOnTheApi83IsRefusedNamingTheApi() throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "the exporter API 8.6 is Java 21 bytecode");
    Path jar = modernExporter();
    ExporterLoader loader = new ExporterLoader(7, null, InstantSource.system());
    assertThatThrownBy(
            () -> loader.load(new ExporterDescriptor("modern", "acme.Modern", jar, Map.of())))
        .isInstanceOf(ExporterLoadException.class)
        .hasMessageStartingWith(
            "exporter 'modern': it was built against a newer exporter API than this broker"
                + " provides (exporter API 8.3.5")
        .hasMessageContaining("getPartitionId");
  }

  private Path modernExporter() throws Exception {
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
