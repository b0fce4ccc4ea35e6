package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.model.BpmnTransformer;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.value.DeploymentValue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Deployed processes: each stored with its resource under its definition key, found by id and
 * version, and the latest version of each id. The executable form is derived from the resource on
 * first use and cached (the transformation is pure, so replay derives the same).
 */
public final class ProcessState {
  /** A deployed process version. */
  public record Deployed(
      long key, String bpmnProcessId, int version, String checksum, ExecutableProcess process) {}

  private final ColumnFamily<DbLong, DeploymentValue> byKey;
  private final ColumnFamily<DbCompositeKey<DbString, DbLong>, DbLong> byIdAndVersion;
  private final ColumnFamily<DbString, DbLong> latestVersion;
  private final DbLong key = new DbLong();
  private final DbLong number = new DbLong();
  private final DbString id = new DbString();
  private final DbCompositeKey<DbString, DbLong> idAndVersion = new DbCompositeKey<>(id, number);
  private final DeploymentValue stored = new DeploymentValue();
  private final Map<Long, Deployed> cache = new HashMap<>();

  public ProcessState(PartitionState state) {
    byKey = state.columnFamily(StateIds.PROCESSES, new DbLong(), new DeploymentValue());
    byIdAndVersion =
        state.columnFamily(
            StateIds.PROCESS_BY_ID_AND_VERSION,
            new DbCompositeKey<>(new DbString(), new DbLong()),
            new DbLong());
    latestVersion =
        state.columnFamily(StateIds.PROCESS_LATEST_VERSION, new DbString(), new DbLong());
  }

  /** Applier: stores one new process version (the resource holding it, its metadata). */
  public void put(DeploymentValue.Process process, DeploymentValue.Resource resource) {
    DeploymentValue entry = new DeploymentValue();
    entry.resources.add(resource);
    entry.processes.add(process);
    byKey.put(key.set(process.processDefinitionKey()), entry);
    id.set(process.bpmnProcessId());
    number.set(process.version());
    byIdAndVersion.put(idAndVersion, key.set(process.processDefinitionKey()));
    // Distributed deployments may arrive out of order: the latest is the highest seen.
    if (process.version() > latestVersion(process.bpmnProcessId())) {
      latestVersion.put(id.set(process.bpmnProcessId()), number.set(process.version()));
    }
  }

  /** The process with this definition key, or null. */
  public Deployed byKey(long processDefinitionKey) {
    Deployed cached = cache.get(processDefinitionKey);
    if (cached != null) {
      return cached;
    }
    if (!byKey.get(key.set(processDefinitionKey), stored)) {
      return null;
    }
    DeploymentValue.Process meta = stored.processes.get(0);
    DeploymentValue.Resource resource = stored.resources.get(0);
    List<ExecutableProcess> processes =
        BpmnTransformer.transform(resource.name(), resource.content());
    ExecutableProcess process =
        processes.stream()
            .filter(p -> p.bpmnProcessId().equals(meta.bpmnProcessId()))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "resource " + resource.name() + " lost process " + meta.bpmnProcessId()));
    Deployed deployed =
        new Deployed(
            processDefinitionKey, meta.bpmnProcessId(), meta.version(), meta.checksum(), process);
    cache.put(processDefinitionKey, deployed);
    return deployed;
  }

  /** The latest version's number, or 0 if none is deployed. */
  public int latestVersion(String bpmnProcessId) {
    return latestVersion.get(id.set(bpmnProcessId), number) ? (int) number.get() : 0;
  }

  /** The given version ({@code -1}: the latest) of the process, or null. */
  public Deployed byIdAndVersion(String bpmnProcessId, int version) {
    int wanted = version < 0 ? latestVersion(bpmnProcessId) : version;
    if (wanted == 0) {
      return null;
    }
    id.set(bpmnProcessId);
    number.set(wanted);
    DbLong found = new DbLong();
    return byIdAndVersion.get(idAndVersion, found) ? byKey(found.get()) : null;
  }
}
