package io.tern.benchmark.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads each partition leader's backpressure limiter from the brokers' {@code GET
 * /actuator/partitions}: the limit, the commands in flight, the refusals so far. Every broker
 * reports a limiter for each partition it holds; only the leader's takes commands, so the leader's
 * is the one kept. (That answer is a few hundred bytes; a Prometheus scrape of a broker is hundreds
 * of kilobytes, too much to take every second beside the load being measured.)
 */
final class LimiterGauges {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final JsonFactory JSON = new JsonFactory();

  /** One partition's limiter as its leader reported it (limit NaN when disabled). */
  record Partition(int node, double limit, double inFlight, double refusedTotal) {}

  private final List<URI> endpoints;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /**
   * @param managementAddresses each broker's management address, {@code host:port}
   */
  LimiterGauges(List<String> managementAddresses) {
    this.endpoints =
        managementAddresses.stream()
            .map(address -> URI.create("http://" + address + "/actuator/partitions"))
            .toList();
  }

  /**
   * Each partition's leader's limiter now, by partition id. A broker that does not answer is left
   * out; a partition without a leader right now too.
   */
  Map<Integer, Partition> read() {
    Map<Integer, Partition> partitions = new TreeMap<>();
    for (int node = 0; node < endpoints.size(); node++) {
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(endpoints.get(node)).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          parse(node, answer.body(), partitions);
        }
      } catch (IOException e) {
        // a broker down or restarting: its partitions have other leaders or none
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return partitions;
      }
    }
    return partitions;
  }

  /**
   * Adds the partitions {@code node} leads, from its {@code /actuator/partitions} answer: {@code
   * {"1": {"role": "LEADER", ..., "backpressure": {"limit": 100, "inFlight": 2, "refused": 0}}}}.
   */
  static void parse(int node, String json, Map<Integer, Partition> into) throws IOException {
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        int partitionId = Integer.parseInt(parser.currentName());
        parser.nextToken(); // START_OBJECT
        boolean leader = false;
        double[] gauges = {Double.NaN, 0, 0}; // limit, in flight, refused
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          JsonToken value = parser.nextToken();
          if (field.equals("role")) {
            leader = parser.getText().equals("LEADER");
          } else if (field.equals("backpressure") && value == JsonToken.START_OBJECT) {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
              String gauge = parser.currentName();
              parser.nextToken();
              switch (gauge) {
                case "limit" -> gauges[0] = parser.getDoubleValue();
                case "inFlight" -> gauges[1] = parser.getDoubleValue();
                case "refused" -> gauges[2] = parser.getDoubleValue();
                default -> parser.skipChildren();
              }
            }
          } else {
            parser.skipChildren();
          }
        }
        if (leader) {
          into.put(partitionId, new Partition(node, gauges[0], gauges[1], gauges[2]));
        }
      }
    }
  }
}
