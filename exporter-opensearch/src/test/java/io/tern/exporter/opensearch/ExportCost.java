package io.tern.exporter.opensearch;

import com.sun.net.httpserver.HttpServer;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.Intent;
import io.camunda.zeebe.protocol.record.intent.JobIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceCreationIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.intent.VariableIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.camunda.zeebe.protocol.record.value.BpmnEventType;
import io.camunda.zeebe.protocol.record.value.ImmutableJobRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceCreationRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableVariableRecordValue;
import io.camunda.zeebe.protocol.record.value.JobKind;
import io.camunda.zeebe.protocol.record.value.JobListenerEventType;
import io.camunda.zeebe.protocol.record.value.JobRecordValue;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the OpenSearch exporter costs per process instance: the events of the load benchmark's
 * workload (one service task, a variable at the start) for {@code N} instances, 16 in flight,
 * exported with the default args into a stand-in node on loopback (the JDK's HTTP server, reading
 * each bulk and answering {@code "errors": false}), and the CPU time per instance: the exporting
 * thread's and the process's (the HTTP client's and the stand-in's threads too). A benchmark, not a
 * test: run it with the module's test class path, e.g.
 *
 * <pre>
 * ./mvnw -o -q -pl exporter-opensearch test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp exporter-opensearch/target/test-classes:exporter-opensearch/target/classes:$(cat exporter-opensearch/target/cp.txt) \
 *   io.tern.exporter.opensearch.ExportCost 20000 5
 * </pre>
 *
 * <p>Arguments: instances per round (default 20000), rounds (default 5). The first round warms the
 * JIT and is printed but left out of the median.
 */
final class ExportCost {
  private static final int IN_FLIGHT = 16;
  private static final long DAY = TestRecords.DAY_2026_12_07 + 36_000_000L;

  private long position;
  private long key = 2251799813685249L;

