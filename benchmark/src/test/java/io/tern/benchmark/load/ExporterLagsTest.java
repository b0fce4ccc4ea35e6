package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ExporterLagsTest {
  @Test
  void eachExporterKeepsItsLargestLagOverTheLeadersAndFollowersCountNothing() throws Exception {
    Map<String, Double> lags = new TreeMap<>();
    ExporterLags.parse(
        """
        {"1": {"leader": true, "exporters": {
            "os": {"state": "running", "position": 10, "storedPosition": 8,
                   "lagRecords": 3, "lagSeconds": 0.4, "lastError": null},
            "history": {"state": "retrying", "position": 5, "storedPosition": 5,
                        "lagRecords": 9, "lagSeconds": 2.5, "lastError": "redacted"}}},
         "2": {"leader": false, "exporters": {
            "os": {"state": "closed", "position": 4, "storedPosition": 4,
                   "lagRecords": null, "lagSeconds": null, "lastError": null}}}}
        """,
        lags);
    ExporterLags.parse(
        """
        {"2": {"leader": true, "exporters": {
            "os": {"state": "running", "lagRecords": 1, "lagSeconds": 1.25, "lastError": null}}}}
        """,
        lags);
    assertThat(lags).containsExactly(Map.entry("history", 2.5), Map.entry("os", 1.25));

    Map<String, Double> none = new TreeMap<>();
    ExporterLags.parse("{}", none);
    assertThat(none).isEmpty();
  }
}
