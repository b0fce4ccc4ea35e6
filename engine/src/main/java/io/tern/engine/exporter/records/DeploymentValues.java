package io.tern.engine.exporter.records;

import com.fasterxml.jackson.databind.JsonNode;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.value.EvaluatedDecisionValue;
import io.camunda.zeebe.protocol.record.value.EvaluatedInputValue;
import io.camunda.zeebe.protocol.record.value.EvaluatedOutputValue;
import io.camunda.zeebe.protocol.record.value.ImmutableDecisionEvaluationRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableDeploymentDistributionRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableDeploymentRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableEvaluatedDecisionValue;
import io.camunda.zeebe.protocol.record.value.ImmutableEvaluatedInputValue;
import io.camunda.zeebe.protocol.record.value.ImmutableEvaluatedOutputValue;
import io.camunda.zeebe.protocol.record.value.ImmutableMatchedRuleValue;
import io.camunda.zeebe.protocol.record.value.ImmutableResourceDeletionRecordValue;
import io.camunda.zeebe.protocol.record.value.MatchedRuleValue;
import io.camunda.zeebe.protocol.record.value.deployment.ImmutableDecisionRecordValue;
import io.camunda.zeebe.protocol.record.value.deployment.ImmutableDecisionRequirementsMetadataValue;
import io.camunda.zeebe.protocol.record.value.deployment.ImmutableDeploymentResource;
import io.camunda.zeebe.protocol.record.value.deployment.ImmutableProcessMetadataValue;
import io.tern.engine.workflow.value.DecisionEvaluationValue;
import io.tern.engine.workflow.value.DeploymentDistributionValue;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.agrona.DirectBuffer;

/** Deployed resources (processes, decisions), their deletion, and decisions evaluated. */
final class DeploymentValues {
  private final DeploymentValue deployment = new DeploymentValue();
  private final DeploymentDistributionValue distribution = new DeploymentDistributionValue();
  private final DecisionEvaluationValue evaluation = new DecisionEvaluationValue();
  private final ResourceDeletionValue deletion = new ResourceDeletionValue();

  /**
   * The deployment key is the record's key. Tern does not read version tags (empty, Zeebe's
   * default) nor a DMN file's namespace (empty), and its checksum is a SHA-256 digest where Zeebe's
   * is an MD5 one. Tern has no forms: none.
   */
  RecordValue deployment(DirectBuffer bytes, long deploymentKey) {
    DeploymentValue value = Values.read(deployment, DeploymentValue::new, bytes);
    ImmutableDeploymentRecordValue.Builder zeebe =
        ImmutableDeploymentRecordValue.builder()
            .withDeploymentKey(deploymentKey)
            .withTenantId(Values.TENANT);
    for (DeploymentValue.Resource resource : value.resources) {
      zeebe.addResource(
          ImmutableDeploymentResource.builder()
              .withResourceName(resource.name())
              .withResource(resource.content().clone())
              .build());
    }
    for (DeploymentValue.Process process : value.processes) {
      zeebe.addProcessesMetadata(
          ImmutableProcessMetadataValue.builder()
              .withBpmnProcessId(process.bpmnProcessId())
              .withVersion(process.version())
              .withVersionTag("")
              .withProcessDefinitionKey(process.processDefinitionKey())
              .withResourceName(process.resourceName())
              .withChecksum(Documents.checksum(process.checksum()))
              .withDuplicate(process.duplicate())
              .withDeploymentKey(deploymentKey)
              .withTenantId(Values.TENANT)
              .build());
    }
    Set<Long> graphs = new LinkedHashSet<>();
    for (DeploymentValue.Decision decision : value.decisions) {
      zeebe.addDecisionsMetadata(
          ImmutableDecisionRecordValue.builder()
              .withDecisionId(decision.decisionId())
              .withDecisionName(decision.decisionName())
              .withVersion(decision.version())
              .withVersionTag("")
              .withDecisionKey(decision.decisionKey())
              .withDecisionRequirementsId(decision.decisionRequirementsId())
              .withDecisionRequirementsKey(decision.decisionRequirementsKey())
              .withDuplicate(decision.duplicate())
              .withDeploymentKey(deploymentKey)
              .withTenantId(Values.TENANT)
              .build());
      // Tern repeats a DMN file's graph with each of its decisions; Zeebe lists each graph once.
      if (graphs.add(decision.decisionRequirementsKey())) {
        zeebe.addDecisionRequirementsMetadata(
            ImmutableDecisionRequirementsMetadataValue.builder()
                .withDecisionRequirementsId(decision.decisionRequirementsId())
                .withDecisionRequirementsName(decision.decisionRequirementsName())
                .withDecisionRequirementsVersion(decision.decisionRequirementsVersion())
                .withDecisionRequirementsKey(decision.decisionRequirementsKey())
                .withNamespace("")
                .withResourceName(decision.resourceName())
                .withChecksum(Documents.checksum(decision.checksum()))
                .withDuplicate(decision.duplicate())
                .withTenantId(Values.TENANT)
                .build());
      }
    }
    return zeebe.build();
  }

