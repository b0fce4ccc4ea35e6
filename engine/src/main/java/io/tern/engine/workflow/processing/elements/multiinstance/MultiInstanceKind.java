package io.tern.engine.workflow.processing.elements.multiinstance;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementKind;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.processing.elements.lifecycle.MultiInstanceBehavior;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.List;
import java.util.Set;

/**
 * The body of a multi-instance activity ({@link MultiInstanceBehavior}): activated, it evaluates
 * its input collection and starts its inner instances, all at once or the first of a sequential
 * one. It is asked to complete whenever no inner instance runs: a sequential body then starts its
 * next inner instance, if items are left; else it completes with its output collection and takes
 * the activity's outgoing flows. The body holds the activity's boundary events; each inner instance
 * is of the activity's own kind.
 */
public final class MultiInstanceKind implements ElementKind {
  private final ElementLifecycle lifecycle;
  private final MultiInstanceBehavior multiInstance;

  public MultiInstanceKind(ElementLifecycle lifecycle, MultiInstanceBehavior multiInstance) {
    this.lifecycle = lifecycle;
    this.multiInstance = multiInstance;
  }

  @Override
  public Set<BpmnElementType> types() {
    return Set.of(BpmnElementType.MULTI_INSTANCE_BODY);
  }

  @Override
  public void activate(ElementStep step) {
    List<byte[]> items =
        multiInstance.items(step.result(), step.key(), step.value(), step.element());
    if (items == null || !lifecycle.subscribe(step)) {
      return; // an incident holds the body until it is resolved
    }
    lifecycle.activated(step);
    multiInstance.start(step.result(), step.key(), step.value(), step.element(), items);
  }

  @Override
  public void complete(ElementStep step, ElementInstance stored) {
    ProcessingResult result = step.result();
    long key = step.key();
    ProcessInstanceValue value = step.value();
    ExecutableElement element = step.element();
    if (stored.activeChildren > 0) {
      return; // inner instances still run; the last one to complete asks again
    }
    if (element.loop().sequential()) {
      List<byte[]> items = multiInstance.items(result, key, value, element);
      if (items == null) {
        return; // an incident holds the body until it is resolved
      }
      int done = stored.loopCounter;
      if (done < items.size()) {
        multiInstance.activateInner(result, key, value, element, done, items.get(done));
        return;
      }
    }
    lifecycle.unsubscribe(step);
    lifecycle.append(step, ProcessInstanceIntent.ELEMENT_COMPLETING);
    multiInstance.completeBody(result, key, value, element);
    lifecycle.completing(step);
    lifecycle.append(step, ProcessInstanceIntent.ELEMENT_COMPLETED);
    lifecycle.completed(step);
    lifecycle.leave(step, null);
  }
}
