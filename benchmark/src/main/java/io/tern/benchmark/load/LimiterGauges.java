package io.tern.benchmark.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
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
  private static final JsonFactory JSON = new JsonFactory();

  /** One partition's limiter as its leader reported it (limit NaN when disabled). */
  record Partition(int node, double limit, double inFlight, double refusedTotal) {}

  private final ManagementAnswers answers;

  /**
   * @param managementAddresses each broker's management address, {@code host:port}
   */
  LimiterGauges(List<String> managementAddresses) {
    this.answers = new ManagementAnswers(managementAddresses, "/actuator/partitions");
  }

  /**
   * Each partition's leader's limiter now, by partition id. A broker that does not answer is left
   * out; a partition without a leader right now too.
   */
  Map<Integer, Partition> read() {
    Map<Integer, Partition> partitions = new TreeMap<>();
    answers.forEach((node, body) -> parse(node, body, partitions));
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
