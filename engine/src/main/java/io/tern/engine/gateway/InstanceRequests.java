package io.tern.engine.gateway;

import static io.tern.engine.gateway.GatewayCommands.read;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.MigrateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.MigrateProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ModifyProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ModifyProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ResolveIncidentRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ResolveIncidentResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.SetVariablesRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.SetVariablesResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ResultIntent;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceMigrationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.VariableDocumentValue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's requests about process instances: creating one (with or without awaiting its
 * result), cancelling one, setting variables in one of its scopes and resolving one of its
 * incidents. New instances go to the partitions in turn; the others go to the partition their key
 * was made on.
 */
final class InstanceRequests {
  private final GatewayCommands commands;
  private final GatewayConfig config;
  private final AtomicInteger nextCreationPartition = new AtomicInteger();

  InstanceRequests(GatewayCommands commands, GatewayConfig config) {
    this.commands = commands;
    this.config = config;
  }

  void createProcessInstance(
      CreateProcessInstanceRequest request,
      StreamObserver<CreateProcessInstanceResponse> observer) {
    if (RequestTexts.tooLong(
        observer, "CreateProcessInstance", "the process id", request.getBpmnProcessId())) {
      return;
    }
    commands.unary(
        "CreateProcessInstance",
        nextCreationPartition(),
        CreationIntent.CREATE,
        -1,
        creation(request),
        observer,
        answer -> {
          ProcessInstanceCreationValue created = read(new ProcessInstanceCreationValue(), answer);
          return CreateProcessInstanceResponse.newBuilder()
              .setProcessDefinitionKey(created.processDefinitionKey)
              .setBpmnProcessId(created.bpmnProcessId)
              .setVersion(created.version)
              .setProcessInstanceKey(created.processInstanceKey)
              .setTenantId(Conversions.DEFAULT_TENANT)
              .build();
        });
  }

  void createProcessInstanceWithResult(
      CreateProcessInstanceWithResultRequest request,
      StreamObserver<CreateProcessInstanceWithResultResponse> observer) {
    if (RequestTexts.tooLong(
        observer,
        "CreateProcessInstanceWithResult",
        "the process id",
        request.getRequest().getBpmnProcessId())) {
      return;
    }
    for (String name : request.getFetchVariablesList()) {
      if (RequestTexts.tooLong(
          observer, "CreateProcessInstanceWithResult", "a variable to fetch", name)) {
        return;
      }
    }
    ProcessInstanceCreationValue creation = creation(request.getRequest());
    creation.fetchVariables.addAll(request.getFetchVariablesList());
    long timeoutMs =
        request.getRequestTimeout() > 0
            ? request.getRequestTimeout()
            : config.requestTimeout().toMillis();
    commands.send(
        "CreateProcessInstanceWithResult",
        nextCreationPartition(),
        CreationIntent.CREATE_WITH_AWAITING_RESULT,
        -1,
        creation,
        timeoutMs,
        observer,
        answer -> {
          ProcessInstanceCreationValue result = read(new ProcessInstanceCreationValue(), answer);
          if (answer.intent() == ResultIntent.TERMINATED.code()) {
            throw Status.FAILED_PRECONDITION
                .withDescription(
                    "process instance "
                        + result.processInstanceKey
                        + " was terminated before it completed, so it has no result")
                .asRuntimeException();
          }
          return CreateProcessInstanceWithResultResponse.newBuilder()
              .setProcessDefinitionKey(result.processDefinitionKey)
              .setBpmnProcessId(result.bpmnProcessId)
              .setVersion(result.version)
              .setProcessInstanceKey(result.processInstanceKey)
              .setVariables(Conversions.text(result.variables))
              .setTenantId(Conversions.DEFAULT_TENANT)
              .build();
        });
  }

