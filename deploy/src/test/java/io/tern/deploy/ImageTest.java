package io.tern.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docker/Dockerfile builds on a JRE 21 base made by docker/local-base.sh, and its container runs a
 * broker that the official client drives: deploy, create with result, complete the job. The image
 * runs as a non-root user, keeps its data under one volume, answers its health check, and a SIGTERM
 * stops the broker gracefully. Skipped (loudly) where podman is not installed.
 */
@Tag("slow") // builds and runs the image (podman): docs/testing.md
class ImageTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private final String container = "tern-image-test-" + ProcessHandle.current().pid();

  @AfterEach
  void removeContainer() throws Exception {
    if (!Podman.installed()) {
      return; // skipped: nothing ran
    }
    Podman.podman("rm", "-f", "-v", "-t", "0", container);
  }

  @Test
  void theImageRunsABrokerThatTheOfficialClientDrives() throws Exception {
    Podman.buildImage();
    Map<String, String> config = imageConfig();
    assertThat(config.get("user")).as("the image's user").isEqualTo("1001:1001");
    assertThat(config.get("volumes")).contains("/usr/local/tern/data");
    assertThat(config.get("ports")).contains("26500/tcp", "26501/tcp", "26502/tcp", "9600/tcp");
    assertThat(config.get("healthcheck")).contains("tern-healthcheck");

    int gateway = freePort();
    int management = freePort();
    long start = System.nanoTime();
    Podman.Result run =
        Podman.podman(
            "run",
            "-d",
            "--name",
            container,
            "--memory",
            "1g",
            "-e",
            "TERN_JAVA_OPTS=" + Podman.TEST_JAVA_OPTS,
            "-p",
            "127.0.0.1:" + gateway + ":26500",
            "-p",
            "127.0.0.1:" + management + ":9600",
            Podman.IMAGE);
    assertThat(run.code()).as("podman run:\n%s", run.output()).isZero();

    try {
      // Four minutes: it starts beside the three-broker container tests, on two cores.
      await("readiness through the published management port")
          .atMost(Duration.ofMinutes(4))
          .pollInterval(Duration.ofMillis(250))
          .ignoreExceptions()
          .until(() -> get("http://127.0.0.1:" + management + "/actuator/health/readiness") == 200);
    } catch (RuntimeException e) {
      e.addSuppressed(
          new AssertionError(
              "the container's state: "
                  + Podman.podman("inspect", container, "--format", "{{json .State}}").output()
                  + "\nits log, last lines:\n"
                  + tail(Podman.podman("logs", container).output())));
      throw e;
    }
    System.out.printf(
        "Container ready %d ms after podman run%n", (System.nanoTime() - start) / 1_000_000);
    Podman.Result health = Podman.podman("healthcheck", "run", container);
    assertThat(health.code()).as("the image's health check:\n%s", health.output()).isZero();
    assertThat(Podman.podman("exec", container, "id", "-u").output().strip()).isEqualTo("1001");
    assertThat(
            Podman.podman(
                    "exec",
                    container,
                    "sh",
                    "-c",
                    "java -XX:+PrintFlagsFinal -version 2>/dev/null | grep -w MaxHeapSize")
                .output())
        .as("the heap is a quarter of the container's 1 GiB, not of the host's memory")
        .contains(String.valueOf(256L * 1024 * 1024));
    assertThat(Podman.podman("exec", container, "cat", "/proc/1/cmdline").output())
        .as("TERN_JAVA_OPTS reaches the broker's JVM (the entrypoint execs it as process 1)")
        .contains(Podman.TEST_JAVA_OPTS);

    try {
      try (CamundaClient client =
          CamundaClient.newClientBuilder()
              .grpcAddress(URI.create("http://127.0.0.1:" + gateway))
              .preferRestOverGrpc(false)
              .build()) {
        BpmnModelInstance process =
            Bpmn.createExecutableProcess("image-check")
                .startEvent()
                .serviceTask("task", t -> t.zeebeJobType("image-check"))
                .endEvent()
                .done();
        // A minute, not the client's 10 s: the container's JVM is cold and, in a parallel build,
        // shares the machine with other modules' brokers.
        client
            .newDeployResourceCommand()
            .addProcessModel(process, "image-check.bpmn")
            .requestTimeout(Duration.ofSeconds(60))
            .send()
            .join();
        try (JobWorker worker =
            client
                .newWorker()
                .jobType("image-check")
                .handler(
                    (jobClient, job) ->
                        jobClient
                            .newCompleteCommand(job)
                            .variables(Map.of("done", true))
                            .send()
                            .join())
                .open()) {
          ProcessInstanceResult result =
              client
                  .newCreateInstanceCommand()
                  .bpmnProcessId("image-check")
                  .latestVersion()
                  .variables(Map.of("order", 7))
                  .withResult()
                  .requestTimeout(Duration.ofSeconds(30))
                  .send()
                  .join();
          assertThat(result.getVariablesAsMap())
              .containsEntry("order", 7)
              .containsEntry("done", true);
        }
      }
    } catch (RuntimeException | AssertionError e) {
      // What the broker in the container did is the first thing to read when this fails.
      e.addSuppressed(
          new AssertionError(
              "the container's log, last lines:\n"
                  + tail(Podman.podman("logs", container).output())));
      throw e;
    }

    Podman.Result stop = Podman.podman("stop", "-t", "30", container);
    assertThat(stop.code()).as("podman stop:\n%s", stop.output()).isZero();
    String logs = Podman.podman("logs", container).output();
    assertThat(logs)
        .as("SIGTERM reached the JVM, which shut the broker down")
        .contains("Stopping the broker")
        .contains("Broker stopped");
    assertThat(
            Podman.podman("inspect", container, "--format", "{{.State.ExitCode}}").output().strip())
        .as("exit code: a clean stop on SIGTERM (0), not podman's kill after the timeout (137)")
        .isEqualTo("0");
  }

  /**
   * The weekly soak's report server, as the benchmark chart renders it (its command, memory limit,
   * user and read-only root), serves a report from the reports volume, mounted read-only, over
   * HTTP: the JRE in the image has the JDK's file server (jdk.httpserver).
   */
  @Test
  void theSoakReportServerServesTheReportsVolume(@TempDir Path reports) throws Exception {
    Podman.buildImage();
    Map<String, Object> cronJob =
        Charts.render(Charts.BENCHMARK)
            .release("weekly")
            .set("soak.enabled", true)
            .manifests()
            .named("CronJob", "weekly-soak");
    Map<String, Object> server =
        Manifests.at(cronJob, "spec.jobTemplate.spec.template.spec.initContainers.0");
    List<?> command = (List<?>) server.get("command");
    int containerPort = ((Number) Manifests.at(server, "ports.0.containerPort")).intValue();
    String limit = Manifests.at(server, "resources.limits.memory").toString();
    Path run = Files.createDirectories(reports.resolve("2026-12-07T0100"));
    Files.writeString(run.resolve("report.md"), "# Soak report\nverdict: pass\n");
    reports.toFile().setReadable(true, false);
    reports.toFile().setExecutable(true, false);
    run.toFile().setReadable(true, false);
    run.toFile().setExecutable(true, false);
    run.resolve("report.md").toFile().setReadable(true, false);

    int port = freePort();
    String name = container + "-reports";
    List<String> podmanRun =
        new java.util.ArrayList<>(
            List.of(
                "run",
                "-d",
                "--name",
                name,
                "--read-only",
                "--user",
                "1001:1001",
                "--memory",
                limit.replace("Mi", "m"),
                "-v",
                reports + ":/reports:ro",
                "-p",
                "127.0.0.1:" + port + ":" + containerPort,
                "--entrypoint",
                command.get(0).toString(),
                Podman.IMAGE));
    command.subList(1, command.size()).forEach(a -> podmanRun.add(a.toString()));
    try {
      Podman.Result started = Podman.podman(podmanRun.toArray(String[]::new));
      assertThat(started.code()).as("podman %s:\n%s", podmanRun, started.output()).isZero();
      String body =
          await("the report over HTTP")
              .atMost(Duration.ofMinutes(1))
              .pollInterval(Duration.ofMillis(250))
              .ignoreExceptions()
              .until(
                  () ->
                      HTTP.send(
                              HttpRequest.newBuilder(
                                      URI.create(
                                          "http://127.0.0.1:"
                                              + port
                                              + "/2026-12-07T0100/report.md"))
                                  .build(),
                              HttpResponse.BodyHandlers.ofString())
                          .body(),
                  b -> b.contains("verdict: pass"));
      assertThat(body).isEqualTo("# Soak report\nverdict: pass\n");
    } finally {
      Podman.podman("rm", "-f", "-t", "0", name);
    }
  }

  private static String tail(String log) {
    List<String> lines = log.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  private static Map<String, String> imageConfig() throws Exception {
    String format =
        "{{.Config.User}}|{{range $k, $v := .Config.Volumes}}{{$k}} {{end}}|"
            + "{{range $k, $v := .Config.ExposedPorts}}{{$k}} {{end}}|{{.HealthCheck.Test}}";
    Podman.Result inspect = Podman.podman("image", "inspect", Podman.IMAGE, "--format", format);
    assertThat(inspect.code()).as("podman image inspect:\n%s", inspect.output()).isZero();
    String[] fields = inspect.output().strip().split("\\|", -1);
    return Map.of(
        "user", fields[0], "volumes", fields[1], "ports", fields[2], "healthcheck", fields[3]);
  }

  private static int get(String url) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
