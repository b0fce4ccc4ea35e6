package io.tern.engine.workflow.processing.behavior.instances;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ResultIntent;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.List;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Clients waiting for a process instance they created to end (CreateProcessInstanceWithResult).
 * Kept in memory by the leader only: an answer can only go back through the connection the request
 * came in on, which a new leader does not have; its client times out instead (the gateway's request
 * timeout) and the instance is not affected. A client that waits longer than {@code maxWaitMs} has
 * given up (its request timed out at the gateway): it is forgotten then, so instances that run for
 * days do not keep their awaiters in memory.
 */
public final class ResultAwaiters {
  private record Awaiter(int requestStreamId, long requestId, List<String> fetchVariables) {}

  private final VariableBehavior variables;
  private final Long2ObjectHashMap<Awaiter> awaiters = new Long2ObjectHashMap<>();
  private final ProcessInstanceCreationValue answer = new ProcessInstanceCreationValue();

  private final ProcessingContext context;
  private final long maxWaitMs;

  public ResultAwaiters(VariableBehavior variables, ProcessingContext context, long maxWaitMs) {
    this.variables = variables;
    this.context = context;
    this.maxWaitMs = maxWaitMs;
  }

  /**
   * The client of that request waits for {@code processInstanceKey}. Registered while processing
   * (the instance may end within the same batch); a rolled back attempt registers again.
   */
  public void await(
      long processInstanceKey, int requestStreamId, long requestId, List<String> fetchVariables) {
    Awaiter awaiter = new Awaiter(requestStreamId, requestId, List.copyOf(fetchVariables));
    awaiters.put(processInstanceKey, awaiter);
    context
        .scheduler()
        .runDelayed(maxWaitMs, commands -> awaiters.remove(processInstanceKey, awaiter));
  }

  /** This member starts processing: whoever waited, waited on another leader. */
  public void clear() {
    awaiters.clear();
  }

  int size() {
    return awaiters.size();
  }

  /**
   * The process instance {@code key} ends: answers its awaiting client, if any, with its variables
   * (read now, before the instance's scope goes) or with the news that it was terminated.
   */
  public void instanceEnds(
      ProcessingResult result, long key, ProcessInstanceValue process, boolean completed) {
    Awaiter awaiter = awaiters.get(key);
    if (awaiter == null) {
      return;
    }
    answer.processInstanceKey = key;
    answer.processDefinitionKey = process.processDefinitionKey;
    answer.bpmnProcessId = process.bpmnProcessId;
    answer.version = process.version;
    answer.fetchVariables.clear();
    answer.variables =
        completed
            ? JsonDocuments.document(variables.visible(key, awaiter.fetchVariables()))
            : new byte[0];
    result.appendEvent(key, completed ? ResultIntent.COMPLETED : ResultIntent.TERMINATED, answer);
    result.respondTo(awaiter.requestStreamId(), awaiter.requestId());
    result.sideEffect(() -> awaiters.remove(key));
  }
}
