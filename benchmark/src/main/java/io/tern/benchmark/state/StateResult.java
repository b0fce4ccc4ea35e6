package io.tern.benchmark.state;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** What one configuration measured. */
record StateResult(
    String config,
    double totalS,
    double tasksPerS,
    Histogram taskStartUs,
    Histogram commitUs,
    Histogram scanUs,
    long timersScanned,
    long timersDeleted,
    long stalls,
    double longestGapMs,
    long diskBytes) {

  Map<String, Object> toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("config", config);
    json.put("totalSeconds", totalS);
    json.put("tasksPerSecond", tasksPerS);
    json.put("taskStartLatencyMs", latencies(taskStartUs));
    json.put("commitLatencyMs", latencies(commitUs));
    json.put("scanLatencyMs", latencies(scanUs));
    json.put("scans", scanUs.getTotalCount());
    json.put("timersScannedAndDeleted", timersDeleted);
    json.put("stallsOver500Ms", stalls);
    json.put("longestGapMs", longestGapMs);
    json.put("diskBytes", diskBytes);
    return json;
  }

  private static Map<String, Object> latencies(Histogram us) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("avg", us.getMean() / 1000);
    json.put("p50", us.getValueAtPercentile(50) / 1000.0);
    json.put("p99", us.getValueAtPercentile(99) / 1000.0);
    json.put("max", us.getMaxValue() / 1000.0);
    return json;
  }
}