  private static ProcessInstanceCreationValue creation(CreateProcessInstanceRequest request) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.processDefinitionKey =
        request.getProcessDefinitionKey() > 0 ? request.getProcessDefinitionKey() : -1;
    creation.bpmnProcessId = request.getBpmnProcessId();
    creation.version =
        request.getVersion() > 0
            ? request.getVersion()
            : ProcessInstanceCreationValue.LATEST_VERSION;
    creation.variables = Conversions.json(request.getVariables());
    return creation;
  }

  void cancelProcessInstance(
      CancelProcessInstanceRequest request,
      StreamObserver<CancelProcessInstanceResponse> observer) {
    commands.byKey(
        "CancelProcessInstance",
        request.getProcessInstanceKey(),
        ProcessInstanceIntent.CANCEL,
        new ProcessInstanceValue(),
        observer,
        answer -> CancelProcessInstanceResponse.getDefaultInstance());
  }

  /**
   * Elements activated and element instances terminated, on the partition of the process instance;
   * an ancestor key of 0 (unset) means none, as -1 does.
   */
  void modifyProcessInstance(
      ModifyProcessInstanceRequest request,
      StreamObserver<ModifyProcessInstanceResponse> observer) {
    ProcessInstanceModificationValue modification = new ProcessInstanceModificationValue();
    modification.processInstanceKey = request.getProcessInstanceKey();
    for (int i = 0; i < request.getActivateInstructionsCount(); i++) {
      ModifyProcessInstanceRequest.ActivateInstruction activate =
          request.getActivateInstructions(i);
      if (RequestTexts.tooLong(
          observer, "ModifyProcessInstance", "an element id", activate.getElementId())) {
        return;
      }
      long ancestor = activate.getAncestorElementInstanceKey();
      modification.activations.add(
          new ProcessInstanceModificationValue.Activation(
              activate.getElementId(), ancestor > 0 ? ancestor : -1));
      for (ModifyProcessInstanceRequest.VariableInstruction variables :
          activate.getVariableInstructionsList()) {
        if (RequestTexts.tooLong(
            observer, "ModifyProcessInstance", "a variable scope id", variables.getScopeId())) {
          return;
        }
        modification.variables.add(
            new ProcessInstanceModificationValue.Variables(
                i, variables.getScopeId(), Conversions.json(variables.getVariables())));
      }
    }
    for (ModifyProcessInstanceRequest.TerminateInstruction terminate :
        request.getTerminateInstructionsList()) {
      modification.terminations.add(terminate.getElementInstanceKey());
    }
    commands.byKey(
        "ModifyProcessInstance",
        request.getProcessInstanceKey(),
        ModificationIntent.MODIFY,
        modification,
        observer,
        answer -> ModifyProcessInstanceResponse.getDefaultInstance());
  }

  /**
   * A process instance moved to another process definition, on the partition of the process
   * instance.
   */
  void migrateProcessInstance(
      MigrateProcessInstanceRequest request,
      StreamObserver<MigrateProcessInstanceResponse> observer) {
    ProcessInstanceMigrationValue migration = new ProcessInstanceMigrationValue();
    migration.processInstanceKey = request.getProcessInstanceKey();
    MigrateProcessInstanceRequest.MigrationPlan plan = request.getMigrationPlan();
    migration.targetProcessDefinitionKey = plan.getTargetProcessDefinitionKey();
    for (MigrateProcessInstanceRequest.MappingInstruction mapping :
        plan.getMappingInstructionsList()) {
      if (RequestTexts.tooLong(
              observer,
              "MigrateProcessInstance",
              "a source element id",
              mapping.getSourceElementId())
          || RequestTexts.tooLong(
              observer,
              "MigrateProcessInstance",
              "a target element id",
              mapping.getTargetElementId())) {
        return;
      }
      migration.mappings.add(
          new ProcessInstanceMigrationValue.Mapping(
              mapping.getSourceElementId(), mapping.getTargetElementId()));
    }
    commands.byKey(
        "MigrateProcessInstance",
        request.getProcessInstanceKey(),
        MigrationIntent.MIGRATE,
        migration,
        observer,
        answer -> MigrateProcessInstanceResponse.getDefaultInstance());
  }

  void setVariables(SetVariablesRequest request, StreamObserver<SetVariablesResponse> observer) {
    VariableDocumentValue document = new VariableDocumentValue();
    document.scopeKey = request.getElementInstanceKey();
    document.local = request.getLocal();
    document.variables = Conversions.json(request.getVariables());
    commands.byKey(
        "SetVariables",
        request.getElementInstanceKey(),
        VariableDocumentIntent.UPDATE,
        document,
        observer,
        answer -> SetVariablesResponse.newBuilder().setKey(answer.key()).build());
  }

  void resolveIncident(
      ResolveIncidentRequest request, StreamObserver<ResolveIncidentResponse> observer) {
    commands.byKey(
        "ResolveIncident",
        request.getIncidentKey(),
        IncidentIntent.RESOLVE,
        new IncidentValue(),
        observer,
        answer -> ResolveIncidentResponse.getDefaultInstance());
  }

  private int nextCreationPartition() {
    return 1 + Math.floorMod(nextCreationPartition.getAndIncrement(), commands.partitionsCount());
  }
}
