package io.tern.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local-cluster commands of docs/operations.md work as written: the block that starts three
 * brokers, and the block that stops one and starts it again, run verbatim with bash against the
 * distribution the build made (engine/target/tern, packaged before this module's tests run).
 */
@Tag("slow") // runs the documented commands as processes: docs/testing.md
class DocumentedCommandsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path OPERATIONS = ROOT.resolve("docs/operations.md");
  private static final Path DISTRIBUTION = ROOT.resolve("engine/target/tern");
  private static final Duration READY = Duration.ofMinutes(2);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  @AfterEach
  void stopEveryBroker() throws Exception {
    run(
        "for n in 0 1 2; do [ -f local-cluster/broker-$n.pid ]"
            + " && kill -9 \"$(cat local-cluster/broker-$n.pid)\"; done; true");
  }

  @Test
  void aLocalClusterStartsAndANodeRestartsAsDocumented() throws Exception {
    assumeTrue(
        Files.isExecutable(DISTRIBUTION.resolve("bin/broker")),
        "the distribution is built by ./mvnw package (the reactor builds it before this module)");
    String operations = Files.readString(OPERATIONS);
    String start = block(operations, "<!-- start-cluster:");
    String restart = block(operations, "<!-- restart-node:");
    Files.createDirectories(dir.resolve("engine/target"));
    Files.createSymbolicLink(dir.resolve("engine/target/tern"), DISTRIBUTION);

    run(start);
    for (int n = 0; n < 3; n++) {
      awaitReady(9600 + 10 * n);
    }
    assertWrittenFilesAreIgnoredByGit();
    String firstPid = Files.readString(dir.resolve("local-cluster/broker-1.pid")).strip();

    run(start.substring(0, start.indexOf("for n in")) + restart);

    assertThat(Files.readString(dir.resolve("local-cluster/broker-1.pid")).strip())
        .as("broker 1 runs again as a new process")
        .isNotEqualTo(firstPid);
    awaitReady(9610);
    assertThat(Files.readString(dir.resolve("local-cluster/broker-1.log")))
        .contains("[broker-1]")
        .contains("Stopping the broker")
        .contains("Broker stopped");
    // The block made the token beside the brokers' files; rebalancing needs it.
    String token = Files.readString(dir.resolve("local-cluster/management-token")).strip();
    assertThat(token).hasSize(64);
    assertThat(post("http://127.0.0.1:9600/actuator/rebalance", null)).contains("management token");
    String rebalanced = post("http://127.0.0.1:9600/actuator/rebalance", "Bearer " + token);
    assertThat(rebalanced).contains("\"1\":").contains("\"2\":").contains("\"3\":");
  }

  /**
   * Run from the repository's root, the recipe must leave nothing git would offer to commit: each
   * top-level entry the block made (beside the test's own engine/ link and shell.log) is matched by
   * the repository's .gitignore.
   */
  private void assertWrittenFilesAreIgnoredByGit() throws IOException, InterruptedException {
    Process inRepository =
        new ProcessBuilder("git", "-C", ROOT.toString(), "rev-parse", "--is-inside-work-tree")
            .redirectErrorStream(true)
            .start();
    assumeTrue(
        inRepository.waitFor(30, TimeUnit.SECONDS) && inRepository.exitValue() == 0,
        "git and the repository are here (a clean clone in CI)");
    List<String> written;
    try (Stream<Path> entries = Files.list(dir)) {
      written =
          entries
              .map(entry -> entry.getFileName() + (Files.isDirectory(entry) ? "/" : ""))
              .filter(name -> !name.equals("engine/") && !name.equals("shell.log"))
              .toList();
    }
    assertThat(written).as("the block writes something").isNotEmpty();
    for (String name : written) {
      Process checkIgnore =
          new ProcessBuilder("git", "-C", ROOT.toString(), "check-ignore", "--no-index", "-q", name)
              .redirectErrorStream(true)
              .start();
      assertThat(checkIgnore.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(checkIgnore.exitValue())
          .as("%s, written by the documented block in the repository's root, is git-ignored", name)
          .isZero();
    }
  }

  /** The shell code block that follows {@code marker}. */
  private static String block(String markdown, String marker) {
    int at = markdown.indexOf(marker);
    assertThat(at).as("docs/operations.md has a block marked %s", marker).isNotNegative();
    int open = markdown.indexOf("```sh\n", at) + "```sh\n".length();
    int close = markdown.indexOf("```", open);
    return markdown.substring(open, close);
  }

  private void run(String script) throws IOException, InterruptedException {
    Process bash =
        new ProcessBuilder("bash", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("shell.log").toFile())
            .start();
    assertThat(bash.waitFor(60, TimeUnit.SECONDS)).as("the block ends").isTrue();
    assertThat(bash.exitValue()).as("exit of: %s", script).isZero();
  }

  private static void awaitReady(int managementPort) {
    AtomicReference<String> last = new AtomicReference<>("no answer");
    try {
      Awaitility.await()
          .atMost(READY)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> isReady(managementPort, last));
    } catch (ConditionTimeoutException e) {
      throw new AssertionError(
          "broker on management port " + managementPort + ": " + last.get(), e);
    }
  }

  /** Whether the broker answers ready; else keeps in {@code last} what it answered. */
  private static boolean isReady(int managementPort, AtomicReference<String> last)
      throws InterruptedException {
    try {
      HttpResponse<String> answer =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:" + managementPort + "/actuator/health/readiness"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() == 200) {
        return true;
      }
      last.set(answer.body());
    } catch (IOException notYet) {
      last.set(notYet.toString());
    }
    return false;
  }

  /** {@code authorization}: the Authorization header, or null for none. */
  private static String post(String url, String authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .POST(HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
  }
}
