package io.tern.benchmark.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The brokers' own measure of how long accepted commands waited: {@code
 * tern.processor.processing.latency} (a command's write to the end of its processing, every
 * partition, every broker), over a window between two scrapes of their Prometheus histograms. This
 * is the latency backpressure bounds; what a client measures adds the gateway, the network and, for
 * an instance, everything it waits for.
 */
final class ProcessingLatencyWindow {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern BUCKET =
      Pattern.compile(
          "^tern_processor_processing_latency_seconds_bucket\\{[^}]*le=\"([^\"]+)\"[^}]*} (\\S+)$");

  private final List<URI> endpoints;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private Map<Double, Double> start;

  ProcessingLatencyWindow(List<String> managementAddresses) {
    this.endpoints =
        managementAddresses.stream()
            .map(address -> URI.create("http://" + address + "/actuator/prometheus"))
            .toList();
  }

  /** Starts the window: the histograms as they are now. */
  void open() {
    start = scrape();
  }

  /**
   * The window's percentiles, as the upper bounds of the buckets they fall in (ms): {@code count},
   * {@code p50}, {@code p99}, {@code p999}, {@code max}; empty if no broker answered.
   */
  Map<String, Object> close() {
    Map<Double, Double> end = scrape();
    Map<String, Object> figures = new LinkedHashMap<>();
    if (start == null || start.isEmpty() || end.isEmpty()) {
      return figures;
    }
    Map<Double, Double> window = new TreeMap<>();
    end.forEach((le, count) -> window.put(le, count - start.getOrDefault(le, 0.0)));
    double total = window.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
    figures.put("count", (long) total);
    if (total <= 0) {
      return figures;
    }
    figures.put("p50", bound(window, total * 0.50));
    figures.put("p99", bound(window, total * 0.99));
    figures.put("p999", bound(window, total * 0.999));
    figures.put("max", bound(window, total));
    return figures;
  }

  /** The upper bound (ms) of the first bucket holding at least {@code rank} commands. */
  private static double bound(Map<Double, Double> cumulative, double rank) {
    for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
      if (bucket.getValue() >= rank) {
        return bucket.getKey() * 1000;
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /** Cumulative bucket counts by upper bound (seconds), summed over brokers and partitions. */
  private Map<Double, Double> scrape() {
    Map<Double, Double> buckets = new TreeMap<>();
    for (URI endpoint : endpoints) {
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(endpoint).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          add(answer.body(), buckets);
        }
      } catch (IOException e) {
        // a broker that does not answer adds nothing
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return buckets;
  }

  static void add(String prometheusText, Map<Double, Double> into) {
    for (String line : prometheusText.split("\n")) {
      Matcher bucket = BUCKET.matcher(line.strip());
      if (bucket.matches()) {
        double le =
            bucket.group(1).equals("+Inf")
                ? Double.POSITIVE_INFINITY
                : Double.parseDouble(bucket.group(1));
        into.merge(le, Double.parseDouble(bucket.group(2)), Double::sum);
      }
    }
  }
}
