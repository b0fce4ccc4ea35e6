package io.tern.engine.workflow;

import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.workflow.value.WorkflowValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A quick, JMH-free measure of what the value classes cost: every value of the recorded log ({@link
 * OldLogFixtureTest}) decoded and encoded again, per value class, in nanoseconds per value. Run:
 * {@code ./mvnw -B -o -pl engine test -Dtest=ValueCodecBenchmark -Dtern.bench=true}; compare runs
 * on one machine only, as ratios.
 */
class ValueCodecBenchmark {
  private static final int ROUNDS = 5;
  private static final long ROUND_NS = 400_000_000L;

  private record Sample(WorkflowValue value, UnsafeBuffer bytes) {}

  @Test
  @EnabledIfSystemProperty(named = "tern.bench", matches = "true")
  void decodeAndEncodeTheRecordedValues() throws IOException {
    Map<String, List<Sample>> byClass = new LinkedHashMap<>();
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : OldLogFixtureTest.readFixture()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.value().capacity() == 0) {
          continue;
        }
        WorkflowValue value = OldLogFixtureTest.valueOf(record.valueType());
        byte[] copy = new byte[record.value().capacity()];
        record.value().getBytes(0, copy);
        byClass
            .computeIfAbsent(value.getClass().getSimpleName(), k -> new ArrayList<>())
            .add(new Sample(value, new UnsafeBuffer(copy)));
      }
    }
    List<Sample> all = byClass.values().stream().flatMap(List::stream).toList();
    ExpandableArrayBuffer out = new ExpandableArrayBuffer(64 * 1024);
    measure("warm-up (all)", all, out);
    System.out.printf("%-36s %8s %12s%n", "value class", "values", "ns/value");
    measure("ALL", all, out);
    for (Map.Entry<String, List<Sample>> entry : byClass.entrySet()) {
      measure(entry.getKey(), entry.getValue(), out);
    }
  }

  private static void measure(String name, List<Sample> samples, ExpandableArrayBuffer out) {
    double[] nsPerValue = new double[ROUNDS];
    long sink = 0;
    for (int round = 0; round < ROUNDS; round++) {
      long ops = 0;
      long start = System.nanoTime();
      long elapsed;
      do {
        for (Sample sample : samples) {
          sample.value().wrap(sample.bytes(), 0, sample.bytes().capacity());
          int length = sample.value().length();
          sample.value().write(out, 0);
          sink += length;
        }
        ops += samples.size();
        elapsed = System.nanoTime() - start;
      } while (elapsed < ROUND_NS);
      nsPerValue[round] = (double) elapsed / ops;
    }
    Arrays.sort(nsPerValue);
    System.out.printf(
        "%-36s %8d %12.1f   (min %.1f, max %.1f)%s%n",
        name,
        samples.size(),
        nsPerValue[ROUNDS / 2],
        nsPerValue[0],
        nsPerValue[ROUNDS - 1],
        sink == 42 ? "!" : "");
  }
}
