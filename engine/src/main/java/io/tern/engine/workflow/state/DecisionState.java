package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.dmn.DmnResources;
import io.tern.engine.workflow.value.DeploymentValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.dmn.DmnEngine;
import org.camunda.dmn.parser.ParsedDmn;

/**
 * Deployed decisions and their decision requirements graphs (DMN files): each graph version is
 * stored with its resource and decisions under its key; each decision version points to its graph
 * and is found by key, or by id and version; the latest version of each graph and decision id is
 * kept, and the highest version each id ever had (a deleted graph's versions are never given
 * again). Deleting a graph removes it and its decisions; the latest versions fall back to the
 * highest left. The parsed graph is derived from the resource on first use and cached (parsing is
 * pure).
 */
public final class DecisionState {
  /** A deployed decision version, with its graph's decisions and the graph parsed. */
  public record Deployed(
      DeploymentValue.Decision decision,
      List<DeploymentValue.Decision> graphDecisions,
      ParsedDmn graph) {}

  private final ColumnFamily<DbLong, DeploymentValue> graphs;
  private final ColumnFamily<DbString, DbLong> latestGraph;
  private final ColumnFamily<DbLong, DbLong> graphOfDecision;
  private final ColumnFamily<DbCompositeKey<DbString, DbLong>, DbLong> byIdAndVersion;
  private final ColumnFamily<DbString, DbLong> latestVersion;
  private final ColumnFamily<DbString, DbLong> highestGraphVersion;
  private final ColumnFamily<DbString, DbLong> highestVersion;
  private final DbLong key = new DbLong();
  private final DbLong number = new DbLong();
  private final DbString id = new DbString();
  private final DbCompositeKey<DbString, DbLong> idAndVersion = new DbCompositeKey<>(id, number);
  private final DeploymentValue stored = new DeploymentValue();
  private final DmnEngine engine = new DmnEngine.Builder().build();
  private final Map<Long, ParsedDmn> parsed = new HashMap<>();

  public DecisionState(PartitionState state) {
    graphs =
        state.columnFamily(StateIds.DECISION_REQUIREMENTS, new DbLong(), new DeploymentValue());
    latestGraph =
        state.columnFamily(StateIds.DECISION_REQUIREMENTS_LATEST, new DbString(), new DbLong());
    graphOfDecision = state.columnFamily(StateIds.DECISIONS, new DbLong(), new DbLong());
    byIdAndVersion =
        state.columnFamily(
            StateIds.DECISION_BY_ID_AND_VERSION,
            new DbCompositeKey<>(new DbString(), new DbLong()),
            new DbLong());
    latestVersion =
        state.columnFamily(StateIds.DECISION_LATEST_VERSION, new DbString(), new DbLong());
    highestGraphVersion =
        state.columnFamily(
            StateIds.DECISION_REQUIREMENTS_HIGHEST_VERSION, new DbString(), new DbLong());
    highestVersion =
        state.columnFamily(StateIds.DECISION_HIGHEST_VERSION, new DbString(), new DbLong());
  }

  /**
   * Applier: stores one new graph version, its resource and its decisions (all of one graph, none a
   * duplicate).
   */
  public void put(DeploymentValue.Resource resource, List<DeploymentValue.Decision> decisions) {
    DeploymentValue.Decision first = decisions.get(0);
    DeploymentValue entry = new DeploymentValue();
    entry.resources.add(resource);
    entry.decisions.addAll(decisions);
    long graphKey = first.decisionRequirementsKey();
    graphs.put(key.set(graphKey), entry);
    // Distributed deployments may arrive out of order: the latest is the highest seen.
    if (first.decisionRequirementsVersion() > latestGraphVersion(first.decisionRequirementsId())) {
      latestGraph.put(id.set(first.decisionRequirementsId()), key.set(graphKey));
    }
    raise(highestGraphVersion, first.decisionRequirementsId(), first.decisionRequirementsVersion());
    DbLong graph = new DbLong().set(graphKey);
    for (DeploymentValue.Decision decision : decisions) {
      graphOfDecision.put(key.set(decision.decisionKey()), graph);
      id.set(decision.decisionId());
      number.set(decision.version());
      byIdAndVersion.put(idAndVersion, key.set(decision.decisionKey()));
      if (decision.version() > latestVersion(decision.decisionId())) {
        latestVersion.put(id.set(decision.decisionId()), number.set(decision.version()));
      }
      raise(highestVersion, decision.decisionId(), decision.version());
    }
  }

  private void raise(ColumnFamily<DbString, DbLong> highest, String ofId, int version) {
    DbLong known = new DbLong();
    if (!highest.get(id.set(ofId), known) || known.get() < version) {
      highest.put(id.set(ofId), known.set(version));
    }
  }

  private int highest(ColumnFamily<DbString, DbLong> highest, String ofId) {
    DbLong known = new DbLong();
    return highest.get(id.set(ofId), known) ? (int) known.get() : 0;
  }

