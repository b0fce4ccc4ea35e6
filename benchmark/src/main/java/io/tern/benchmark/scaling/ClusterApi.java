package io.tern.benchmark.scaling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The management calls the scaling benchmark makes on a local cluster (docs/scaling.md): request a
 * change, follow it to its end, read the step timer, take and find snapshots.
 */
final class ClusterApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(50);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final String authorization;

  /**
   * @param authorization the management token's header value, for the writes
   */
  ClusterApi(String authorization) {
    this.authorization = authorization;
  }

  /** A change followed to its end: when each step was seen done, in nanoTime, and the status. */
  record ChangeRun(
      long changeId,
      List<String> plan,
      long requestedNs,
      long answeredNs,
      List<Long> stepsDoneNs,
      long endedNs,
      String status) {
    double seconds() {
      return (endedNs - requestedNs) / 1e9;
    }

    /** Step {@code i}'s time as seen from here: from the previous step's end (or the request). */
    double stepSeconds(int i) {
      long from = i == 0 ? requestedNs : stepsDoneNs.get(i - 1);
      return (stepsDoneNs.get(i) - from) / 1e9;
    }
  }

  JsonNode topology(String management) throws IOException, InterruptedException {
    return JSON.readTree(get(management, "/actuator/cluster"));
  }

  /**
   * Requests {@code brokers} (with {@code replicationFactor}, if not null) of the coordinator at
   * {@code management} and returns its 202 answer. A broker to add is refused as not known until it
   * announced itself; that is asked again for up to 60 s.
   */
  JsonNode requestChange(String management, List<Integer> brokers, Integer replicationFactor)
      throws IOException, InterruptedException {
    String path =
        "/actuator/cluster/brokers"
            + (replicationFactor == null ? "" : "?replicationFactor=" + replicationFactor);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(URI.create("http://" + management + path))
                  .header("Authorization", authorization)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(brokers.toString()))
                  .timeout(TIMEOUT)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() == 202) {
        return JSON.readTree(answer.body());
      }
      boolean notKnownYet = answer.statusCode() == 400 && answer.body().contains("not known");
      if (!notKnownYet || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the change to brokers "
                + brokers
                + " was refused: "
                + answer.statusCode()
                + " "
                + answer.body());
      }
      Thread.sleep(200);
    }
  }

  /**
   * Requests the change and follows it on the coordinator until its {@code lastChange} is it, or
   * {@code timeout} passes (then the status is "TIMED_OUT").
   */
  ChangeRun change(
      String management, List<Integer> brokers, Integer replicationFactor, Duration timeout)
      throws IOException, InterruptedException {
    long requestedNs = System.nanoTime();
    JsonNode planned = requestChange(management, brokers, replicationFactor);
    long answeredNs = System.nanoTime();
    long changeId = planned.get("changeId").asLong();
    List<String> plan = steps(planned.get("plannedChanges"));
    List<Long> stepsDone = new ArrayList<>();
    long deadline = requestedNs + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode topology;
      try {
        topology = topology(management);
      } catch (IOException busy) {
        Thread.sleep(POLL.toMillis());
        continue;
      }
      long now = System.nanoTime();
      JsonNode pending = topology.get("pendingChange");
      int done =
          pending != null && pending.get("id").asLong() == changeId
              ? pending.get("completed").size()
              : -1;
      JsonNode last = topology.get("lastChange");
      boolean ended = last != null && last.get("id").asLong() == changeId;
      if (ended) {
        done = plan.size();
      }
      while (done >= 0 && stepsDone.size() < done) {
        stepsDone.add(now);
      }
      if (ended) {
        return new ChangeRun(
            changeId, plan, requestedNs, answeredNs, stepsDone, now, last.get("status").asText());
      }
      Thread.sleep(POLL.toMillis());
    }
    return new ChangeRun(
        changeId, plan, requestedNs, answeredNs, stepsDone, System.nanoTime(), "TIMED_OUT");
  }

  /** "PARTITION_JOIN 3 2" (operation, broker, partition) for each step of {@code steps}. */
  static List<String> steps(JsonNode steps) {
    List<String> names = new ArrayList<>();
    for (JsonNode step : steps) {
      names.add(
          step.get("operation").asText()
              + " "
              + step.get("brokerId").asInt()
              + " "
              + step.get("partitionId").asInt());
    }
    return names;
  }

  /**
   * The coordinator's {@code tern.cluster.change.step} timer for {@code operation}: seconds
   * recorded in all, and how many steps. Zeros before the first step of that kind.
   */
  double[] stepTimer(String management, String operation) throws IOException, InterruptedException {
    return meter(management, "tern_cluster_change_step_seconds", "operation=\"" + operation + "\"");
  }

  /**
   * The sum and count of the Prometheus summary or timer {@code name} on broker {@code management},
   * over its series whose labels contain {@code labels}; zeros where there is none.
   */
  double[] meter(String management, String name, String labels)
      throws IOException, InterruptedException {
    String metrics = get(management, "/actuator/prometheus");
    double sum = 0;
    double count = 0;
    Pattern line =
        Pattern.compile(
            "^" + Pattern.quote(name) + "_(sum|count)\\{([^}]*)\\}\\s+(\\S+)", Pattern.MULTILINE);
    Matcher matcher = line.matcher(metrics);
    while (matcher.find()) {
      if (!matcher.group(2).contains(labels)) {
        continue;
      }
      double value = Double.parseDouble(matcher.group(3));
      if (matcher.group(1).equals("sum")) {
        sum += value;
      } else {
        count += value;
      }
    }
    return new double[] {sum, count};
  }

  /** Asks broker {@code management} to snapshot each partition it holds; its answer. */
  String takeSnapshot(String management) throws IOException, InterruptedException {
    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://" + management + "/actuator/partitions/takeSnapshot"))
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofMinutes(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200) {
      throw new IllegalStateException(
          "takeSnapshot on " + management + ": " + answer.statusCode() + " " + answer.body());
    }
    return answer.body();
  }

  /** Each partition broker {@code management} holds, with its role and latest snapshot's id. */
  Map<Integer, JsonNode> partitions(String management) throws IOException, InterruptedException {
    JsonNode answer = JSON.readTree(get(management, "/actuator/partitions"));
    Map<Integer, JsonNode> partitions = new TreeMap<>();
    answer
        .fields()
        .forEachRemaining(e -> partitions.put(Integer.parseInt(e.getKey()), e.getValue()));
    return partitions;
  }

  private String get(String management, String path) throws IOException, InterruptedException {
    HttpResponse<String> answer =
        http.send(
            HttpRequest.newBuilder(URI.create("http://" + management + path))
                .timeout(TIMEOUT)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() != 200) {
      throw new IOException("GET " + path + " on " + management + ": " + answer.statusCode());
    }
    return answer.body();
  }
}