  public static void main(String[] args) throws Exception {
    int instances = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    HttpServer node = standIn();
    try {
      List<Double> process = new ArrayList<>();
      List<Double> thread = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        List<Record<?>> log = new ExportCost().workload(instances);
        Map<String, Object> exporterArgs = new HashMap<>();
        exporterArgs.put("url", "http://127.0.0.1:" + node.getAddress().getPort());
        TestContext context = new TestContext(exporterArgs);
        OpenSearchExporter exporter = new OpenSearchExporter();
        exporter.configure(context);
        exporter.open(context);
        System.gc();
        long threadBefore = threadCpuNanos();
        long processBefore = processCpuNanos();
        long started = System.nanoTime();
        for (Record<?> record : log) {
          if (context.filter.acceptType(record.getRecordType())
              && context.filter.acceptValue(record.getValueType())) {
            exporter.export(record);
          }
        }
        exporter.close(); // flushes the rest
        long wall = System.nanoTime() - started;
        double perProcess = (processCpuNanos() - processBefore) / 1000.0 / instances;
        double perThread = (threadCpuNanos() - threadBefore) / 1000.0 / instances;
        System.out.printf(
            "round %d: %,d instances, %,d records; CPU per instance: %.1f us of the process"
                + " (%.1f us on the exporting thread); wall %.2f s%n",
            round, instances, log.size(), perProcess, perThread, wall / 1e9);
        if (round > 1 || rounds == 1) {
          process.add(perProcess);
          thread.add(perThread);
        }
      }
      System.out.printf(
          "FIGURE opensearch exporter: %.1f us of CPU per instance (%.1f us on the exporting"
              + " thread), median of %d rounds%n",
          median(process), median(thread), process.size());
    } finally {
      node.stop(0);
    }
  }

  /** The benchmark's stand-in: reads every request, indexes nothing, answers without errors. */
  private static HttpServer standIn() throws Exception {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] ok = "{\"took\":1,\"errors\":false,\"items\":[]}".getBytes(StandardCharsets.UTF_8);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().transferTo(OutputStream.nullOutputStream());
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, ok.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(ok);
          }
        });
    server.start();
    return server;
  }

  /**
   * The log of the load workload, commands included (the exporter's filter drops them, as the
   * director would): {@link #IN_FLIGHT} instances at a time, their steps interleaved.
   */
  private List<Record<?>> workload(int instances) {
    List<Record<?>> log = new ArrayList<>(instances * 40);
    for (int first = 0; first < instances; first += IN_FLIGHT) {
      int wave = Math.min(IN_FLIGHT, instances - first);
      long[] instance = new long[wave];
      long[] task = new long[wave];
      long[] job = new long[wave];
      for (int i = 0; i < wave; i++) {
        instance[i] = ++key;
        task[i] = ++key;
        job[i] = ++key;
        log.add(creation(RecordType.COMMAND, ProcessInstanceCreationIntent.CREATE, -1));
        log.add(process(ProcessInstanceIntent.ACTIVATE_ELEMENT, RecordType.COMMAND, instance[i]));
        log.add(process(ProcessInstanceIntent.ELEMENT_ACTIVATING, RecordType.EVENT, instance[i]));
        log.add(process(ProcessInstanceIntent.ELEMENT_ACTIVATED, RecordType.EVENT, instance[i]));
        log.add(variable(instance[i], "\"A-" + (first + i) + "\""));
        log.add(creation(RecordType.EVENT, ProcessInstanceCreationIntent.CREATED, instance[i]));
        long start = ++key;
        for (ProcessInstanceIntent intent : PASSING) {
          log.add(element(intent, start, instance[i], "start", BpmnElementType.START_EVENT));
        }
        log.add(
            element(
                ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN,
                ++key,
                instance[i],
                "flow1",
                BpmnElementType.SEQUENCE_FLOW));
        log.add(
            element(
                ProcessInstanceIntent.ELEMENT_ACTIVATING,
                task[i],
                instance[i],
                "ship",
                BpmnElementType.SERVICE_TASK));
        log.add(
            element(
                ProcessInstanceIntent.ELEMENT_ACTIVATED,
                task[i],
                instance[i],
                "ship",
                BpmnElementType.SERVICE_TASK));
        log.add(job(JobIntent.CREATED, RecordType.EVENT, job[i], instance[i], task[i], ""));
      }
      for (int i = 0; i < wave; i++) {
        log.add(job(JobIntent.COMPLETE, RecordType.COMMAND, job[i], instance[i], task[i], "load"));
        log.add(job(JobIntent.COMPLETED, RecordType.EVENT, job[i], instance[i], task[i], "load"));
        for (ProcessInstanceIntent intent :
            List.of(
                ProcessInstanceIntent.ELEMENT_COMPLETING,
                ProcessInstanceIntent.ELEMENT_COMPLETED)) {
          log.add(element(intent, task[i], instance[i], "ship", BpmnElementType.SERVICE_TASK));
        }
        log.add(
            element(
                ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN,
                ++key,
                instance[i],
                "flow2",
                BpmnElementType.SEQUENCE_FLOW));
        long end = ++key;
        for (ProcessInstanceIntent intent : PASSING) {
          log.add(element(intent, end, instance[i], "end", BpmnElementType.END_EVENT));
        }
        log.add(process(ProcessInstanceIntent.ELEMENT_COMPLETING, RecordType.EVENT, instance[i]));
        log.add(process(ProcessInstanceIntent.ELEMENT_COMPLETED, RecordType.EVENT, instance[i]));
      }
    }
    return log;
  }

  private static final List<ProcessInstanceIntent> PASSING =
      List.of(
          ProcessInstanceIntent.ELEMENT_ACTIVATING,
          ProcessInstanceIntent.ELEMENT_ACTIVATED,
          ProcessInstanceIntent.ELEMENT_COMPLETING,
          ProcessInstanceIntent.ELEMENT_COMPLETED);

  private Record<?> process(ProcessInstanceIntent intent, RecordType type, long instance) {
    return element(intent, type, instance, instance, "order", BpmnElementType.PROCESS, -1);
  }

  private Record<?> element(
      ProcessInstanceIntent intent, long key, long instance, String id, BpmnElementType type) {
    return element(intent, RecordType.EVENT, key, instance, id, type, instance);
  }

  private Record<?> element(
      ProcessInstanceIntent intent,
      RecordType recordType,
      long key,
      long instance,
      String id,
      BpmnElementType type,
      long flowScope) {
    return record(
        recordType,
        ValueType.PROCESS_INSTANCE,
        intent,
        key,
        ImmutableProcessInstanceRecordValue.builder()
            .withBpmnProcessId("order")
            .withVersion(1)
            .withProcessDefinitionKey(2251799813685248L)
            .withProcessInstanceKey(instance)
            .withElementId(id)
            .withFlowScopeKey(flowScope)
            .withBpmnElementType(type)
            .withBpmnEventType(BpmnEventType.UNSPECIFIED)
            .withParentProcessInstanceKey(-1)
            .withParentElementInstanceKey(-1)
            .withTenantId("<default>")
            .build());
  }

  private Record<?> creation(RecordType type, Intent intent, long instance) {
    return record(
        type,
        ValueType.PROCESS_INSTANCE_CREATION,
        intent,
        instance,
        ImmutableProcessInstanceCreationRecordValue.builder()
            .withBpmnProcessId("order")
            .withVersion(1)
            .withProcessDefinitionKey(2251799813685248L)
            .withProcessInstanceKey(instance)
            .withVariables(Map.of("orderId", "A-1"))
            .withTenantId("<default>")
            .build());
  }

  private Record<?> variable(long instance, String value) {
    return record(
        RecordType.EVENT,
        ValueType.VARIABLE,
        VariableIntent.CREATED,
        ++key,
        ImmutableVariableRecordValue.builder()
            .withName("orderId")
            .withValue(value)
            .withScopeKey(instance)
            .withProcessInstanceKey(instance)
            .withProcessDefinitionKey(2251799813685248L)
            .withBpmnProcessId("order")
            .withTenantId("<default>")
            .build());
  }

  private Record<?> job(
      JobIntent intent, RecordType type, long job, long instance, long task, String worker) {
    JobRecordValue value =
        ImmutableJobRecordValue.builder()
            .withType("ship")
            .withWorker(worker)
            .withRetries(3)
            .withDeadline(worker.isEmpty() ? -1 : DAY + 300_000)
            .withTimeout(worker.isEmpty() ? -1 : 300_000)
            .withCustomHeaders(Map.of())
            .withVariables(Map.of())
            .withElementId("ship")
            .withElementInstanceKey(task)
            .withBpmnProcessId("order")
            .withProcessDefinitionVersion(1)
            .withProcessDefinitionKey(2251799813685248L)
            .withProcessInstanceKey(instance)
            .withJobKind(JobKind.BPMN_ELEMENT)
            .withJobListenerEventType(JobListenerEventType.UNSPECIFIED)
            .withChangedAttributes(Set.of())
            .withErrorMessage("")
            .withErrorCode("")
            .withTenantId("<default>")
            .build();
    return record(type, ValueType.JOB, intent, job, value);
  }

  private Record<?> record(
      RecordType type,
      ValueType valueType,
      Intent intent,
      long key,
      io.camunda.zeebe.protocol.record.RecordValue value) {
    position++;
    return TestRecords.record(
        1, position, key, DAY + position / 20, type, valueType, intent, value);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static long threadCpuNanos() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  private ExportCost() {}
}
