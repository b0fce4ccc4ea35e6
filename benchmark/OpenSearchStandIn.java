import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for OpenSearch on loopback, to measure what the OpenSearch exporter itself costs
 * without a node indexing on the same cores: it reads every request and answers as a node that
 * indexed everything ({@code "errors": false} to a bulk, {@code "acknowledged": true} to a
 * template, a version to {@code GET /}). Run it from source, then point the exporter (or
 * exporters-vs-none.sh) at it:
 *
 * <pre>
 * java benchmark/OpenSearchStandIn.java 9299 &amp;
 * benchmark/exporters-vs-none.sh http://127.0.0.1:9299 --rounds 3
 * </pre>
 *
 * It prints the documents it was sent every 10 seconds.
 */
public final class OpenSearchStandIn {
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 9299;
    // Without it each small answer waits for the client's delayed ACK.
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    AtomicLong lines = new AtomicLong();
    byte[] bulk = "{\"took\":1,\"errors\":false,\"items\":[]}".getBytes(StandardCharsets.UTF_8);
    byte[] acknowledged = "{\"acknowledged\":true}".getBytes(StandardCharsets.UTF_8);
    byte[] root =
        "{\"name\":\"stand-in\",\"version\":{\"number\":\"2.19.1\",\"distribution\":\"opensearch\"}}"
            .getBytes(StandardCharsets.UTF_8);
    server.createContext(
        "/",
        exchange -> {
          long newlines = 0;
          byte[] chunk = new byte[64 * 1024];
          try (var in = exchange.getRequestBody()) {
            for (int read; (read = in.read(chunk)) > 0; ) {
              for (int i = 0; i < read; i++) {
                if (chunk[i] == '\n') {
                  newlines++;
                }
              }
            }
          }
          String path = exchange.getRequestURI().getPath();
          byte[] answer;
          if (path.endsWith("/_bulk")) {
            lines.addAndGet(newlines / 2);
            answer = bulk;
          } else if (path.equals("/")) {
            answer = root;
          } else {
            answer = acknowledged;
          }
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    System.out.println("OpenSearch stand-in on http://127.0.0.1:" + port);
    while (true) {
      Thread.sleep(10_000);
      System.out.println("documents so far: " + lines.get());
    }
  }
}
