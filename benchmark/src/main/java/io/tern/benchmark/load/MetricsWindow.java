package io.tern.benchmark.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The brokers' own meters over a window between two scrapes of their {@code /actuator/prometheus}:
 * how long commits and processing took (histograms), how many commands were processed, how far the
 * commit index moved. Two scrapes a window are cheap; a scrape a second would not be (a broker's
 * text is hundreds of kilobytes).
 */
public final class MetricsWindow {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)})? (\\S+)$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_]+)=\"([^\"]*)\"");
  private static final int LEADER = 3; // tern.raft.role

  static final String COMMIT_LATENCY = "tern_raft_commit_latency_seconds";
  static final String PROCESSING_LATENCY = "tern_processor_processing_latency_seconds";
  static final String PROCESSING_DURATION = "tern_processor_processing_duration_seconds";

  /** One sample: its labels (partition, le, ...) and value. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  /** One scrape of every broker that answered, in node order. */
  record Scrape(List<List<Sample>> brokers) {}

  private final List<URI> endpoints;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private Scrape start;

  MetricsWindow(List<String> managementAddresses) {
    this.endpoints =
        managementAddresses.stream()
            .map(address -> URI.create("http://" + address + "/actuator/prometheus"))
            .toList();
  }

  /** Starts the window. */
  void open() {
    start = scrape();
  }

  /** Ends the window: what happened in it. */
  Figures close() {
    Scrape end = scrape();
    return new Figures(start == null ? new Scrape(List.of()) : start, end);
  }

  /** What the brokers measured between two scrapes. */
  static final class Figures {
    private final Scrape start;
    private final Scrape end;

    Figures(Scrape start, Scrape end) {
      this.start = start;
      this.end = end;
    }

    boolean empty() {
      return end.brokers().isEmpty();
    }

    /** A histogram's window: cumulative bucket counts by upper bound (s), summed over brokers. */
    Histogram histogram(String name) {
      Map<Double, Double> buckets = new TreeMap<>();
      double sum = 0;
      double count = 0;
      for (int side = 0; side < 2; side++) {
        double sign = side == 0 ? -1 : 1;
        Scrape scrape = side == 0 ? start : end;
        for (List<Sample> broker : scrape.brokers()) {
          for (Sample sample : broker) {
            if (sample.name().equals(name + "_bucket")) {
              String le = sample.labels().get("le");
              double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
              buckets.merge(bound, sign * sample.value(), Double::sum);
            } else if (sample.name().equals(name + "_sum")) {
              sum += sign * sample.value();
            } else if (sample.name().equals(name + "_count")) {
              count += sign * sample.value();
            }
          }
        }
      }
      return new Histogram(buckets, sum, count);
    }

    /** The growth of a counter summed over every broker and partition. */
    double counterGrowth(String name) {
      return total(end, name) - total(start, name);
    }

    /**
     * How far the commit indexes moved, summed over partitions, each read from the broker that led
     * it at both ends of the window (a partition whose leader changed is left out).
     */
    double committedEntries() {
      Map<Integer, Double> atStart = leadersCommitIndex(start);
      Map<Integer, Double> atEnd = leadersCommitIndex(end);
      double moved = 0;
      for (Map.Entry<Integer, Double> partition : atEnd.entrySet()) {
        Double before = atStart.get(partition.getKey());
        if (before != null) {
          moved += partition.getValue() - before;
        }
      }
      return moved;
    }

    private static double total(Scrape scrape, String name) {
      double total = 0;
      for (List<Sample> broker : scrape.brokers()) {
        for (Sample sample : broker) {
          if (sample.name().equals(name)) {
            total += sample.value();
          }
        }
      }
      return total;
    }

    /** Partition id to "node:commit index" of its leader, as a number per partition. */
    private static Map<Integer, Double> leadersCommitIndex(Scrape scrape) {
      Map<Integer, Double> indexes = new TreeMap<>();
      for (List<Sample> broker : scrape.brokers()) {
        Map<String, Double> roles = new LinkedHashMap<>();
        Map<String, Double> commits = new LinkedHashMap<>();
        for (Sample sample : broker) {
          String partition = sample.labels().get("partition");
          if (partition == null) {
            continue;
          }
          if (sample.name().equals("tern_raft_role")) {
            roles.put(partition, sample.value());
          } else if (sample.name().equals("tern_raft_commit_index")) {
            commits.put(partition, sample.value());
          }
        }
        commits.forEach(
            (partition, index) -> {
              if (roles.getOrDefault(partition, 0.0) == LEADER) {
                indexes.put(Integer.parseInt(partition), index);
              }
            });
      }
      return indexes;
    }
  }

  /** A histogram's window. */
  public record Histogram(Map<Double, Double> cumulative, double sumSeconds, double count) {
    /** The upper bound (ms) of the bucket holding the given quantile; NaN if empty. */
    public double quantileMs(double quantile) {
      double total = cumulative.getOrDefault(Double.POSITIVE_INFINITY, count);
      if (total <= 0) {
        return Double.NaN;
      }
      for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
        if (bucket.getValue() >= total * quantile) {
          return bucket.getKey() * 1000;
        }
      }
      return Double.POSITIVE_INFINITY;
    }

    /**
     * The lower bound (ms) of the bucket holding the given quantile (0 for the first); NaN if
     * empty.
     */
    public double quantileLowerBoundMs(double quantile) {
      double total = cumulative.getOrDefault(Double.POSITIVE_INFINITY, count);
      if (total <= 0) {
        return Double.NaN;
      }
      double lowerBound = 0;
      for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
        if (bucket.getValue() >= total * quantile) {
          return lowerBound * 1000;
        }
        lowerBound = bucket.getKey();
      }
      return lowerBound * 1000;
    }

    /**
     * The quantile (ms) interpolated linearly inside its bucket, as Prometheus' histogram_quantile
     * does: a bucket upper bound overstates a latency that the injected delay pins just above a
     * bound (a 72 ms commit reads 89.5 ms); NaN if empty.
     */
    public double quantileMsInterpolated(double quantile) {
      double total = cumulative.getOrDefault(Double.POSITIVE_INFINITY, count);
      if (total <= 0) {
        return Double.NaN;
      }
      double rank = total * quantile;
      double lowerBound = 0;
      double below = 0;
      for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
        if (bucket.getValue() >= rank) {
          if (bucket.getKey().isInfinite()) {
            return lowerBound * 1000; // beyond the last bound: the last bound is all we know
          }
          double inBucket = bucket.getValue() - below;
          double fraction = inBucket <= 0 ? 1 : (rank - below) / inBucket;
          return (lowerBound + (bucket.getKey() - lowerBound) * fraction) * 1000;
        }
        lowerBound = bucket.getKey();
        below = bucket.getValue();
      }
      return Double.POSITIVE_INFINITY;
    }

    double meanMs() {
      return count <= 0 ? Double.NaN : sumSeconds / count * 1000;
    }

    /** {@code count}, {@code p50}, {@code p99}, {@code p999}, {@code max}, {@code mean} in ms. */
    Map<String, Object> figures() {
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("count", (long) count);
      figures.put("p50", quantileMs(0.50));
      figures.put("p99", quantileMs(0.99));
      figures.put("p999", quantileMs(0.999));
      figures.put("max", quantileMs(1.0));
      figures.put("mean", meanMs());
      return figures;
    }
  }

  private Scrape scrape() {
    List<List<Sample>> brokers = new ArrayList<>();
    for (URI endpoint : endpoints) {
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(endpoint).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          brokers.add(parse(answer.body()));
        }
      } catch (IOException e) {
        // a broker that does not answer adds nothing
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return new Scrape(brokers);
  }

  /** The samples of Prometheus' text format (comments skipped). */
  public static List<Sample> parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      Matcher sample = SAMPLE.matcher(line.strip());
      if (!sample.matches()) {
        continue;
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (sample.group(3) != null) {
        Matcher label = LABEL.matcher(sample.group(3));
        while (label.find()) {
          labels.put(label.group(1), label.group(2));
        }
      }
      try {
        samples.add(new Sample(sample.group(1), labels, Double.parseDouble(sample.group(4))));
      } catch (NumberFormatException notANumber) {
        // NaN and the like are written "NaN", which parses; anything else is not a sample
      }
    }
    return samples;
  }
}
