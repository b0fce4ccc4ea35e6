package io.tern.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * podman from the test: builds the Tern image from docker/Dockerfile on a local JRE base
 * (docker/local-base.sh) once per JVM, and runs commands with the repository's containers.conf.
 * Where podman is not installed the calling test is skipped with a loud message; every other
 * failure (build, run) fails it.
 */
final class Podman {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final String IMAGE = "localhost/tern:deploy-test";

  /**
   * The brokers and gateways the container tests start compile with C1 only (TERN_JAVA_OPTS, as a
   * user would add options): they live for a minute or two, and C2's compiling would take more CPU
   * than it saves from the other modules' tests that run beside them on two cores. What the tests
   * check (the image, compose's wiring, the rendered pods) does not depend on the JIT.
   */
  static final String TEST_JAVA_OPTS = "-XX:TieredStopAtLevel=1";

  static final String BASE_IMAGE = "localhost/tern-jre21";

  /**
   * The lock the classes that run three-broker clusters in containers hold: one such cluster at a
   * time. Side by side with the image's own test, seven container JVMs on two cores took about 160
   * s and once kept that test's container from being ready within two minutes.
   */
  static final String CONTAINERS = "podman containers";

  private static final Path DISTRIBUTION = ROOT.resolve("engine/target/tern/bin/broker");
  private static final Path BENCHMARK_JAR = ROOT.resolve("benchmark/target/tern-benchmark.jar");

  private static boolean built;
  private static Duration baseTime;
  private static Duration buildTime;

  private Podman() {}

  /** Whether podman runs here: cleanups of tests skipped without it have nothing to remove. */
  static boolean installed() throws InterruptedException {
    try {
      return run(Duration.ofSeconds(30), "podman", "--version").code() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** Skips the test, loudly, where podman is not installed; fails where it is but cannot run. */
  static void assumeInstalled() throws InterruptedException {
    boolean installed = installed();
    String unavailable = System.getenv("TERN_CONTAINER_TESTS_UNAVAILABLE");
    String message = null;
    if (!installed) {
      message =
          "podman is not installed, so the container image is not tested: "
              + "apt-get install podman runc debootstrap (.ci/run does this)";
    } else if (unavailable != null && !unavailable.isBlank()) {
      message = "the container image is not tested: " + unavailable;
    }
    if (message != null) {
      System.err.println("\n*** SKIPPED: " + message + " ***\n");
      assumeTrue(false, message);
    }
  }

  /** Builds the local JRE base (when absent) and the Tern image, once per JVM. */
  static synchronized void buildImage() throws Exception {
    assumeInstalled();
    if (built) {
      return;
    }
    assertThat(DISTRIBUTION)
        .as(
            "the distribution is built by ./mvnw package (the reactor builds it before this module)")
        .isExecutable();
    assertThat(BENCHMARK_JAR).as("the benchmark jar is built before this module").exists();
    long start = System.nanoTime();
    Result base =
        run(Duration.ofMinutes(15), ROOT.resolve("docker/local-base.sh").toString(), BASE_IMAGE);
    assertThat(base.code()).as("docker/local-base.sh failed:\n%s", base.output()).isZero();
    baseTime = Duration.ofNanos(System.nanoTime() - start);
    start = System.nanoTime();
    Result image =
        run(
            Duration.ofMinutes(10),
            "podman",
            "build",
            "--format",
            "docker",
            "--build-arg",
            "BASE_IMAGE=" + BASE_IMAGE,
            "-f",
            ROOT.resolve("docker/Dockerfile").toString(),
            "-t",
            IMAGE,
            ROOT.toString());
    assertThat(image.code()).as("podman build failed:\n%s", image.output()).isZero();
    buildTime = Duration.ofNanos(System.nanoTime() - start);
    System.out.printf(
        "Image %s: local base %d s, image build %d s%n",
        IMAGE, baseTime.toSeconds(), buildTime.toSeconds());
    built = true;
  }

  /** Runs podman (or another command) with the repository's containers.conf. */
  static Result podman(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("podman");
    command.addAll(List.of(args));
    return run(Duration.ofMinutes(5), command.toArray(String[]::new));
  }

  static Result run(Duration timeout, String... command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = builder.environment();
    env.putIfAbsent("CONTAINERS_CONF", ROOT.resolve("docker/containers.conf").toString());
    Path log = Files.createTempFile("podman", ".log");
    builder.redirectOutput(log.toFile());
    Process process = builder.start();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(
            String.join(" ", command) + " did not end within " + timeout + ":\n" + read(log));
      }
      return new Result(process.exitValue(), read(log));
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(e);
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static String read(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  record Result(int code, String output) {}
}
