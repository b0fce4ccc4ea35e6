package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.ProcessInstanceMigrationValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceMigrationValueEncoder;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * MigrateProcessInstance: the process definition a running instance moves to, and for each element
 * of the source that has (or may have) an instance, the element of the target it becomes. The
 * MIGRATED event carries the command's value unchanged.
 */
public final class ProcessInstanceMigrationValue extends WorkflowValue {
  /** Instances of {@code sourceElementId} become instances of {@code targetElementId}. */
  public record Mapping(String sourceElementId, String targetElementId) {}

  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final ProcessInstanceMigrationValueEncoder encoder =
      new ProcessInstanceMigrationValueEncoder();
  private final ProcessInstanceMigrationValueDecoder decoder =
      new ProcessInstanceMigrationValueDecoder();

  public long processInstanceKey = -1;
  public long targetProcessDefinitionKey = -1;
  public final List<Mapping> mappings = new ArrayList<>();

  @Override
  protected int templateId() {
    return ProcessInstanceMigrationValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .processInstanceKey(processInstanceKey)
        .targetProcessDefinitionKey(targetProcessDefinitionKey);
    ProcessInstanceMigrationValueEncoder.MappingsEncoder group =
        encoder.mappingsCount(mappings.size());
    for (Mapping mapping : mappings) {
      group
          .next()
          .sourceElementId(mapping.sourceElementId())
          .targetElementId(mapping.targetElementId());
    }
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    processInstanceKey = decoder.processInstanceKey();
    targetProcessDefinitionKey = decoder.targetProcessDefinitionKey();
    mappings.clear();
    for (ProcessInstanceMigrationValueDecoder.MappingsDecoder mapping : decoder.mappings()) {
      String source = mapping.sourceElementId();
      mappings.add(new Mapping(source, mapping.targetElementId()));
    }
  }
}
