package io.tern.engine.workflow.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job-based element without a usable job type is reported once, naming the element: Zeebe's
 * validator and Tern's own check used to say it twice in other words.
 */
class TaskDefinitionProblemsTest {
  private static String process(String element) {
    return "<?xml version=\"1.0\"?>"
        + "<bpmn:definitions xmlns:bpmn=\"http://www.omg.org/spec/BPMN/20100524/MODEL\""
        + " xmlns:zeebe=\"http://camunda.org/schema/zeebe/1.0\" id=\"d\" targetNamespace=\"t\">"
        + "<bpmn:process id=\"p\" isExecutable=\"true\"><bpmn:startEvent id=\"s\"/>"
        + element
        + "</bpmn:process></bpmn:definitions>";
  }

  private static String rejection(String element) {
    DeploymentRejection rejection =
        catchThrowableOfType(
            DeploymentRejection.class,
            () ->
                BpmnTransformer.transform(
                    "p.bpmn", process(element).getBytes(StandardCharsets.UTF_8)));
    assertThat(rejection).as("the deployment is rejected").isNotNull();
    return rejection.getMessage();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "<bpmn:serviceTask id='charge'/>"
            + " | 'charge' (serviceTask): Must have exactly one 'zeebe:taskDefinition' extension"
            + " element",
        "<bpmn:serviceTask id='charge'><bpmn:extensionElements><zeebe:taskDefinition/>"
            + "</bpmn:extensionElements></bpmn:serviceTask>"
            + " | 'charge' (serviceTask) zeebe:taskDefinition: Attribute 'type' must be present",
        "<bpmn:serviceTask id='charge'><bpmn:extensionElements><zeebe:taskDefinition type=' '/>"
            + "</bpmn:extensionElements></bpmn:serviceTask>"
            + " | 'charge' (serviceTask): it needs a zeebe:taskDefinition type",
        "<bpmn:sendTask id='charge'/>"
            + " | 'charge' (sendTask): Must have either one 'zeebe:publishMessage' or one"
            + " 'zeebe:taskDefinition' extension element",
      })
  void aMissingJobTypeIsReportedOnceNamingTheElement(String element, String problem) {
    String message = rejection(element.replace('\'', '"'));
    assertThat(message).contains("- " + problem);
    assertThat(message.lines().filter(line -> line.startsWith("- ")))
        .as("one problem:%n%s", message)
        .hasSize(1);
  }

  @Test
  void otherProblemsOfTheSameFileAreStillAllReported() {
    String message =
        rejection(
            "<bpmn:serviceTask id=\"a\"/><bpmn:serviceTask id=\"b\"><bpmn:extensionElements>"
                + "<zeebe:taskDefinition type=\" \"/></bpmn:extensionElements></bpmn:serviceTask>");
    assertThat(message)
        .contains("- 'a' (serviceTask): Must have exactly one 'zeebe:taskDefinition'")
        .contains("- 'b' (serviceTask): it needs a zeebe:taskDefinition type");
    assertThat(message.lines().filter(line -> line.startsWith("- "))).hasSize(2);
  }
}
