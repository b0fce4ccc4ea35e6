package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.DeploymentValueDecoder;
import io.tern.engine.record.sbe.DeploymentValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Resources deployed together, and the processes and decisions (with versions) they define. */
public final class DeploymentValue extends WorkflowValue {
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

  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final DeploymentValueEncoder encoder = new DeploymentValueEncoder();
  private final DeploymentValueDecoder decoder = new DeploymentValueDecoder();

  public final List<Resource> resources = new ArrayList<>();
  public final List<Process> processes = new ArrayList<>();
  public final List<Decision> decisions = new ArrayList<>();

  @Override
  protected int templateId() {
    return DeploymentValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder.wrapAndApplyHeader(buffer, offset, header);
    DeploymentValueEncoder.ResourcesEncoder resourceGroup =
        encoder.resourcesCount(resources.size());
    for (Resource resource : resources) {
      resourceGroup
          .next()
          .resourceName(resource.name())
          .putResource(resource.content(), 0, resource.content().length);
    }
    DeploymentValueEncoder.ProcessesEncoder processGroup = encoder.processesCount(processes.size());
    for (Process process : processes) {
      processGroup
          .next()
          .processDefinitionKey(process.processDefinitionKey())
          .version(process.version())
          .duplicate(process.duplicate() ? BooleanType.TRUE : BooleanType.FALSE)
          .bpmnProcessId(process.bpmnProcessId())
          .resourceName(process.resourceName())
          .checksum(process.checksum());
    }
    DeploymentValueEncoder.DecisionsEncoder decisionGroup =
        encoder.decisionsCount(decisions.size());
    for (Decision decision : decisions) {
      decisionGroup
          .next()
          .decisionKey(decision.decisionKey())
          .version(decision.version())
          .duplicate(decision.duplicate() ? BooleanType.TRUE : BooleanType.FALSE)
          .decisionRequirementsKey(decision.decisionRequirementsKey())
          .decisionRequirementsVersion(decision.decisionRequirementsVersion())
          .decisionId(decision.decisionId())
          .decisionName(decision.decisionName())
          .decisionRequirementsId(decision.decisionRequirementsId())
          .decisionRequirementsName(decision.decisionRequirementsName())
          .resourceName(decision.resourceName())
          .checksum(decision.checksum());
    }
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    resources.clear();
    processes.clear();
    decisions.clear();
    for (DeploymentValueDecoder.ResourcesDecoder resource : decoder.resources()) {
      String name = resource.resourceName();
      byte[] content = new byte[resource.resourceLength()];
      resource.getResource(content, 0, content.length);
      resources.add(new Resource(name, content));
    }
    for (DeploymentValueDecoder.ProcessesDecoder process : decoder.processes()) {
      long key = process.processDefinitionKey();
      int processVersion = process.version();
      boolean duplicate = process.duplicate() == BooleanType.TRUE;
      processes.add(
          new Process(
              key,
              processVersion,
              duplicate,
              process.bpmnProcessId(),
              process.resourceName(),
              process.checksum()));
    }
    for (DeploymentValueDecoder.DecisionsDecoder decision : decoder.decisions()) {
      long key = decision.decisionKey();
      int decisionVersion = decision.version();
      boolean duplicate = decision.duplicate() == BooleanType.TRUE;
      long graphKey = decision.decisionRequirementsKey();
      int graphVersion = decision.decisionRequirementsVersion();
      // Var data is read in order.
      String id = decision.decisionId();
      String name = decision.decisionName();
      String graphId = decision.decisionRequirementsId();
      String graphName = decision.decisionRequirementsName();
      decisions.add(
          new Decision(
              key,
              id,
              name,
              decisionVersion,
              duplicate,
              graphKey,
              graphId,
              graphName,
              graphVersion,
              decision.resourceName(),
              decision.checksum()));
    }
  }
}
