package io.tern.benchmark.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * One small GET of every broker's management API (a few hundred bytes, cheap enough each second
 * beside the load being measured), answers handed over in node order. A broker that does not answer
 * in time, or answers other than 200, is left out: it is down or restarting.
 */
final class ManagementAnswers {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  /** Reads one broker's answer. */
  @FunctionalInterface
  interface Reader {
    void read(int node, String body) throws IOException;
  }

  private final List<URI> endpoints;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /**
   * @param managementAddresses each broker's management address, {@code host:port}
   * @param path what to GET, e.g. {@code /actuator/partitions}
   */
  ManagementAnswers(List<String> managementAddresses, String path) {
    this.endpoints =
        managementAddresses.stream()
            .map(address -> URI.create("http://" + address + path))
            .toList();
  }

  /** Hands each answering broker's body to {@code reader}; stops early if interrupted. */
  void forEach(Reader reader) {
    for (int node = 0; node < endpoints.size(); node++) {
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(endpoints.get(node)).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          reader.read(node, answer.body());
        }
      } catch (IOException e) {
        // a broker down or restarting: left out
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
