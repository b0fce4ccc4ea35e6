package io.tern.engine.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The wording of the JVM's linkage errors, whatever JDK runs the test. */
class ExporterProblemsTest {
  private static final int RUNNING = Runtime.version().feature();

  @Test
  void aClassForJava21NamesJava21AndTheRunningJava() {
    String message =
        ExporterProblems.linkage(
            "acme.Hz",
            "loading it",
            new UnsupportedClassVersionError(
                "acme/Hz has been compiled by a more recent version of the Java Runtime (class file"
                    + " version 65.0), this version of the Java Runtime only recognizes class file"
                    + " versions up to 61.0"));
    assertThat(message)
        .startsWith(
            "class acme.Hz needs Java 21 (class file version 65), but this broker runs on Java "
                + RUNNING
                + " (")
        .endsWith(
            "run the broker on that JDK or newer, or build the exporter for Java "
                + RUNNING
                + " (javac --release "
                + RUNNING
                + ")");
  }

  @Test
  void aMissingMethodOfTheApiBlamesTheApiAndOneOfALibraryTheLibrary() {
    assertThat(
            ExporterProblems.linkage(
                "acme.Hz",
                "configure",
                new NoSuchMethodError(
                    "'int io.camunda.zeebe.exporter.api.context.Context.getPartitionId()'")))
        .startsWith(
            "it was built against a newer exporter API than this broker provides (exporter API"
                + " 8.3.5 on Java "
                + RUNNING);
    assertThat(
            ExporterProblems.linkage(
                "acme.Hz",
                "configure",
                new NoSuchMethodError("'void com.google.protobuf.Any.pack(java.lang.Object)'")))
        .isEqualTo(
            "it was built against another version of a library than the one it gets (bundle that"
                + " library in the exporter's jar): java.lang.NoSuchMethodError: 'void"
                + " com.google.protobuf.Any.pack(java.lang.Object)'");
  }

  @Test
  void aMissingClassAndAFailedStaticInitializerAreNamed() {
    assertThat(
            ExporterProblems.linkage(
                "acme.Hz", "creating it", new NoClassDefFoundError("com/hazelcast/core/Hazelcast")))
        .isEqualTo(
            "a class that acme.Hz needs is missing (bundle it in the exporter's jar):"
                + " java.lang.NoClassDefFoundError: com/hazelcast/core/Hazelcast");
    assertThat(
            ExporterProblems.linkage(
                "acme.Hz",
                "creating it",
                new ExceptionInInitializerError(new IllegalStateException("no config"))))
        .isEqualTo(
            "a static initializer threw while creating it: java.lang.IllegalStateException: no"
                + " config");
  }
}
