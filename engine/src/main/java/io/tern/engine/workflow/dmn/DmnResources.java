package io.tern.engine.workflow.dmn;

import io.tern.engine.workflow.model.DeploymentRejection;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.camunda.bpm.model.dmn.instance.Definitions;
import org.camunda.dmn.DmnEngine;
import org.camunda.dmn.parser.ParsedDmn;
import scala.util.Either;

/**
 * Reads DMN resources with the DMN Scala engine: a file is one decision requirements graph (its
 * {@code definitions}) holding decisions. Pure: the same bytes give the same graph, so state keeps
 * only the resource and parses it again when needed.
 */
public final class DmnResources {
  /** One parsed DMN file. */
  public record Graph(String id, String name, List<Decision> decisions, ParsedDmn parsed) {}

  /** A decision of a graph: its id and name. */
  public record Decision(String id, String name) {}

  private DmnResources() {}

  /** Whether the resource is DMN, by its name as Zeebe tells (else it is read as BPMN). */
  public static boolean isDmn(String resourceName) {
    return resourceName.toLowerCase(Locale.ROOT).endsWith(".dmn");
  }

  /**
   * @throws DeploymentRejection naming the resource and what is wrong with it
   */
  public static Graph parse(DmnEngine engine, String resourceName, byte[] content) {
    Either<DmnEngine.Failure, ParsedDmn> result;
    try {
      result = engine.parse(new ByteArrayInputStream(content));
    } catch (RuntimeException e) {
      throw new DeploymentRejection(
          "'" + resourceName + "' is not a valid DMN file: " + e.getMessage());
    }
    if (result.isLeft()) {
      throw new DeploymentRejection(
          "'" + resourceName + "' is not a valid DMN file: " + result.left().get().message());
    }
    ParsedDmn parsed = result.right().get();
    Definitions definitions = parsed.model().getDefinitions();
    // In the file's order (the parsed decisions are not), as Zeebe lists them.
    List<Decision> decisions = new ArrayList<>();
    for (org.camunda.bpm.model.dmn.instance.Decision decision :
        parsed.model().getModelElementsByType(org.camunda.bpm.model.dmn.instance.Decision.class)) {
      if (parsed.decisionsById().contains(decision.getId())) {
        String name = decision.getName() == null ? decision.getId() : decision.getName();
        decisions.add(new Decision(decision.getId(), name));
      }
    }
    if (definitions.getId() == null || definitions.getId().isBlank()) {
      throw new DeploymentRejection(
          "'" + resourceName + "' cannot be deployed: its definitions need an id");
    }
    if (decisions.isEmpty()) {
      throw new DeploymentRejection(
          "'" + resourceName + "' cannot be deployed: it contains no decision");
    }
    String name = definitions.getName() == null ? definitions.getId() : definitions.getName();
    return new Graph(definitions.getId(), name, List.copyOf(decisions), parsed);
  }
}
