package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The load benchmark runs end to end against a local broker and reports what it measured. */
@Tag("slow") // the load benchmark end to end: docs/testing.md
class LoadBenchmarkTest {
  @TempDir Path dir;

  @Test
  void aShortRunCompletesInstancesAndWritesItsResults() throws Exception {
    Path out = dir.resolve("load.json");
    int exit =
        LoadBenchmark.run(
            new String[] {
              // The first instances of a cold broker take longest: a warm-up keeps them out of a
              // window that must see completions even on a loaded machine.
              "--warmup",
              "2",
              "--duration",
              "3",
              "--in-flight",
              "4",
              "--tasks",
              "2",
              "--dir",
              dir.toString(),
              "--out",
              out.toString(),
              // The brokers of parallel tests each take a free REST port, not 8080.
              "--set",
              "gateway.rest.port=0"
            });

    assertThat(exit).as("no instance failed").isZero();
    String json = Files.readString(out);
    assertThat(json).contains("\"benchmark\": \"load\"").contains("\"failedInstances\": 0");
    assertThat(json).doesNotContain("\"completedInstances\": 0,");
    // Each second of the series carries the partition's backpressure limit: 100 at the start,
    // lower once the limiter has seen a slow second (a loaded machine).
    assertThat(json).contains("\"series\": [").containsPattern("\"limit\": [1-9][0-9]*,");
    byte[] chart = Files.readAllBytes(dir.resolve("load.png"));
    assertThat(chart)
        .as("a PNG image next to the results")
        .startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    try (var left = Files.list(dir)) {
      assertThat(left.map(path -> path.getFileName().toString()))
          .as("the local broker's data is removed")
          .containsExactlyInAnyOrder("load.json", "load.png");
    }
  }
}
