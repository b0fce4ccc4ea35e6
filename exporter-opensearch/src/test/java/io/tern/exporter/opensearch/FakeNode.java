package io.tern.exporter.opensearch;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A stand-in for an OpenSearch node on loopback (the JDK's HTTP server): it records each request
 * and answers as {@link #answer} says (by default 200 and a bulk answer without errors).
 */
final class FakeNode implements AutoCloseable {
  record Request(
      String method, String path, String authorization, String contentType, String body) {
    /** The NDJSON lines of a bulk body. */
    List<String> lines() {
      List<String> lines = new ArrayList<>();
      for (String line : body.split("\n")) {
        if (!line.isEmpty()) {
          lines.add(line);
        }
      }
      return lines;
    }
  }

  record Answer(int status, String body) {}

  static final Answer OK = new Answer(200, "{\"acknowledged\":true,\"errors\":false,\"items\":[]}");

  final List<Request> requests = new CopyOnWriteArrayList<>();
  volatile Function<Request, Answer> answer = request -> OK;
  private final HttpServer server;

  FakeNode() throws IOException {
    // Without it each small answer waits for the client's delayed ACK (about 30 ms a request,
    // a second for a test's templates). Read once, when the server's configuration loads.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          Request request =
              new Request(
                  exchange.getRequestMethod(),
                  exchange.getRequestURI().getPath(),
                  exchange.getRequestHeaders().getFirst("Authorization"),
                  exchange.getRequestHeaders().getFirst("Content-Type"),
                  body);
          requests.add(request);
          Answer reply = answer.apply(request);
          byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(reply.status(), bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    server.start();
  }

  /** Forgets the requests and answers OK again. */
  void reset() {
    requests.clear();
    answer = request -> OK;
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  List<Request> bulks() {
    return requests.stream().filter(r -> r.path().equals("/_bulk")).toList();
  }

  List<Request> templates() {
    return requests.stream().filter(r -> r.path().contains("_template/")).toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