  /** The version a new graph with this id gets: one above any it ever had, deleted or not. */
  public int nextGraphVersion(String decisionRequirementsId) {
    return Math.max(
            highest(highestGraphVersion, decisionRequirementsId),
            latestGraphVersion(decisionRequirementsId))
        + 1;
  }

  /** The version a new decision with this id gets: one above any it ever had, deleted or not. */
  public int nextVersion(String decisionId) {
    return Math.max(highest(highestVersion, decisionId), latestVersion(decisionId)) + 1;
  }

  /** The graph with this key (its resource and decisions), or null. */
  public DeploymentValue graph(long graphKey) {
    DeploymentValue graph = new DeploymentValue();
    return graphs.get(key.set(graphKey), graph) ? graph : null;
  }

  /**
   * Applier: deletes graph {@code graphKey} and its decisions; the latest graph and decision
   * versions of its ids fall back to the highest versions left (none: none deployed).
   */
  public void delete(long graphKey) {
    DeploymentValue graph = graph(graphKey);
    if (graph == null) {
      return;
    }
    String graphId = graph.decisions.get(0).decisionRequirementsId();
    raise(highestGraphVersion, graphId, graph.decisions.get(0).decisionRequirementsVersion());
    graphs.delete(key.set(graphKey));
    parsed.remove(graphKey);
    for (DeploymentValue.Decision decision : graph.decisions) {
      raise(highestVersion, decision.decisionId(), decision.version());
      graphOfDecision.delete(key.set(decision.decisionKey()));
      id.set(decision.decisionId());
      number.set(decision.version());
      byIdAndVersion.delete(idAndVersion);
    }
    long[] best = {-1, 0};
    graphs.forEach(
        (k, v) -> {
          DeploymentValue.Decision first = v.decisions.get(0);
          if (first.decisionRequirementsId().equals(graphId)
              && first.decisionRequirementsVersion() > best[1]) {
            best[0] = k.get();
            best[1] = first.decisionRequirementsVersion();
          }
          return true;
        });
    if (best[0] >= 0) {
      latestGraph.put(id.set(graphId), key.set(best[0]));
    } else {
      latestGraph.delete(id.set(graphId));
    }
    for (DeploymentValue.Decision decision : graph.decisions) {
      long[] left = {0};
      byIdAndVersion.forEachWithPrefix(
          new DbString(decision.decisionId()),
          (k, v) -> {
            left[0] = Math.max(left[0], k.second().get());
            return true;
          });
      if (left[0] > 0) {
        latestVersion.put(id.set(decision.decisionId()), number.set(left[0]));
      } else {
        latestVersion.delete(id.set(decision.decisionId()));
      }
    }
  }

  /** Whether {@code key} is the key of a deployed decision requirements graph. */
  public boolean isGraph(long key) {
    return graphs.exists(this.key.set(key));
  }

  /** The latest version of the graph with this id (its decisions), or null. */
  public DeploymentValue latestGraph(String decisionRequirementsId) {
    if (!latestGraph.get(id.set(decisionRequirementsId), key)) {
      return null;
    }
    DeploymentValue graph = new DeploymentValue();
    return graphs.get(key, graph) ? graph : null;
  }

  private int latestGraphVersion(String decisionRequirementsId) {
    DeploymentValue graph = latestGraph(decisionRequirementsId);
    return graph == null ? 0 : graph.decisions.get(0).decisionRequirementsVersion();
  }

  /** The latest version's number of the decision, or 0 if none is deployed. */
  public int latestVersion(String decisionId) {
    return latestVersion.get(id.set(decisionId), number) ? (int) number.get() : 0;
  }

  /** The decision with this key, or null. */
  public Deployed byKey(long decisionKey) {
    DbLong graphKey = new DbLong();
    if (!graphOfDecision.get(key.set(decisionKey), graphKey) || !graphs.get(graphKey, stored)) {
      return null;
    }
    DeploymentValue.Decision decision =
        stored.decisions.stream()
            .filter(d -> d.decisionKey() == decisionKey)
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("graph lost decision " + decisionKey));
    DeploymentValue.Resource resource = stored.resources.get(0);
    ParsedDmn graph =
        parsed.computeIfAbsent(
            graphKey.get(),
            k -> DmnResources.parse(engine, resource.name(), resource.content()).parsed());
    return new Deployed(decision, List.copyOf(stored.decisions), graph);
  }

  /** The latest version of the decision with this id, or null. */
  public Deployed latestById(String decisionId) {
    int version = latestVersion(decisionId);
    if (version == 0) {
      return null;
    }
    id.set(decisionId);
    number.set(version);
    DbLong found = new DbLong();
    return byIdAndVersion.get(idAndVersion, found) ? byKey(found.get()) : null;
  }
}
