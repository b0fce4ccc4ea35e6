package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceMetricsTest {
  @TempDir Path dir;

  @Test
  void eachPartsDiskUseIsTheBytesOfItsFilesAndCompleteSnapshotsAreCounted() throws Exception {
    Path raft = dir.resolve("raft/partition-2");
    Files.createDirectories(raft.resolve("journal"));
    Files.write(raft.resolve("journal/segment-1.log"), new byte[1000]);
    Files.createDirectories(raft.resolve("snapshots/40-3"));
    Files.write(raft.resolve("snapshots/40-3/000001.sst"), new byte[300]);
    Files.createDirectories(raft.resolve("snapshots/pending-50-3-taken"));
    Files.write(raft.resolve("snapshots/pending-50-3-taken/000002.sst"), new byte[200]);
    Path runtime = dir.resolve("partition-2/runtime");

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (ResourceMetrics metrics = new ResourceMetrics(registry)) {
      metrics.partition(2, raft, runtime);

      assertThat(disk(registry, "journal")).isEqualTo(1000);
      assertThat(disk(registry, "snapshots"))
          .as("the pending one counts: it is on disk")
          .isEqualTo(500);
      assertThat(disk(registry, "runtime")).as("not created yet").isZero();
      assertThat(registry.get("tern.raft.snapshot.count").tag("partition", "2").gauge().value())
          .as("only the complete snapshot")
          .isEqualTo(1);

      Files.createDirectories(raft.resolve("snapshots/90-3"));
      Files.write(raft.resolve("journal/segment-2.log"), new byte[24]);
      assertThat(disk(registry, "journal")).as("measured when read").isEqualTo(1024);
      assertThat(registry.get("tern.raft.snapshot.count").gauge().value()).isEqualTo(2);
    }
  }

  @Test
  void theJvmAndTheProcessAreReported() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (ResourceMetrics metrics = new ResourceMetrics(registry)) {
      assertThat(registry.find("jvm.memory.used").tag("area", "heap").gauges()).isNotEmpty();
      assertThat(registry.find("jvm.gc.live.data.size").gauge()).isNotNull();
      System.gc();
      assertThat(registry.get("tern.jvm.heap.after.gc").gauge().value())
          .as("something survives a collection")
          .isPositive();
      assertThat(registry.find("process.start.time").timeGauge()).isNotNull();
      assertThat(registry.find("process.cpu.usage").gauge()).isNotNull();
      double rss = registry.get("tern.process.resident.memory").gauge().value();
      double anonymous = registry.get("tern.process.resident.anonymous.memory").gauge().value();
      if (Files.exists(Path.of("/proc/self/status"))) {
        assertThat(rss).as("a JVM uses more than a megabyte").isGreaterThan(1 << 20);
        assertThat(anonymous)
            .as("the heap is anonymous memory; mapped files (the JDK's modules) are not")
            .isGreaterThan(1 << 20)
            .isLessThan(rss);
      } else {
        assertThat(rss).isNaN();
        assertThat(anonymous).isNaN();
      }
    }
  }

  private static double disk(SimpleMeterRegistry registry, String part) {
    return registry
        .get("tern.partition.disk.used")
        .tag("partition", "2")
        .tag("part", part)
        .gauge()
        .value();
  }
}
