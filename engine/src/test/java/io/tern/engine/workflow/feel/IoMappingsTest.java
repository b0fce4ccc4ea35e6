package io.tern.engine.workflow.feel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IoMappingsTest {
  private final IoMappings mappings = new IoMappings();

  private static Map<String, byte[]> json(String... nameValue) {
    Map<String, byte[]> variables = new LinkedHashMap<>();
    for (int i = 0; i < nameValue.length; i += 2) {
      variables.put(nameValue[i], nameValue[i + 1].getBytes(StandardCharsets.UTF_8));
    }
    return variables;
  }

  private static Map<String, String> text(Map<String, byte[]> variables) {
    Map<String, String> text = new LinkedHashMap<>();
    variables.forEach((k, v) -> text.put(k, new String(v, StandardCharsets.UTF_8)));
    return text;
  }

  @Test
  void sourcesAreFeelOrStaticTextAndSeeEarlierMappings() {
    Map<String, byte[]> result =
        mappings.evaluate(
            List.of(
                new Mapping("=order.total * 2", "doubled"),
                new Mapping("EUR", "currency"),
                new Mapping("=doubled + 1", "plusOne"),
                new Mapping("=0.1 + 0.2", "decimal"),
                new Mapping("=[1, \"a\", null, true]", "list"),
                new Mapping("=date(\"2026-11-22\")", "day"),
                new Mapping("=duration(\"PT90M\")", "wait")),
            json("order", "{\"total\": 21, \"id\": \"o-1\"}"));
    assertThat(text(result))
        .containsExactly(
            Map.entry("doubled", "42"),
            Map.entry("currency", "\"EUR\""),
            Map.entry("plusOne", "43"),
            Map.entry("decimal", "0.3"),
            Map.entry("list", "[1,\"a\",null,true]"),
            Map.entry("day", "\"2026-11-22\""),
            Map.entry("wait", "\"PT1H30M\""));
  }

  @Test
  void aNestedTargetAddsToTheVisibleObjectOrCreatesOne() {
    Map<String, byte[]> result =
        mappings.evaluate(
            List.of(
                new Mapping("=\"done\"", "order.status"),
                new Mapping("=1", "order.lines.count"),
                new Mapping("=2", "fresh.a.b")),
            json("order", "{\"id\": \"o-1\"}"));
    assertThat(text(result))
        .containsExactly(
            Map.entry("order", "{\"id\":\"o-1\",\"status\":\"done\",\"lines\":{\"count\":1}}"),
            Map.entry("fresh", "{\"a\":{\"b\":2}}"));
  }

  @Test
  void aFailingExpressionNamesTheMappingAndTheFailure() {
    assertThatThrownBy(
            () ->
                mappings.evaluate(
                    List.of(new Mapping("=assert(total, total != null, \"need a total\")", "x")),
                    json()))
        .isInstanceOf(FeelStrings.EvaluationException.class)
        .hasMessageContaining("'x'")
        .hasMessageContaining("need a total");
    // FEEL gives null, not an error, for what it cannot compute: so does the mapping.
    assertThat(text(mappings.evaluate(List.of(new Mapping("=missing.a", "x")), json())))
        .containsExactly(Map.entry("x", "null"));
  }
}
