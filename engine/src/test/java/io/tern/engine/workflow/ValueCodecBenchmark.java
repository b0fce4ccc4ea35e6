package io.tern.engine.workflow;

import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.sbe.JobValueDecoder;
import io.tern.engine.record.sbe.JobValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.ProcessInstanceValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceValueEncoder;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.WorkflowValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
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

  /** Rounds of the comparison with a hand-written mapping: each takes turns, 50 ms each. */
  private static final int TURNS = 41;

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
    compareWithHandWritten(
        byClass.get("ProcessInstanceValue"), new HandWrittenProcessInstance(), out);
    compareWithHandWritten(byClass.get("JobValue"), new HandWrittenJob(), out);
  }

  /**
   * A value mapped field by field, as the value classes were before ValueFields (the yardstick).
   */
  private interface HandWritten {
    void decode(DirectBuffer buffer, int length);

    int encode(MutableDirectBuffer buffer);
  }

  /**
   * The same values through the value class and through a hand-written mapping, round after round
   * in turn (so that the machine's drift touches both alike): median ns per value of each, and the
   * median of the rounds' ratios.
   */
  private static void compareWithHandWritten(
      List<Sample> samples, WorkflowValue reference, ExpandableArrayBuffer out) {
    String name = samples.get(0).value().getClass().getSimpleName();
    double[] mapped = new double[TURNS];
    double[] hand = new double[TURNS];
    double[] ratio = new double[TURNS];
    long sink = 0;
    for (int round = 0; round < TURNS; round++) {
      long ops = 0;
      long start = System.nanoTime();
      do {
        for (Sample sample : samples) {
          sample.value().wrap(sample.bytes(), 0, sample.bytes().capacity());
          sink += sample.value().length();
          sample.value().write(out, 0);
        }
        ops += samples.size();
      } while (System.nanoTime() - start < 50_000_000L);
      mapped[round] = (double) (System.nanoTime() - start) / ops;
      ops = 0;
      start = System.nanoTime();
      do {
        for (Sample sample : samples) {
          reference.wrap(sample.bytes(), 0, sample.bytes().capacity());
          sink += reference.length();
          reference.write(out, 0);
        }
        ops += samples.size();
      } while (System.nanoTime() - start < 50_000_000L);
      hand[round] = (double) (System.nanoTime() - start) / ops;
      ratio[round] = mapped[round] / hand[round];
    }
    Arrays.sort(mapped);
    Arrays.sort(hand);
    Arrays.sort(ratio);
    double mappedBytes = allocatedPerValue(samples, null);
    double handBytes = allocatedPerValue(samples, reference);
    System.out.printf(
        "%s: ValueFields %.1f ns/value, hand-written %.1f ns/value, ratio %.2f (quartiles %.2f to"
            + " %.2f); allocated %.0f vs %.0f bytes/value%s%n",
        name,
        mapped[TURNS / 2],
        hand[TURNS / 2],
        ratio[TURNS / 2],
        ratio[TURNS / 4],
        ratio[TURNS * 3 / 4],
        mappedBytes,
        handBytes,
        sink == 42 ? "!" : "");
  }

  /**
   * Bytes the thread allocates per value decoded and encoded again, through the value class or (if
   * not null) through {@code reference}.
   */
  private static double allocatedPerValue(List<Sample> samples, WorkflowValue reference) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    ExpandableArrayBuffer out = new ExpandableArrayBuffer(64 * 1024);
    int repeat = 2_000;
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < repeat; i++) {
      for (Sample sample : samples) {
        WorkflowValue value = reference == null ? sample.value() : reference;
        value.wrap(sample.bytes(), 0, sample.bytes().capacity());
        value.length();
        value.write(out, 0);
      }
    }
    return (double) (threads.getCurrentThreadAllocatedBytes() - before) / repeat / samples.size();
  }

  /** ProcessInstanceValue's mapping before ValueFields. */
  private static final class HandWrittenProcessInstance extends WorkflowValue {
    @Override
    protected int templateId() {
      return ProcessInstanceValueEncoder.TEMPLATE_ID;
    }

    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final ProcessInstanceValueEncoder encoder = new ProcessInstanceValueEncoder();
    private final ProcessInstanceValueDecoder decoder = new ProcessInstanceValueDecoder();
    private final ProcessInstanceValue v = new ProcessInstanceValue();

    @Override
    protected void decode(
        DirectBuffer buffer, int offset, int blockLength, int version, int length) {
      decoder.wrap(buffer, offset, blockLength, version);
      v.processInstanceKey = decoder.processInstanceKey();
      v.processDefinitionKey = decoder.processDefinitionKey();
      v.flowScopeKey = decoder.flowScopeKey();
      v.version = decoder.version();
      v.elementType = BpmnElementType.of(decoder.bpmnElementType());
      long parent = decoder.parentElementInstanceKey();
      v.parentElementInstanceKey =
          parent == ProcessInstanceValueDecoder.parentElementInstanceKeyNullValue() ? -1 : parent;
      v.bpmnProcessId = decoder.bpmnProcessId();
      v.elementId = decoder.elementId();
    }

    @Override
    protected int encode(MutableDirectBuffer buffer, int offset) {
      encoder
          .wrapAndApplyHeader(buffer, offset, header)
          .processInstanceKey(v.processInstanceKey)
          .processDefinitionKey(v.processDefinitionKey)
          .flowScopeKey(v.flowScopeKey)
          .version(v.version)
          .bpmnElementType((short) v.elementType.ordinal())
          .parentElementInstanceKey(v.parentElementInstanceKey)
          .bpmnProcessId(v.bpmnProcessId)
          .elementId(v.elementId);
      return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }
  }

  /** JobValue's mapping before ValueFields. */
  private static final class HandWrittenJob extends WorkflowValue {
    @Override
    protected int templateId() {
      return JobValueEncoder.TEMPLATE_ID;
    }

    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final JobValueEncoder encoder = new JobValueEncoder();
    private final JobValueDecoder decoder = new JobValueDecoder();
    private final JobValue v = new JobValue();

    @Override
    protected void decode(
        DirectBuffer buffer, int offset, int blockLength, int version, int length) {
      decoder.wrap(buffer, offset, blockLength, version);
      v.deadline = decoder.deadline();
      v.retries = decoder.retries();
      v.processInstanceKey = decoder.processInstanceKey();
      v.elementInstanceKey = decoder.elementInstanceKey();
      v.processDefinitionKey = decoder.processDefinitionKey();
      v.processDefinitionVersion = decoder.processDefinitionVersion();
      v.retryBackoffMs = decoder.retryBackoff();
      v.recurAt = decoder.recurAt();
      v.timeoutMs = decoder.timeout();
      v.type = decoder.jobType();
      v.worker = decoder.worker();
      v.bpmnProcessId = decoder.bpmnProcessId();
      v.elementId = decoder.elementId();
      v.customHeaders = new byte[decoder.customHeadersLength()];
      decoder.getCustomHeaders(v.customHeaders, 0, v.customHeaders.length);
      v.variables = new byte[decoder.variablesLength()];
      decoder.getVariables(v.variables, 0, v.variables.length);
      v.errorMessage = decoder.errorMessage();
      v.errorCode = decoder.errorCode();
    }

    @Override
    protected int encode(MutableDirectBuffer buffer, int offset) {
      encoder
          .wrapAndApplyHeader(buffer, offset, header)
          .deadline(v.deadline)
          .retries(v.retries)
          .processInstanceKey(v.processInstanceKey)
          .elementInstanceKey(v.elementInstanceKey)
          .processDefinitionKey(v.processDefinitionKey)
          .processDefinitionVersion(v.processDefinitionVersion)
          .retryBackoff(v.retryBackoffMs)
          .recurAt(v.recurAt)
          .timeout(v.timeoutMs)
          .jobType(v.type)
          .worker(v.worker)
          .bpmnProcessId(v.bpmnProcessId)
          .elementId(v.elementId)
          .putCustomHeaders(v.customHeaders, 0, v.customHeaders.length)
          .putVariables(v.variables, 0, v.variables.length)
          .errorMessage(v.errorMessage)
          .errorCode(v.errorCode);
      return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
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
