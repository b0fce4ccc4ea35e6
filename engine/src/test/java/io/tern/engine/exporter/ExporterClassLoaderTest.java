package io.tern.engine.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.protocol.record.Record;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import tern.test.shared.Marker;

/**
 * An exporter's jar comes first for its own classes, even one the broker has too, but the exporter
 * API, the protocol and slf4j are always the broker's, even when the jar bundles copies.
 */
class ExporterClassLoaderTest {
  @TempDir Path dir;

  @Test
  void theExporterSeesItsOwnCopyOfAClassButTheBrokersApi() throws Exception {
    Path jar =
        ExporterJars.in(dir)
            .source(
                """
                package tern.test.shared;
                public final class Marker {
                  public static final String ORIGIN = "exporter";
                  private Marker() {}
                }
                """)
            .source(
                """
                package acme;
                public class Bundling implements io.camunda.zeebe.exporter.api.Exporter {
                  public volatile String seen;
                  public void configure(io.camunda.zeebe.exporter.api.context.Context context) {
                    seen = origin();
                  }
                  // Read at run time: the constant itself would be inlined by javac.
                  static String origin() {
                    try {
                      return (String) tern.test.shared.Marker.class.getField("ORIGIN").get(null);
                    } catch (ReflectiveOperationException e) {
                      throw new IllegalStateException(e);
                    }
                  }
                  public void export(io.camunda.zeebe.protocol.record.Record<?> record) {}
                }
                """)
            // A fat jar's copies of the API: never used.
            .entry(
                "io/camunda/zeebe/exporter/api/Exporter.class",
                ExporterJars.classBytes(Exporter.class))
            .entry(
                "io/camunda/zeebe/exporter/api/context/Context.class",
                ExporterJars.classBytes(Context.class))
            .build("bundling");
    ExporterLoader loader =
        new ExporterLoader(1, new SimpleMeterRegistry(), InstantSource.system());
    try (LoadedExporter loaded =
        loader.load(new ExporterDescriptor("bundling", "acme.Bundling", jar, Map.of()))) {
      assertThat(ExporterLoaderTest.field(loaded, "seen")).isEqualTo("exporter");
      ClassLoader own = loaded.classLoader();
      assertThat(own.loadClass(Marker.class.getName())).isNotSameAs(Marker.class);
      assertThat(own.loadClass(Exporter.class.getName())).isSameAs(Exporter.class);
      assertThat(own.loadClass(Context.class.getName())).isSameAs(Context.class);
      assertThat(own.loadClass(Record.class.getName())).isSameAs(Record.class);
      assertThat(own.loadClass(Logger.class.getName())).isSameAs(Logger.class);
      assertThat(own.getResource("io/camunda/zeebe/exporter/api/Exporter.class").toString())
          .doesNotContain(jar.getFileName().toString());
      assertThat(own.getResource("tern/test/shared/Marker.class").toString())
          .contains(jar.getFileName().toString());
      assertThat(Marker.ORIGIN).isEqualTo("broker");
    }
  }

  @Test
  void theSharedPackagesAreParentFirst() {
    assertThat(ExporterClassLoader.parentFirst("io.camunda.zeebe.protocol.record.Record")).isTrue();
    assertThat(ExporterClassLoader.parentFirst("io.micrometer.core.instrument.MeterRegistry"))
        .isTrue();
    assertThat(ExporterClassLoader.parentFirst("com.fasterxml.jackson.databind.ObjectMapper"))
        .isFalse();
    assertThat(ExporterClassLoader.parentFirst("io.camunda.zeebe.exporter.Other")).isFalse();
  }
}
