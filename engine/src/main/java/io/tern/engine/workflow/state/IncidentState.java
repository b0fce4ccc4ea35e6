package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.IncidentValue;

/** Open incidents by key, and the incident of each job or element (without job) that has one. */
public final class IncidentState {
  private final ColumnFamily<DbLong, IncidentValue> incidents;
  private final ColumnFamily<DbLong, DbLong> byJob;
  private final ColumnFamily<DbLong, DbLong> byElement;
  private final DbLong key = new DbLong();
  private final DbLong other = new DbLong();

  public IncidentState(PartitionState state) {
    this(state, false);
  }

  /** A view for reads only (diagnostics), beside the engine's own instance: claims no ids. */
  public static IncidentState readOnly(PartitionState state) {
    return new IncidentState(state, true);
  }

  private IncidentState(PartitionState state, boolean view) {
    incidents = family(state, view, StateIds.INCIDENTS, new DbLong(), new IncidentValue());
    byJob = family(state, view, StateIds.JOB_INCIDENTS, new DbLong(), new DbLong());
    byElement = family(state, view, StateIds.ELEMENT_INCIDENTS, new DbLong(), new DbLong());
  }

  public boolean get(long incidentKey, IncidentValue into) {
    return incidents.get(key.set(incidentKey), into);
  }

  /** Visits the open incidents in key order until {@code visitor} returns false. */
  public void forEach(ColumnFamily.Visitor<Long, IncidentValue> visitor) {
    incidents.forEach((incidentKey, incident) -> visitor.visit(incidentKey.get(), incident));
  }

  /** The open incident of a job, or -1. */
  public long ofJob(long jobKey) {
    return byJob.get(key.set(jobKey), other) ? other.get() : -1;
  }

  /** The open incident of an element instance (one not raised by a job), or -1. */
  public long ofElement(long elementInstanceKey) {
    return byElement.get(key.set(elementInstanceKey), other) ? other.get() : -1;
  }

  public void create(long incidentKey, IncidentValue incident) {
    incidents.put(key.set(incidentKey), incident);
    if (incident.jobKey >= 0) {
      byJob.put(key.set(incident.jobKey), other.set(incidentKey));
    } else {
      byElement.put(key.set(incident.elementInstanceKey), other.set(incidentKey));
    }
  }

  public void remove(long incidentKey, IncidentValue incident) {
    incidents.delete(key.set(incidentKey));
    if (incident.jobKey >= 0) {
      byJob.delete(key.set(incident.jobKey));
    } else {
      byElement.delete(key.set(incident.elementInstanceKey));
    }
  }

  private static <K extends io.tern.engine.state.DbKey, V extends io.tern.engine.state.DbValue>
      ColumnFamily<K, V> family(PartitionState state, boolean view, short id, K key, V value) {
    return view ? state.readView(id, key, value) : state.columnFamily(id, key, value);
  }
}
