package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
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
  private final ColumnFamily<DbLong, DbNil> deleted;
  private final ColumnFamily<DbLong, DbLong> runningInstances;
  private final DbNil nil = new DbNil();
  private final DbLong count = new DbLong();
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
    deleted = state.columnFamily(StateIds.DELETED_PROCESSES, new DbLong(), nil);
    runningInstances =
        state.columnFamily(StateIds.PROCESS_INSTANCE_COUNTS, new DbLong(), new DbLong());
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

  /**
   * The highest version ever deployed, or 0: the next deployment gets the one after it, even if
   * this one was deleted (versions are never reused).
   */
  public int latestVersion(String bpmnProcessId) {
    return latestVersion.get(id.set(bpmnProcessId), number) ? (int) number.get() : 0;
  }

  /**
   * The given version ({@code -1}: the latest that is not deleted) of the process, or null if it is
   * not deployed or was deleted.
   */
  public Deployed byIdAndVersion(String bpmnProcessId, int version) {
    int from = version < 0 ? latestVersion(bpmnProcessId) : version;
    int to = version < 0 ? 1 : version;
    DbLong found = new DbLong();
    for (int wanted = from; wanted >= to; wanted--) {
      id.set(bpmnProcessId);
      number.set(wanted);
      if (byIdAndVersion.get(idAndVersion, found)) {
        return byKey(found.get());
      }
    }
    return null;
  }

  /** Whether the process with this definition key was deleted (its instances may still run). */
  public boolean isDeleted(long processDefinitionKey) {
    return deleted.exists(key.set(processDefinitionKey));
  }

  /**
   * Applier: the process is deleted: no new instance, not found by id and version any more; it is
   * forgotten at once if no instance of it runs here, else when the last one ends. Its key stays
   * marked, so that a copy of its deployment arriving late (or after the deletion's copy) does not
   * bring it back.
   */
  public void delete(long processDefinitionKey) {
    Deployed process = byKey(processDefinitionKey);
    if (process == null || isDeleted(processDefinitionKey)) {
      deleted.put(key.set(processDefinitionKey), nil);
      return;
    }
    id.set(process.bpmnProcessId());
    number.set(process.version());
    byIdAndVersion.delete(idAndVersion);
    deleted.put(key.set(processDefinitionKey), nil);
    if (running(processDefinitionKey) == 0) {
      forget(processDefinitionKey);
    }
  }

  /** Applier: an instance of the process started here. */
  public void instanceStarted(long processDefinitionKey) {
    runningInstances.put(
        key.set(processDefinitionKey), count.set(running(processDefinitionKey) + 1));
  }

  /** Applier: an instance of the process ended here; the last of a deleted process forgets it. */
  public void instanceEnded(long processDefinitionKey) {
    long left = running(processDefinitionKey) - 1;
    if (left > 0) {
      runningInstances.put(key.set(processDefinitionKey), count.set(left));
      return;
    }
    runningInstances.delete(key.set(processDefinitionKey));
    if (isDeleted(processDefinitionKey)) {
      forget(processDefinitionKey);
    }
  }

  private long running(long processDefinitionKey) {
    return runningInstances.get(key.set(processDefinitionKey), count) ? count.get() : 0;
  }

  private void forget(long processDefinitionKey) {
    byKey.delete(key.set(processDefinitionKey));
    cache.remove(processDefinitionKey);
  }
}
