package io.tern.exporter.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTextTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void quotesInsideNamesAreNoDelimitersAndTheJsonReadsBackAsGiven() throws Exception {
    List<String> names = List.of("a\"b", "back\\slash", "tab\there", "ünï");
    String list = JsonText.list(names);
    // Only the quotes around each name are raw: 2 per name.
    assertThat(list.chars().filter(c -> c == '"').count()).isEqualTo(2L * names.size());
    assertThat(JSON.readValue(list, List.class)).isEqualTo(names);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("k\"", "v\n");
    assertThat(JSON.readValue(JsonText.object(headers), Map.class)).isEqualTo(headers);
    assertThat(JsonText.list(List.of())).isNull();
    assertThat(JsonText.object(Map.of())).isNull();
  }

  @Test
  void namesPastTheColumnsWidthAreLeftOutWhole() throws Exception {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      names.add(i + "-" + "g".repeat(60));
    }
    String list = JsonText.list(names);
    assertThat(list.length()).isLessThanOrEqualTo(JsonText.LIST_LENGTH);
    List<?> kept = JSON.readValue(list, List.class);
    assertThat(kept).isNotEmpty().isEqualTo(names.subList(0, kept.size()));
    assertThat(kept.size()).isLessThan(names.size());
  }
}
