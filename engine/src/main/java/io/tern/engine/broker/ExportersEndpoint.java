package io.tern.engine.broker;

import io.tern.engine.exporter.ExporterDirector;
import io.tern.engine.exporter.ExporterStatus;
import io.tern.engine.partition.EnginePartition;
import io.tern.raft.RaftRole;
import java.util.List;

/**
 * {@code GET /actuator/exporters}: per partition hosted here and configured exporter, the position
 * the exporter acknowledged, its lag, what the director does with it and its last error. The
 * director's figures are live on the partition's leader only; every member shows the position its
 * state stores. Errors may name hosts or data, so without the management token they are redacted,
 * as an instance's variables are.
 */
final class ExportersEndpoint {
  static final String REDACTED = "redacted: send the management token to see it";

  private ExportersEndpoint() {}

  static String answer(List<EnginePartition> partitions, boolean authorized, long nowMs) {
    return ManagementApi.object(
        json -> {
          for (EnginePartition partition : partitions) {
            ExporterDirector director = partition.director();
            if (director == null) {
              continue;
            }
            json.writeObjectFieldStart(Integer.toString(partition.partitionId()));
            boolean leader = partition.raft().role() == RaftRole.LEADER;
            json.writeBooleanField("leader", leader);
            json.writeObjectFieldStart("exporters");
            for (ExporterStatus status : director.statuses()) {
              json.writeObjectFieldStart(status.exporterId());
              json.writeStringField(
                  "state", status.state().name().toLowerCase(java.util.Locale.ROOT));
              json.writeNumberField("position", status.position());
              Long stored = partition.exporterPositions().position(status.exporterId());
              json.writeNumberField("storedPosition", stored == null ? -1 : stored);
              if (leader) {
                json.writeNumberField("lagRecords", status.lagRecords());
                json.writeNumberField("lagSeconds", status.lagSeconds(nowMs));
              } else {
                json.writeNullField("lagRecords"); // the leader's director knows it
                json.writeNullField("lagSeconds");
              }
              String error = status.lastError();
              if (error == null) {
                json.writeNullField("lastError");
              } else {
                json.writeStringField("lastError", authorized ? error : REDACTED);
              }
              json.writeEndObject();
            }
            json.writeEndObject();
            json.writeEndObject();
          }
        });
  }
}
