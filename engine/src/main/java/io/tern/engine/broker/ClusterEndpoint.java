package io.tern.engine.broker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tern.engine.cluster.BrokerMessages;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.PartitionState;
import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.scaling.Coordinator;
import io.tern.engine.scaling.Topology;
import io.tern.engine.scaling.Topology.Change;
import io.tern.engine.scaling.Topology.Step;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * {@code /actuator/cluster}: the cluster's topology and its changes, in the shapes of Zeebe 8.6's
 * cluster endpoint (docs/scaling.md).
 *
 * <ul>
 *   <li>{@code GET /actuator/cluster}: version, brokers with their partitions (id, state, priority,
 *       role as the broker last said), {@code lastChange}, {@code pendingChange} with its steps;
 *   <li>{@code POST /actuator/cluster/brokers} with a JSON array of every broker id the cluster is
 *       to have ({@code ?replicationFactor=N} changes that too, {@code ?dryRun=true} only plans);
 *   <li>{@code POST} / {@code DELETE /actuator/cluster/brokers/{id}}: add or remove one broker;
 *   <li>{@code POST /actuator/cluster/changes/{id}/cancel}: cancel the change under way.
 * </ul>
 *
 * Changes are planned and applied by the coordinating broker (the lowest node id); any broker
 * answers GET, and forwards a write to the coordinator over the command API ({@code ClusterChange},
 * brokers only), answering with the coordinator's answer. The management token guards every write
 * (checked by {@link ManagementApi} where the request comes in; it is not forwarded). A standalone
 * gateway answers GET from the topology the brokers gossip and forwards writes the same way, which
 * the coordinator takes only where the gateway counts as a broker (io.tern.engine.cluster.
 * BrokerIdentity: with cluster TLS, the chart gives it the brokers' certificate).
 */
final class ClusterEndpoint {
  static final String PATH = "/actuator/cluster";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int self;
  private final Supplier<Topology> topology;
  private final Coordinator coordinator;
  private final ClusterClient cluster;

  /**
   * @param topology the topology as known here; null while none is (a gateway that has not heard
   *     from a broker yet)
   * @param coordinator this broker's coordinator, or null on a standalone gateway
   */
  ClusterEndpoint(
      int self, Supplier<Topology> topology, Coordinator coordinator, ClusterClient cluster) {
    this.self = self;
    this.topology = topology;
    this.coordinator = coordinator;
    this.cluster = cluster;
  }

  /** The endpoint of a standalone gateway: the newest topology the brokers gossip, read only. */
  static ClusterEndpoint ofGateway(ClusterClient cluster) {
    return new ClusterEndpoint(-1, () -> newestGossiped(cluster), null, cluster);
  }

  CompletableFuture<ManagementApi.Answer> handle(
      String method, String path, Map<String, List<String>> query, String body) {
    try {
      return CompletableFuture.completedFuture(answer(method, path, query, body));
    } catch (Coordinator.NotCoordinator elsewhere) {
      return CoordinatorForwarding.forward(
          cluster,
          elsewhere.coordinator(),
          new BrokerMessages.ClusterRequest(method, path, query, body));
    } catch (RuntimeException refused) {
      return CompletableFuture.completedFuture(refusal(refused));
    }
  }

  /**
   * A write another broker forwarded here: answered here, never forwarded again, so that brokers
   * that disagree for a moment on who coordinates do not pass it round (this one answers 409).
   */
  CompletableFuture<BrokerMessages.ClusterAnswer> forwarded(BrokerMessages.ClusterRequest request) {
    ManagementApi.Answer answer;
    try {
      answer = answer(request.method(), request.path(), request.query(), request.body());
    } catch (RuntimeException refused) {
      answer = refusal(refused);
    }
    return CompletableFuture.completedFuture(
        new BrokerMessages.ClusterAnswer(answer.status(), answer.body()));
  }

  private static ManagementApi.Answer refusal(RuntimeException error) {
    if (error instanceof Coordinator.Refused refused) {
      return ManagementApi.Answer.error(refused.status(), refused.getMessage());
    }
    if (error instanceof IllegalArgumentException bad) {
      return ManagementApi.Answer.error(400, bad.getMessage());
    }
    throw error;
  }

  /** The topology with the highest version among the brokers' states, or null if none has one. */
  static Topology newestGossiped(ClusterClient cluster) {
    Topology newest = null;
    for (BrokerState state : cluster.brokers()) {
      if (state.topology().isEmpty()) {
        continue;
      }
      try {
        Topology topology = Topology.fromJson(state.topology());
        if (newest == null || topology.version() > newest.version()) {
          newest = topology;
        }
      } catch (IllegalArgumentException unreadable) {
        // a broker of another version: its topology is not used here
      }
    }
    return newest;
  }

  /** The topology known here. */
  private Topology current() {
    Topology current = topology.get();
    if (current == null) {
      throw new Coordinator.Refused(
          503, "no broker has told this gateway the cluster's topology yet; try again shortly");
    }
    return current;
  }

  private Topology requestChange(
      SortedSet<Integer> brokers, Integer replicationFactor, boolean dryRun) {
    if (coordinator == null) {
      throw new Coordinator.NotCoordinator(current().coordinator());
    }
    return coordinator.requestChange(brokers, replicationFactor, dryRun);
  }

  private ManagementApi.Answer answer(
      String method, String path, Map<String, List<String>> query, String body) {
    String rest = path.substring(PATH.length());
    boolean dryRun = flag(query, "dryRun");
    if (rest.isEmpty() && method.equals("GET")) {
      return ManagementApi.Answer.json(200, write(topologyJson(current())));
    }
    if (rest.equals("/brokers") && method.equals("POST")) {
      return planned(brokersOf(body), replicationFactor(query), dryRun);
    }
    if (rest.startsWith("/brokers/") && (method.equals("POST") || method.equals("DELETE"))) {
      int id = brokerId(rest.substring("/brokers/".length()));
      SortedSet<Integer> brokers = new TreeSet<>(current().brokers().keySet());
      if (method.equals("POST")) {
        brokers.add(id);
      } else if (!brokers.remove(id)) {
        throw new IllegalArgumentException("broker " + id + " is not a broker of the cluster");
      }
      return planned(brokers, replicationFactor(query), dryRun);
    }
    if (rest.startsWith("/changes/") && rest.endsWith("/cancel") && method.equals("POST")) {
      long id = number(rest.substring("/changes/".length(), rest.length() - "/cancel".length()));
      if (coordinator == null || !coordinator.coordinates()) {
        // Whether the change is under way is the coordinator's to say: this copy may lag.
        throw new Coordinator.NotCoordinator(current().coordinator());
      }
      Change pending = current().pendingChange();
      if (pending == null || pending.id() != id) {
        throw new Coordinator.RefusedNotFound(
            "change "
                + id
                + " is not under way"
                + (pending == null ? "" : " (change " + pending.id() + " is)"));
      }
      return ManagementApi.Answer.json(200, write(topologyJson(coordinator.cancel())));
    }
    boolean known =
        rest.isEmpty()
            || rest.equals("/brokers")
            || rest.startsWith("/brokers/")
            || rest.startsWith("/changes/");
    return ManagementApi.Answer.error(
        known ? 405 : 404,
        (known ? "method not allowed: " : "no such endpoint: ")
            + method
            + " "
            + path
            + " (GET "
            + PATH
            + ", POST "
            + PATH
            + "/brokers, POST|DELETE "
            + PATH
            + "/brokers/{id}, POST "
            + PATH
            + "/changes/{id}/cancel)");
  }

  /** Zeebe's answer to a change request: the change id, the topology now, the plan, the result. */
  private ManagementApi.Answer planned(
      SortedSet<Integer> brokers, Integer replicationFactor, boolean dryRun) {
    Topology before = current();
    Topology planned = requestChange(brokers, replicationFactor, dryRun);
    ObjectNode answer = JSON.createObjectNode();
    Change change = planned.pendingChange();
    answer.put(
        "changeId",
        change == null
            ? (before.lastChange() == null ? 0 : before.lastChange().id())
            : change.id());
    answer.set("currentTopology", brokersJson(before, false));
    ArrayNode steps = answer.putArray("plannedChanges");
    if (change != null) {
      change.pending().forEach(step -> steps.add(stepJson(step)));
    }
    answer.set("expectedTopology", brokersJson(expected(planned), false));
    return ManagementApi.Answer.json(dryRun ? 200 : 202, write(answer));
  }

  /** {@code topology} with every step of its change applied. */
  private static Topology expected(Topology topology) {
    Topology result = topology;
    while (result.pendingChange() != null && result.currentStep() != null) {
      result = Coordinator.applyStep(result);
    }
    return result;
  }

  private ObjectNode topologyJson(Topology topology) {
    ObjectNode json = JSON.createObjectNode();
    json.put("version", topology.version());
    json.put("coordinator", topology.coordinator());
    json.put("partitionsCount", topology.partitionsCount());
    json.put("replicationFactor", topology.replicationFactor());
    json.set("brokers", brokersJson(topology, true));
    if (topology.lastChange() != null) {
      Change last = topology.lastChange();
      ObjectNode change = json.putObject("lastChange");
      change.put("id", last.id());
      change.put("status", last.status().name());
      change.put("startedAt", last.startedAt());
      if (last.completedAt() != null) {
        change.put("completedAt", last.completedAt());
      }
    }
    if (topology.pendingChange() != null) {
      Change pending = topology.pendingChange();
      ObjectNode change = json.putObject("pendingChange");
      change.put("id", pending.id());
      change.put("status", pending.status().name());
      change.put("startedAt", pending.startedAt());
      ArrayNode completed = change.putArray("completed");
      pending.completed().forEach(step -> completed.add(stepJson(step)));
      ArrayNode steps = change.putArray("pending");
      pending.pending().forEach(step -> steps.add(stepJson(step)));
    }
    return json;
  }

  /** Each broker with its partitions; {@code live} adds what each broker last said of them. */
  private ArrayNode brokersJson(Topology topology, boolean live) {
    ArrayNode brokers = JSON.createArrayNode();
    Step step = topology.currentStep();
    for (Map.Entry<Integer, SortedMap<Integer, Integer>> broker : topology.brokers().entrySet()) {
      int node = broker.getKey();
      ObjectNode json = brokers.addObject();
      json.put("id", node);
      json.put(
          "state",
          topology.pendingChange() != null
                  && !topology.pendingChange().targetBrokers().contains(node)
              ? "LEAVING"
              : "ACTIVE");
      ArrayNode partitions = json.putArray("partitions");
      SortedMap<Integer, Integer> held = new java.util.TreeMap<>(broker.getValue());
      if (step != null
          && step.brokerId() == node
          && step.operation() == Step.Operation.PARTITION_JOIN) {
        held.put(step.partitionId(), step.priority());
      }
      BrokerState state = live ? stateOf(node) : null;
      for (Map.Entry<Integer, Integer> partition : held.entrySet()) {
        ObjectNode p = partitions.addObject();
        p.put("id", partition.getKey());
        p.put("state", partitionState(step, node, partition.getKey()));
        p.put("priority", partition.getValue());
        if (live) {
          p.put("role", roleOf(state, partition.getKey()));
        }
      }
    }
    for (Integer node :
        topology.pendingChange() == null
            ? List.<Integer>of()
            : topology.pendingChange().targetBrokers()) {
      if (!topology.brokers().containsKey(node)) {
        ObjectNode json = brokers.addObject();
        json.put("id", node);
        json.put("state", "JOINING");
        json.putArray("partitions");
      }
    }
    return brokers;
  }

  private static String partitionState(Step step, int node, int partitionId) {
    if (step != null && step.brokerId() == node && step.partitionId() == partitionId) {
      return switch (step.operation()) {
        case PARTITION_JOIN -> "JOINING";
        case PARTITION_LEAVE -> "LEAVING";
        case PARTITION_RECONFIGURE_PRIORITY -> "ACTIVE";
      };
    }
    return "ACTIVE";
  }

  private BrokerState stateOf(int node) {
    return node == self ? null : cluster.stateOf(node);
  }

  private String roleOf(BrokerState state, int partitionId) {
    if (state == null) {
      return "UNKNOWN";
    }
    for (PartitionState partition : state.partitions()) {
      if (partition.partitionId() == partitionId) {
        return partition.leader() ? "LEADER" : "FOLLOWER";
      }
    }
    return "NOT_OPEN";
  }

  private static ObjectNode stepJson(Step step) {
    ObjectNode json = JSON.createObjectNode();
    json.put("operation", step.operation().name());
    json.put("brokerId", step.brokerId());
    json.put("partitionId", step.partitionId());
    if (step.operation() != Step.Operation.PARTITION_LEAVE) {
      json.put("priority", step.priority());
    }
    return json;
  }

  /** The body: a JSON array of broker ids, as numbers or strings (Zeebe's examples use strings). */
  static SortedSet<Integer> brokersOf(String body) {
    JsonNode ids;
    try {
      ids = JSON.readTree(body == null || body.isBlank() ? "null" : body);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(
          "the body must be a JSON array of broker ids, e.g. [0, 1, 2, 3]: " + e.getMessage());
    }
    if (ids == null || !ids.isArray()) {
      throw new IllegalArgumentException(
          "the body must be a JSON array of broker ids, e.g. [0, 1, 2, 3]");
    }
    SortedSet<Integer> brokers = new TreeSet<>();
    for (JsonNode id : ids) {
      int value = brokerId(id.asText());
      if (!brokers.add(value)) {
        throw new IllegalArgumentException("broker " + value + " is listed twice");
      }
    }
    return brokers;
  }

  private static int brokerId(String text) {
    long id = number(text);
    if (id < 0 || id > 1023) {
      throw new IllegalArgumentException("broker id " + text + " is outside [0, 1023]");
    }
    return (int) id;
  }

  private static long number(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a number");
    }
  }

  private static Integer replicationFactor(Map<String, List<String>> query) {
    List<String> values = query.get("replicationFactor");
    return values == null || values.isEmpty() ? null : (int) number(values.get(0));
  }

  private static boolean flag(Map<String, List<String>> query, String name) {
    List<String> values = query.get(name);
    if (values == null || values.isEmpty()) {
      return false;
    }
    String value = values.get(0);
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(name + " must be true or false, not '" + value + "'");
    }
    return value.equals("true");
  }

  private static String write(JsonNode json) {
    try {
      return JSON.writeValueAsString(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
