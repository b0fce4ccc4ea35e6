package io.tern.benchmark.chaos;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the brokers' management APIs say: readiness, who leads which partition, whether an instance
 * is still active. A broker that does not answer within {@link #ANSWER_TIMEOUT} (paused, killed)
 * counts as not answering.
 */
final class ClusterProbe {
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);
  private static final JsonFactory JSON = new JsonFactory();

  /**
   * A broker's view of one of its partitions; {@code replayLag} is how many entries its processor
   * is behind the commit index (-1 from a broker that does not say), {@code replaying} whether the
   * broker counts that as replaying.
   */
  record Replica(
      int node, int partition, String role, long term, long replayLag, boolean replaying) {}

  private final List<String> management;
  private final String authorization;
  private final int partitions;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(ANSWER_TIMEOUT).build();

  /**
   * @param management every broker's management address, by node id
   * @param authorization the Authorization header the brokers' operations need
   */
  ClusterProbe(List<String> management, String authorization, int partitions) {
    this.management = management;
    this.authorization = authorization;
    this.partitions = partitions;
  }

  /**
   * Null when each of {@code nodes} is ready, every replica on them has replayed up to its commit
   * index, and every partition has exactly one leader among them; else what is missing. A replica
   * still replaying would, as the next leader, hold processing up until it caught up: the next
   * fault waits for it.
   */
  String notRecovered(Collection<Integer> nodes) {
    List<String> problems = new ArrayList<>();
    List<Replica> replicas = new ArrayList<>();
    for (int node : nodes) {
      try {
        HttpResponse<String> ready = get(node, "/actuator/health/readiness");
        if (ready.statusCode() != 200) {
          problems.add("broker " + node + " not ready: " + ready.body());
        }
        replicas.addAll(replicas(node));
      } catch (IOException e) {
        problems.add("broker " + node + " does not answer: " + e);
      }
    }
    String replaying = replaying(replicas);
    if (replaying != null) {
      problems.add(replaying);
    }
    String leaders = leaderProblems(partitions, replicas);
    if (leaders != null) {
      problems.add(leaders);
    }
    return problems.isEmpty() ? null : String.join("; ", problems);
  }

  /**
   * Null when every partition has exactly one leader among {@code nodes} by their roles alone
   * (whether it processes yet or not, whether the others are ready or not): what failover means.
   */
  String noLeader(Collection<Integer> nodes) {
    List<Replica> replicas = new ArrayList<>();
    for (int node : nodes) {
      try {
        replicas.addAll(replicas(node));
      } catch (IOException e) {
        // one that does not answer leads nothing we can reach
      }
    }
    return leaderProblems(partitions, replicas);
  }

  /** Null when each of {@code partitions} has exactly one leader among {@code replicas}. */
  static String leaderProblems(int partitions, List<Replica> replicas) {
    Map<Integer, List<Integer>> leaders = new TreeMap<>();
    for (int partition = 1; partition <= partitions; partition++) {
      leaders.put(partition, new ArrayList<>());
    }
    for (Replica replica : replicas) {
      if ("LEADER".equals(replica.role())) {
        leaders.computeIfAbsent(replica.partition(), p -> new ArrayList<>()).add(replica.node());
      }
    }
    List<String> problems = new ArrayList<>();
    leaders.forEach(
        (partition, nodesLeading) -> {
          if (nodesLeading.size() != 1) {
            problems.add("partition " + partition + " has leaders " + nodesLeading);
          }
        });
    return problems.isEmpty() ? null : String.join("; ", problems);
  }

  /** Null when no replica says it is replaying; else which are, and how far behind. */
  static String replaying(List<Replica> replicas) {
    List<String> problems = new ArrayList<>();
    for (Replica replica : replicas) {
      if (replica.replaying()) {
        problems.add(
            "broker "
                + replica.node()
                + " partition "
                + replica.partition()
                + " replaying: "
                + replica.replayLag()
                + " entries behind");
      }
    }
    return problems.isEmpty() ? null : String.join("; ", problems);
  }

  /** The node leading {@code partition} among {@code nodes}, as the first to say so tells. */
  Optional<Integer> leaderOf(int partition, Collection<Integer> nodes) {
    for (int node : nodes) {
      try {
        for (Replica replica : replicas(node)) {
          if (replica.partition() == partition && replica.role().equals("LEADER")) {
            return Optional.of(node);
          }
        }
      } catch (IOException e) {
        // this one does not answer; ask the next
      }
    }
    return Optional.empty();
  }

  /**
   * Whether process instance {@code key} is still active on {@code node}'s replica.
   *
   * @throws IOException when the broker does not answer or answers neither yes nor no
   */
  boolean active(int node, long key) throws IOException {
    HttpResponse<String> answer = get(node, "/actuator/instances/" + key);
    return switch (answer.statusCode()) {
      case 200 -> true;
      case 404 -> false;
      default ->
          throw new IOException(
              "broker " + node + " answered " + answer.statusCode() + ": " + answer.body());
    };
  }

  /**
   * Posts to {@code path} on broker {@code node}.
   *
   * @throws IOException if it does not answer or answers other than 200
   */
  void post(int node, String path) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://" + management.get(node) + path))
            .timeout(ANSWER_TIMEOUT)
            .header("Authorization", authorization)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    try {
      HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() != 200) {
        throw new IOException(
            "broker "
                + node
                + " answered "
                + answer.statusCode()
                + " to "
                + path
                + ": "
                + answer.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /**
   * Takes backup {@code backupId} through broker {@code node} ({@code POST /actuator/backups/N}).
   *
   * @throws IOException if it does not answer or does not accept it (202)
   */
  void backup(int node, long backupId) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://" + management.get(node) + "/actuator/backups/" + backupId))
            .timeout(Duration.ofSeconds(30)) // every partition writes its checkpoint first
            .header("Authorization", authorization)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    try {
      HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() != 202) {
        throw new IOException(
            "broker "
                + node
                + " answered "
                + answer.statusCode()
                + " to backup "
                + backupId
                + ": "
                + answer.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** The state of backup {@code backupId} as broker {@code node} reads it from the store. */
  String backupState(int node, long backupId) throws IOException {
    HttpResponse<String> answer = get(node, "/actuator/backups/" + backupId);
    try (JsonParser parser = JSON.createParser(answer.body())) {
      if (parser.nextToken() == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          parser.nextToken();
          if (field.equals("state")) {
            return parser.getText();
          }
          parser.skipChildren();
        }
      }
    }
    throw new IOException(
        "broker " + node + " answered " + answer.statusCode() + ": " + answer.body());
  }

  /**
   * Broker {@code node}'s view of the cluster ({@code GET /actuator/cluster}): its topology, the
   * change under way and the last one, as {@link #tree} reads them.
   *
   * @throws IOException if it does not answer or answers other than 200
   */
  Map<?, ?> cluster(int node) throws IOException {
    HttpResponse<String> answer = get(node, "/actuator/cluster");
    if (answer.statusCode() != 200) {
      throw new IOException(
          "broker " + node + " answered " + answer.statusCode() + ": " + answer.body());
    }
    return (Map<?, ?>) tree(answer.body());
  }

  /**
   * Asks coordinator {@code node} for the cluster of brokers {@code ids} ({@code POST
   * /actuator/cluster/brokers}); returns the answer's status and body (202 and the plan once
   * accepted).
   */
  HttpResponse<String> changeBrokers(int node, List<Integer> ids) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://" + management.get(node) + "/actuator/cluster/brokers"))
            .timeout(ANSWER_TIMEOUT)
            .header("Authorization", authorization)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(ids.toString()))
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** A JSON text as maps (in their order), lists, strings, longs, doubles, booleans and nulls. */
  static Object tree(String json) throws IOException {
    try (JsonParser parser = JSON.createParser(json)) {
      parser.nextToken();
      return value(parser);
    }
  }

  private static Object value(JsonParser parser) throws IOException {
    switch (parser.currentToken()) {
      case START_OBJECT -> {
        Map<String, Object> object = new java.util.LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          parser.nextToken();
          object.put(field, value(parser));
        }
        return object;
      }
      case START_ARRAY -> {
        List<Object> array = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(parser));
        }
        return array;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT -> {
        return parser.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return parser.getDoubleValue();
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return parser.getBooleanValue();
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IOException("not JSON: " + parser.currentToken());
    }
  }

  List<Replica> replicas(int node) throws IOException {
    HttpResponse<String> answer = get(node, "/actuator/partitions");
    if (answer.statusCode() != 200) {
      throw new IOException("broker " + node + " answered " + answer.statusCode());
    }
    return parseReplicas(node, answer.body());
  }

  /** The replicas in a broker's {@code GET /actuator/partitions} answer. */
  static List<Replica> parseReplicas(int node, String body) throws IOException {
    List<Replica> replicas = new ArrayList<>();
    try (JsonParser json = JSON.createParser(body)) {
      json.nextToken(); // {
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        int partition = Integer.parseInt(json.getCurrentName());
        json.nextToken(); // {
        String role = null;
        long term = 0;
        long replayLag = -1;
        boolean replaying = false;
        while (json.nextToken() == JsonToken.FIELD_NAME) {
          String field = json.getCurrentName();
          JsonToken value = json.nextToken();
          switch (field) {
            case "role" -> role = json.getText();
            case "term" -> term = json.getLongValue();
            case "replayLag" -> replayLag = json.getLongValue();
            case "replaying" -> replaying = json.getBooleanValue();
            default -> {
              if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                json.skipChildren();
              }
            }
          }
        }
        replicas.add(new Replica(node, partition, role, term, replayLag, replaying));
      }
    }
    return replicas;
  }

  private HttpResponse<String> get(int node, String path) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://" + management.get(node) + path))
            .timeout(ANSWER_TIMEOUT)
            .header("Authorization", authorization)
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
