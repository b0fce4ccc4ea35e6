package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.DeploymentValueDecoder;
import io.tern.engine.record.sbe.DeploymentValueEncoder;
import java.util.ArrayList;
import java.util.List;

/** Resources deployed together, and the processes and decisions (with versions) they define. */
public final class DeploymentValue extends MappedValue<DeploymentValue> {
  /** One deployed file. */
  public record Resource(String name, byte[] content) {}

  /** One process found in the resources. */
  public record Process(
      long processDefinitionKey,
      int version,
      boolean duplicate,
      String bpmnProcessId,
      String resourceName,
      String checksum) {}

  /**
   * One decision found in the DMN resources, with its decision requirements graph (the DMN file's
   * definitions): each has its own key and version.
   */
  public record Decision(
      long decisionKey,
      String decisionId,
      String decisionName,
      int version,
      boolean duplicate,
      long decisionRequirementsKey,
      String decisionRequirementsId,
      String decisionRequirementsName,
      int decisionRequirementsVersion,
      String resourceName,
      String checksum) {}

  private static final ValueFields<DeploymentValue> FIELDS =
      ValueFields.of(
              DeploymentValue.class, DeploymentValueEncoder.class, DeploymentValueDecoder.class)
          .group(
              "resources",
              v -> v.resources,
              Resource.class,
              resource -> resource.string("resourceName", "name").bytes("resource", "content"))
          .group(
              "processes",
              v -> v.processes,
              Process.class,
              process ->
                  process
                      .int64("processDefinitionKey")
                      .int32("version")
                      .bool("duplicate")
                      .string("bpmnProcessId")
                      .string("resourceName")
                      .string("checksum"))
          .group(
              "decisions",
              v -> v.decisions,
              Decision.class,
              decision ->
                  decision
                      .int64("decisionKey")
                      .int32("version")
                      .bool("duplicate")
                      .int64("decisionRequirementsKey")
                      .int32("decisionRequirementsVersion")
                      .string("decisionId")
                      .string("decisionName")
                      .string("decisionRequirementsId")
                      .string("decisionRequirementsName")
                      .string("resourceName")
                      .string("checksum"))
          .build();

  public final List<Resource> resources = new ArrayList<>();
  public final List<Process> processes = new ArrayList<>();

  /** Added in version 3 of the schema: none in a deployment written before. */
  public final List<Decision> decisions = new ArrayList<>();

  public DeploymentValue() {
    super(FIELDS);
  }
}
