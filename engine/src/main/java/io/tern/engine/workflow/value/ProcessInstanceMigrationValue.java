package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.ProcessInstanceMigrationValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceMigrationValueEncoder;
import java.util.ArrayList;
import java.util.List;

/**
 * MigrateProcessInstance: the process definition a running instance moves to, and for each element
 * of the source that has (or may have) an instance, the element of the target it becomes. The
 * MIGRATED event carries the command's value unchanged.
 */
public final class ProcessInstanceMigrationValue
    extends MappedValue<ProcessInstanceMigrationValue> {
  /** Instances of {@code sourceElementId} become instances of {@code targetElementId}. */
  public record Mapping(String sourceElementId, String targetElementId) {}

  private static final ValueFields<ProcessInstanceMigrationValue> FIELDS =
      ValueFields.of(
              ProcessInstanceMigrationValue.class,
              ProcessInstanceMigrationValueEncoder.class,
              ProcessInstanceMigrationValueDecoder.class)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "targetProcessDefinitionKey",
              v -> v.targetProcessDefinitionKey,
              (v, x) -> v.targetProcessDefinitionKey = x)
          .group(
              "mappings",
              v -> v.mappings,
              Mapping.class,
              mapping -> mapping.string("sourceElementId").string("targetElementId"))
          .build();

  public long processInstanceKey = -1;
  public long targetProcessDefinitionKey = -1;
  public final List<Mapping> mappings = new ArrayList<>();

  public ProcessInstanceMigrationValue() {
    super(FIELDS);
  }
}
