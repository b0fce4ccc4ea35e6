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
 * Reads how far each exporter is behind from the brokers' {@code GET /actuator/exporters}: per
 * exporter, the largest {@code lagSeconds} over the partitions whose leader answered (the age of
 * the oldest record it has not acknowledged). Followers report no lag; brokers without exporters
 * answer an empty object, so a run without exporters reads nothing.
 */
final class ExporterLags {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final JsonFactory JSON = new JsonFactory();

  private final List<URI> endpoints;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /**
   * @param managementAddresses each broker's management address, {@code host:port}
   */
  ExporterLags(List<String> managementAddresses) {
    this.endpoints =
        managementAddresses.stream()
            .map(address -> URI.create("http://" + address + "/actuator/exporters"))
            .toList();
  }

  /**
   * Each exporter's largest lag in seconds now, by exporter id; brokers that do not answer left
   * out.
   */
  Map<String, Double> read() {
    Map<String, Double> lags = new TreeMap<>();
    for (URI endpoint : endpoints) {
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(endpoint).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          parse(answer.body(), lags);
        }
      } catch (IOException e) {
        // a broker down or restarting: its partitions have other leaders or none
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return lags;
      }
    }
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
