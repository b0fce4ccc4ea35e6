package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.camunda.client.CamundaClient;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.zeebe.exporter.proto.Schema;
import io.zeebe.hazelcast.connect.java.ZeebeHazelcast;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A community exporter, unchanged: the Zeebe Hazelcast exporter 1.4.0 (built against Zeebe 8.2)
 * loaded from one jar as its release ships it, writing to a Hazelcast member on loopback that the
 * test starts, and read back with the exporter's own client library (its connector). A process with
 * a job runs end to end; its records arrive in the log's order.
 */
@Tag("slow") // a broker end to end and a Hazelcast member: docs/testing.md
class HazelcastExporterTest {
  private static final Path PARTS = Path.of("target", "hazelcast-exporter");
  private static final String CLUSTER = "tern-hazelcast-test";

  @TempDir Path dir;
  private HazelcastInstance hazelcast;
  private int port;

  @BeforeEach
  void startHazelcastOnLoopback() throws IOException {
    // Hazelcast's default join is multicast, and it phones home: neither leaves this machine.
    System.setProperty("hazelcast.phone.home.enabled", "false");
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Config config = new Config().setClusterName(CLUSTER);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.getNetworkConfig().setPort(port).setPortAutoIncrement(false);
    config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
    JoinConfig join = config.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).addMember("127.0.0.1:" + port);
    hazelcast = Hazelcast.newHazelcastInstance(config);
  }

  @AfterEach
  void stopHazelcast() {
    if (hazelcast != null) {
      hazelcast.shutdown();
    }
  }

  @Test
  void theCommunityExporterGetsAProcessWithAJobInLogOrder() throws Exception {
    Path jar = jarWithDependencies(dir.resolve("zeebe-hazelcast-exporter-1.4.0.jar"));
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(
        "TERN_EXPORTERS_HAZELCAST_CLASSNAME", "io.zeebe.hazelcast.exporter.HazelcastExporter");
    settings.put("TERN_EXPORTERS_HAZELCAST_JARPATH", jar.toString());
    settings.put("TERN_EXPORTERS_HAZELCAST_ARGS_REMOTEADDRESS", "127.0.0.1:" + port);
    settings.put("TERN_EXPORTERS_HAZELCAST_ARGS_CLUSTERNAME", CLUSTER);

    List<Long> positions = new CopyOnWriteArrayList<>();
    List<String> instanceEvents = new CopyOnWriteArrayList<>();
    List<String> jobEvents = new CopyOnWriteArrayList<>();
    try (Broker broker = Broker.start(TestBrokers.config(dir, settings));
        CamundaClient client = TestBrokers.client(broker);
        ZeebeHazelcast reader =
            ZeebeHazelcast.newBuilder(hazelcast)
                .readFromHead()
                .addProcessInstanceListener(
                    record -> {
                      positions.add(record.getMetadata().getPosition());
                      if (record.getMetadata().getRecordType()
                          == Schema.RecordMetadata.RecordType.EVENT) {
                        instanceEvents.add(
                            record.getElementId() + ":" + record.getMetadata().getIntent());
                      }
                    })
                .addJobListener(
                    record -> {
                      positions.add(record.getMetadata().getPosition());
                      if (record.getMetadata().getRecordType()
                          == Schema.RecordMetadata.RecordType.EVENT) {
                        jobEvents.add(record.getType() + ":" + record.getMetadata().getIntent());
                      }
                    })
                .addDeploymentListener(record -> positions.add(record.getMetadata().getPosition()))
                .addVariableListener(record -> positions.add(record.getMetadata().getPosition()))
                .build()) {
      assertThat(broker.awaitReady(Duration.ofMinutes(1))).isTrue();
      client
          .newDeployResourceCommand()
          .addProcessModel(
              Bpmn.createExecutableProcess("hz")
                  .startEvent("start")
                  .serviceTask("pay", task -> task.zeebeJobType("pay"))
                  .endEvent("end")
                  .done(),
              "hz.bpmn")
          .send()
          .join();
      try (var worker =
          client
              .newWorker()
              .jobType("pay")
              .handler(
                  (jobClient, job) ->
                      jobClient
                          .newCompleteCommand(job)
                          .variables(Map.of("paid", true))
                          .send()
                          .join())
              .open()) {
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("hz")
            .latestVersion()
            .variables(Map.of("amount", 12))
            .withResult()
            .requestTimeout(Duration.ofSeconds(30))
            .send()
            .join();
      }

      await("the process's completion in Hazelcast")
          .atMost(Duration.ofSeconds(60))
          .until(() -> instanceEvents.contains("hz:ELEMENT_COMPLETED"));
    }

    assertThat(jobEvents).containsSubsequence("pay:CREATED", "pay:COMPLETED");
    assertThat(instanceEvents)
        .containsSubsequence(
            "hz:ELEMENT_ACTIVATING",
            "hz:ELEMENT_ACTIVATED",
            "start:ELEMENT_COMPLETED",
            "pay:ELEMENT_ACTIVATED",
            "pay:ELEMENT_COMPLETED",
            "end:ELEMENT_COMPLETED",
            "hz:ELEMENT_COMPLETED");
    assertThat(positions).as("log order, each record once").isSorted().doesNotHaveDuplicates();
  }

  /**
   * The exporter's jar and its libraries as one jar, as its GitHub release ships it: the first copy
   * of a class wins, service files are joined, signatures are left out.
   */
  private static Path jarWithDependencies(Path target) throws IOException {
    List<Path> parts = new ArrayList<>();
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(PARTS, "*.jar")) {
      jars.forEach(parts::add);
    }
    assertThat(parts).as("the exporter's parts in %s", PARTS.toAbsolutePath()).hasSize(4);
    parts.sort(
        java.util.Comparator.comparing(
                (Path part) -> !part.getFileName().toString().startsWith("zeebe-hazelcast"))
            .thenComparing(Path::toString));
    Map<String, ByteArrayOutputStream> services = new LinkedHashMap<>();
    Set<String> written = new HashSet<>();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target))) {
      for (Path part : parts) {
        try (JarFile in = new JarFile(part.toFile())) {
          for (JarEntry entry : java.util.Collections.list(in.entries())) {
            String name = entry.getName();
            if (entry.isDirectory()
                || name.equals("META-INF/MANIFEST.MF")
                || name.matches("META-INF/[^/]+\\.(SF|RSA|DSA|EC)")
                || name.endsWith("module-info.class")) {
              continue;
            }
            try (InputStream bytes = in.getInputStream(entry)) {
              if (name.startsWith("META-INF/services/")) {
                ByteArrayOutputStream joined =
                    services.computeIfAbsent(name, n -> new ByteArrayOutputStream());
                bytes.transferTo(joined);
                joined.write('\n');
              } else if (written.add(name)) {
                out.putNextEntry(new JarEntry(name));
                bytes.transferTo(out);
                out.closeEntry();
              }
            }
          }
        }
      }
      for (Map.Entry<String, ByteArrayOutputStream> service : services.entrySet()) {
        out.putNextEntry(new JarEntry(service.getKey()));
        writeTo(service.getValue(), out);
        out.closeEntry();
      }
    }
    return target;
  }

  private static void writeTo(ByteArrayOutputStream bytes, OutputStream out) throws IOException {
    bytes.writeTo(out);
  }
}