  RecordValue distribution(DirectBuffer bytes) {
    DeploymentDistributionValue value =
        Values.read(distribution, DeploymentDistributionValue::new, bytes);
    return ImmutableDeploymentDistributionRecordValue.builder()
        .withPartitionId(value.partitionId)
        .build();
  }

  RecordValue resourceDeletion(DirectBuffer bytes) {
    ResourceDeletionValue value = Values.read(deletion, ResourceDeletionValue::new, bytes);
    return ImmutableResourceDeletionRecordValue.builder()
        .withResourceKey(value.resourceKey)
        .withTenantId(Values.TENANT)
        .build();
  }

  /**
   * Tern evaluates decisions for the gateway's EvaluateDecision only (a business rule task's
   * evaluation writes no record), so the process fields are Zeebe's defaults. The command holds
   * what was asked (a decision key or id, variables); the EVALUATED or FAILED event holds the
   * evaluation as one JSON document, in the shape of Zeebe's record, read back here.
   */
  RecordValue decisionEvaluation(DirectBuffer bytes) {
    DecisionEvaluationValue value = Values.read(evaluation, DecisionEvaluationValue::new, bytes);
    JsonNode result = Documents.tree(value.evaluation);
    List<EvaluatedDecisionValue> decisions = new ArrayList<>();
    for (JsonNode decision : result.path("evaluatedDecisions")) {
      decisions.add(evaluatedDecision(decision));
    }
    return ImmutableDecisionEvaluationRecordValue.builder()
        .withDecisionKey(result.path("decisionKey").asLong(value.decisionKey))
        .withDecisionId(result.path("decisionId").asText(value.decisionId))
        .withDecisionName(result.path("decisionName").asText(""))
        .withDecisionVersion(result.path("decisionVersion").asInt(-1))
        .withDecisionRequirementsId(result.path("decisionRequirementsId").asText(""))
        .withDecisionRequirementsKey(result.path("decisionRequirementsKey").asLong(-1))
        .withDecisionOutput(result.path("decisionOutput").asText(""))
        .withEvaluatedDecisions(decisions)
        .withEvaluationFailureMessage(result.path("failureMessage").asText(""))
        .withFailedDecisionId(result.path("failedDecisionId").asText(""))
        .withBpmnProcessId("")
        .withProcessDefinitionKey(-1)
        .withProcessInstanceKey(-1)
        .withElementId("")
        .withElementInstanceKey(-1)
        .withVariables(Documents.variables(value.variables))
        .withTenantId(Values.TENANT)
        .build();
  }

  private static EvaluatedDecisionValue evaluatedDecision(JsonNode decision) {
    List<EvaluatedInputValue> inputs = new ArrayList<>();
    for (JsonNode input : decision.path("evaluatedInputs")) {
      inputs.add(
          ImmutableEvaluatedInputValue.builder()
              .withInputId(input.path("inputId").asText(""))
              .withInputName(input.path("inputName").asText(""))
              .withInputValue(input.path("inputValue").asText(""))
              .build());
    }
    List<MatchedRuleValue> rules = new ArrayList<>();
    for (JsonNode rule : decision.path("matchedRules")) {
      List<EvaluatedOutputValue> outputs = new ArrayList<>();
      for (JsonNode output : rule.path("evaluatedOutputs")) {
        outputs.add(
            ImmutableEvaluatedOutputValue.builder()
                .withOutputId(output.path("outputId").asText(""))
                .withOutputName(output.path("outputName").asText(""))
                .withOutputValue(output.path("outputValue").asText(""))
                .build());
      }
      rules.add(
          ImmutableMatchedRuleValue.builder()
              .withRuleId(rule.path("ruleId").asText(""))
              .withRuleIndex(rule.path("ruleIndex").asInt(0))
              .withEvaluatedOutputs(outputs)
              .build());
    }
    return ImmutableEvaluatedDecisionValue.builder()
        .withDecisionId(decision.path("decisionId").asText(""))
        .withDecisionName(decision.path("decisionName").asText(""))
        .withDecisionKey(decision.path("decisionKey").asLong(-1))
        .withDecisionVersion(decision.path("decisionVersion").asInt(-1))
        .withDecisionType(decision.path("decisionType").asText(""))
        .withDecisionOutput(decision.path("decisionOutput").asText(""))
        .withEvaluatedInputs(inputs)
        .withMatchedRules(rules)
        .withTenantId(Values.TENANT)
        .build();
  }
}
