package io.tern.engine.workflow.model;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The streaming check of a resource against the limits it is deployed with. */
class ResourceScanTest {
  private static final ModelLimits SMALL = new ModelLimits(5, 3, 10);

  private static void check(String xml) {
    ResourceScan.check("r.bpmn", xml.getBytes(StandardCharsets.UTF_8), SMALL);
  }

  @Test
  void aResourceWithinTheLimitsPasses() {
    assertThatCode(
            () ->
                check(
                    "<definitions><process id=\"p\"><startEvent id=\"s\"/>"
                        + "<sequenceFlow id=\"f\"><conditionExpression>= a &gt; 1"
                        + "</conditionExpression></sequenceFlow>"
                        + "</process></definitions>"))
        .doesNotThrowAnyException();
  }

  @Test
  void eachLimitIsNamedWithTheElementBeyondIt() {
    assertThatThrownBy(
            () -> check("<a><b><c id=\"c\"><d><e><f id=\"too-deep\"/></e></d></c></b></a>"))
        .isInstanceOf(DeploymentRejection.class)
        .hasMessageContaining("'too-deep' (f) is nested 6 levels deep")
        .hasMessageContaining("at most 5 levels (processing.limits.maxNestingDepth)");
    assertThatThrownBy(
            () ->
                check(
                    "<definitions><process id=\"p\"><a id=\"1\"/><a id=\"2\"/><a id=\"3\"/>"
                        + "<a id=\"4\"/></process></definitions>"))
        .hasMessageContaining("'p' (process) holds more than 3 elements")
        .hasMessageContaining("'4' (a) is one too many");
    assertThatThrownBy(
            () ->
                check(
                    "<definitions><process id=\"p\"><flow id=\"f\"><condition>"
                        + "=1 + 2 + 3 + 4</condition></flow></process></definitions>"))
        .hasMessageContaining("'f' (flow) has an expression of 14 characters")
        .hasMessageContaining("(processing.limits.maxExpressionChars)");
  }

  @Test
  void bracketsNestedDeeperThanTheFeelParserCanTakeAreRefused() {
    String deep = "(".repeat(ResourceScan.MAX_BRACKET_DEPTH + 1) + "1" + ")".repeat(65);
    ModelLimits roomy = new ModelLimits(5, 3, 10_000);
    assertThatThrownBy(
            () ->
                ResourceScan.check(
                    "r.bpmn",
                    ("<definitions><process id=\"p\"><flow id=\"f\"><condition>="
                            + deep
                            + "</condition></flow></process></definitions>")
                        .getBytes(StandardCharsets.UTF_8),
                    roomy))
        .hasMessageContaining("'f' (flow) has an expression with brackets nested more than 64");
    String shallow = "(".repeat(64) + "1" + ")".repeat(64);
    assertThatCode(
            () ->
                ResourceScan.check(
                    "r.bpmn",
                    ("<definitions><process id=\"p\"><flow id=\"f\" name=\"="
                            + shallow
                            + "\"/>"
                            + "</process></definitions>")
                        .getBytes(StandardCharsets.UTF_8),
                    roomy))
        .doesNotThrowAnyException();
  }

  @Test
  void aDtdIsRefusedBeforeItsEntitiesExpand() {
    assertThatThrownBy(
            () ->
                check(
                    "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY a \"aaaaaaaaaa\">"
                        + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><d>&b;</d>"))
        .hasMessageContaining("it declares a DTD");
  }

  @Test
  void textThatIsNotXmlIsLeftToTheParserToName() {
    assertThatCode(() -> check("<not closed")).doesNotThrowAnyException();
  }
}
