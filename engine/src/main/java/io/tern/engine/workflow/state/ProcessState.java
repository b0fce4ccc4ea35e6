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
  private final ColumnFamily<DbString, DbLong> latestLiveVersion;
  private final DbNil nil = new DbNil();
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
    latestLiveVersion =
        state.columnFamily(StateIds.PROCESS_LATEST_LIVE_VERSION, new DbString(), new DbLong());
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
    if (process.version() > latestLive(process.bpmnProcessId())) {
      latestLiveVersion.put(id.set(process.bpmnProcessId()), number.set(process.version()));
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
    int wanted = version < 0 ? latestLive(bpmnProcessId) : version;
    if (wanted <= 0) {
      return null;
    }
    id.set(bpmnProcessId);
    number.set(wanted);
    DbLong found = new DbLong();
    return byIdAndVersion.get(idAndVersion, found) ? byKey(found.get()) : null;
  }

  /**
   * The latest version not deleted, 0 if none: kept beside the highest version, which it equals
   * until a latest version is deleted (a state from before deletions has only the highest).
   */
  private int latestLive(String bpmnProcessId) {
    return latestLiveVersion.get(id.set(bpmnProcessId), number)
        ? (int) number.get()
        : latestVersion(bpmnProcessId);
  }

  /** Whether the process with this definition key was deleted (its instances may still run). */
  public boolean isDeleted(long processDefinitionKey) {
    return deleted.exists(key.set(processDefinitionKey));
  }

  /**
   * Applier: the process is deleted: no new instance, not found by id and version any more, and the
   * latest version is the one before it that is not deleted. It stays stored, hidden, so that
   * instances created before the deletion (running, or whose activation is still on its way) run to
   * their end; its key stays marked, so that a copy of its deployment arriving late (or after the
   * deletion's copy) does not bring it back.
   */
  public void delete(long processDefinitionKey) {
    Deployed process = byKey(processDefinitionKey);
    deleted.put(key.set(processDefinitionKey), nil);
    if (process == null) {
      return; // not here yet: the mark keeps its deployment's copy out
    }
    String processId = process.bpmnProcessId();
    id.set(processId);
    number.set(process.version());
    byIdAndVersion.delete(idAndVersion);
    int live = latestLive(processId);
    if (process.version() == live) {
      DbLong found = new DbLong();
      int previous = live - 1;
      for (; previous > 0; previous--) { // once per deletion of a latest version
        id.set(processId);
        number.set(previous);
        if (byIdAndVersion.get(idAndVersion, found)) {
          break;
        }
      }
      latestLiveVersion.put(id.set(processId), number.set(previous));
    }
  }
}
