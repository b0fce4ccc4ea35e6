package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.LoopCharacteristics;
import io.camunda.zeebe.model.bpmn.instance.MultiInstanceLoopCharacteristics;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeLoopCharacteristics;
import java.util.List;

/** Reads an activity's multi-instance loop characteristics. */
final class MultiInstanceTransformer {
  private MultiInstanceTransformer() {}

  static ExecutableElement.MultiInstance transform(
      FlowNode node, LoopCharacteristics characteristics, List<String> problems) {
    if (!(characteristics instanceof MultiInstanceLoopCharacteristics multiInstance)) {
      problems.add(describe(node) + ": standard loops are not supported, only multi-instance");
      return null;
    }
    ZeebeLoopCharacteristics loop =
        multiInstance.getSingleExtensionElement(ZeebeLoopCharacteristics.class);
    String inputCollection = loop == null ? null : blankToNull(loop.getInputCollection());
    if (inputCollection == null) {
      problems.add(
          describe(node)
              + ": a multi-instance activity needs a zeebe:loopCharacteristics"
              + " inputCollection");
      return null;
    }
    if (!inputCollection.startsWith("=")) {
      inputCollection = "=" + inputCollection;
    }
    MappingChecks.checkFeel(node, inputCollection, problems);
    String outputCollection = blankToNull(loop.getOutputCollection());
    String outputElement = blankToNull(loop.getOutputElement());
    if (outputElement != null) {
      if (!outputElement.startsWith("=")) {
        outputElement = "=" + outputElement;
      }
      MappingChecks.checkFeel(node, outputElement, problems);
    }
    if ((outputCollection == null) != (outputElement == null)) {
      problems.add(
          describe(node)
              + ": outputCollection and outputElement go together; give both or neither");
      return null;
    }
    return new ExecutableElement.MultiInstance(
        multiInstance.isSequential(),
        inputCollection,
        blankToNull(loop.getInputElement()),
        outputCollection,
        outputElement);
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }
}
