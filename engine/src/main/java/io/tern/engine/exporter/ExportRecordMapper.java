package io.tern.engine.exporter;

import io.camunda.zeebe.protocol.record.Record;
import io.tern.engine.record.LoggedRecord;

/**
 * Turns one of Tern's logged records into the Zeebe {@link Record} an exporter gets. One mapper per
 * partition (the broker's factory is an {@code IntFunction} of the partition id), used by that
 * partition's exporter director on its one thread only.
 */
@FunctionalInterface
public interface ExportRecordMapper {
  /**
   * The record as Zeebe's, or null if it has no Zeebe counterpart (it is then not exported). The
   * answer must not refer to {@code record}'s buffer: the director moves on to the next record.
   */
  Record<?> map(LoggedRecord record);

  /** Maps nothing: no record is exported (until the broker is given a real mapper). */
  ExportRecordMapper NONE = record -> null;
}
