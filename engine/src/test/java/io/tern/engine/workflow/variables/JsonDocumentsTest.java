package io.tern.engine.workflow.variables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonDocumentsTest {
  private static Map<String, String> parse(String json) {
    Map<String, String> texts = new LinkedHashMap<>();
    JsonDocuments.variables(json.getBytes(StandardCharsets.UTF_8))
        .forEach((name, value) -> texts.put(name, new String(value, StandardCharsets.UTF_8)));
    return texts;
  }

  @Test
  void topLevelEntriesAreTheVariablesWithTheirJsonTextKept() {
    assertThat(parse("{\"a\": 1, \"b\" : {\"c\": [1, 2, {\"d\": null}]}, \"e\":\"x\\\"y\"}"))
        .containsExactly(
            Map.entry("a", "1"),
            Map.entry("b", "{\"c\": [1, 2, {\"d\": null}]}"),
            Map.entry("e", "\"x\\\"y\""));
    assertThat(parse("  ")).isEmpty();
    assertThat(parse("{}")).isEmpty();
  }

  @Test
  void aDocumentRoundTrips() {
    Map<String, byte[]> variables =
        JsonDocuments.variables(
            "{\"quote\\\"d\": true, \"n\": -1.5e3}".getBytes(StandardCharsets.UTF_8));
    byte[] document = JsonDocuments.document(variables);
    assertThat(new String(document, StandardCharsets.UTF_8))
        .isEqualTo("{\"quote\\\"d\":true,\"n\":-1.5e3}");
    assertThat(JsonDocuments.variables(document)).containsOnlyKeys("quote\"d", "n");
  }

  @Test
  void anythingButOneObjectIsRejectedSayingWhatItIs() {
    assertThatThrownBy(() -> parse("[1, 2]"))
        .isInstanceOf(InvalidVariablesException.class)
        .hasMessageContaining("must be a JSON object")
        .hasMessageContaining("an array");
    assertThatThrownBy(() -> parse("\"text\"")).hasMessageContaining("a string");
    assertThatThrownBy(() -> parse("{\"a\": 1} {}")).hasMessageContaining("more follows");
    assertThatThrownBy(() -> parse("{\"a\": }"))
        .hasMessageContaining("not valid JSON")
        .hasMessageContaining("line 1, column");
    String deep = "{\"a\":" + "[".repeat(1000) + "]".repeat(1000) + "}";
    assertThatThrownBy(() -> parse(deep)).isInstanceOf(InvalidVariablesException.class);
  }
}
