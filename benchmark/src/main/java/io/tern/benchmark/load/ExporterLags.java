package io.tern.benchmark.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads how far each exporter is behind from the brokers' {@code GET /actuator/exporters}: per
 * exporter, the largest {@code lagSeconds} over the partitions whose leader answered (the age of
 * the oldest record it has not acknowledged). Followers report no lag; brokers without exporters
 * answer an empty object, so a run without exporters reads nothing.
 */
final class ExporterLags {
  private static final JsonFactory JSON = new JsonFactory();

  private final ManagementAnswers answers;

  /**
   * @param managementAddresses each broker's management address, {@code host:port}
   */
  ExporterLags(List<String> managementAddresses) {
    this.answers = new ManagementAnswers(managementAddresses, "/actuator/exporters");
  }

  /**
   * Each exporter's largest lag in seconds now, by exporter id; brokers that do not answer left
   * out.
   */
  Map<String, Double> read() {
    Map<String, Double> lags = new TreeMap<>();
    answers.forEach((node, body) -> parse(body, lags));
    return lags;
  }

  /**
   * Folds one broker's answer into {@code lags}: {@code {"1": {"leader": true, "exporters": {"os":
   * {"state": "running", ..., "lagSeconds": 0.4, ...}}}}}.
   */
  static void parse(String json, Map<String, Double> lags) throws IOException {
    try (JsonParser parser = JSON.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) { // partition
        parser.nextToken();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          JsonToken value = parser.nextToken();
          if (!field.equals("exporters") || value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            continue;
          }
          while (parser.nextToken() == JsonToken.FIELD_NAME) { // exporter id
            String id = parser.currentName();
            parser.nextToken();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
              String gauge = parser.currentName();
              JsonToken gaugeValue = parser.nextToken();
              if (gauge.equals("lagSeconds") && gaugeValue.isNumeric()) {
                lags.merge(id, parser.getDoubleValue(), Math::max);
              } else {
                parser.skipChildren();
              }
            }
          }
        }
      }
    }
  }
}
