package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three targets, side by side in one run, at a small scale (run it with
 * -Dtern.measureBackup=true; -Dtern.measureBackup.instances=N sets the state's size): instance
 * creations per second during a backup against before it; the backup's time against copying the
 * same files to the same (file-system) store; a restore's time against copying the stored files
 * back. 3 brokers in this JVM, 3 partitions, replication factor 3. Prints the figures; asserts only
 * that the backup completed and the restore ran.
 */
@Tag("slow") // a measurement of minutes, on demand only: docs/testing.md
@EnabledIfSystemProperty(named = "tern.measureBackup", matches = "true")
class BackupCostMeasurement {
  @TempDir Path dir;

  @Test
  void measure() throws Exception {
    int instances = Integer.getInteger("tern.measureBackup.instances", 20_000);
    // -Dtern.measureBackup.storeDir=/dev/shm/... puts the store on another file system than the
    // brokers' data (e.g. memory): whether what a backup takes from processing is the shared disk.
    String storeDir = System.getProperty("tern.measureBackup.storeDir");
    Path backups = storeDir == null ? dir.resolve("backups") : Path.of(storeDir);
    Map<String, String> store =
        Map.of(
            "TERN_DATA_BACKUP_STORE",
            "filesystem",
            "TERN_DATA_BACKUP_FILESYSTEM_BASEPATH",
            backups.toString());
    long backupMs;
    long partsBytes;
    TestCluster cluster = new TestCluster(dir, 3, 3, 3, store);
    double before;
    double during;
    try (cluster) {
      cluster.start().awaitReady(Duration.ofSeconds(60));
      try (CamundaClient client = cluster.client()) {
        client
            .newDeployResourceCommand()
            .addProcessModel(
                Bpmn.createExecutableProcess("cost")
                    .startEvent()
                    .serviceTask("work", task -> task.zeebeJobType("work"))
                    .endEvent()
                    .done(),
                "cost.bpmn")
            .send()
            .join();
        // State: instances waiting at a job, each with 8 KB of incompressible variables.
        Random random = new Random(51);
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
          byte[] payload = new byte[6 * 1024];
          random.nextBytes(payload);
          inFlight.add(
              client
                  .newCreateInstanceCommand()
                  .bpmnProcessId("cost")
                  .latestVersion()
                  .variables(Map.of("payload", Base64.getEncoder().encodeToString(payload)))
                  .send()
                  .toCompletableFuture()
                  // A busy machine times some out: the state is a little smaller, no more.
                  .exceptionally(error -> null));
          if (inFlight.size() == 64) {
            CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
            inFlight.clear();
          }
        }
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
        for (int node = 0; node < 3; node++) {
          call(cluster.broker(node).managementPort(), "POST", "/actuator/partitions/takeSnapshot");
        }

        AtomicLong acked = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicBoolean loading = new AtomicBoolean(true);
        List<CompletableFuture<Void>> load = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          load.add(
              CompletableFuture.runAsync(
                  () -> {
                    while (loading.get()) {
                      try {
                        client
                            .newCreateInstanceCommand()
                            .bpmnProcessId("cost")
                            .latestVersion()
                            .send()
                            .join();
                        acked.incrementAndGet();
                      } catch (RuntimeException e) {
                        failed.incrementAndGet(); // counted, not acknowledged
                      }
                    }
                  }));
        }
        long windowStart = System.nanoTime();
        long atStart = acked.get();
        waitMs(5_000);
        before = rate(acked.get() - atStart, System.nanoTime() - windowStart);

        long startNs = System.nanoTime();
        long atBackup = acked.get();
        HttpResponse<String> taken =
            call(
                cluster.broker(0).managementPort(),
                "POST",
                "/actuator/backups",
                "{\"backupId\": 1}");
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(202);
        String status;
        do {
          waitMs(20);
          status = call(cluster.broker(0).managementPort(), "GET", "/actuator/backups/1").body();
        } while (!status.startsWith("{\"backupId\":1,\"state\":\"COMPLETED\""));
        backupMs = (System.nanoTime() - startNs) / 1_000_000;
        during = rate(acked.get() - atBackup, System.nanoTime() - startNs);
        loading.set(false);
        CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).join();
        System.out.printf("BACKUP COST: %d creations of the load failed%n", failed.get());
        partsBytes =
            java.util.regex.Pattern.compile("\"sizeBytes\":(\\d+)")
                .matcher(status)
                .results()
                .mapToLong(match -> Long.parseLong(match.group(1)))
                .sum();
      }
    }

    long copyStart = System.nanoTime();
    copyTree(backups.resolve("1"), dir.resolve("copy-of-backup"));
    long copyMs = (System.nanoTime() - copyStart) / 1_000_000;

    long restoreMs = 0;
    long downloadMs = 0;
    for (int node = 0; node < 3; node++) {
      deleteTree(cluster.config(node).dataDirectory());
      long restoreStart = System.nanoTime();
      RestoreMain.restore(cluster.config(node), 1);
      restoreMs += (System.nanoTime() - restoreStart) / 1_000_000;
      long downloadStart = System.nanoTime();
      copyTree(backups.resolve("1"), dir.resolve("download-" + node));
      downloadMs += (System.nanoTime() - downloadStart) / 1_000_000;
    }

    System.out.printf(
        "BACKUP COST: %d instances; creations/s before %.0f, during the backup %.0f (%.1f%%);"
            + " backup %d ms for %d bytes vs copying its files %d ms (x%.2f); restore of 3"
            + " brokers %d ms vs copying the stored files 3 times %d ms (x%.2f)%n",
        instances,
        before,
        during,
        100.0 * (during - before) / before,
        backupMs,
        partsBytes,
        copyMs,
        (double) backupMs / Math.max(1, copyMs),
        restoreMs,
        downloadMs,
        (double) restoreMs / Math.max(1, downloadMs));
  }

  private static double rate(long count, long nanos) {
    return count * 1e9 / nanos;
  }

  /** A pause of the measurement's own pacing, not a wait for a condition. */
  private static void waitMs(long ms) throws InterruptedException {
    Thread.sleep(ms);
  }

  private static HttpResponse<String> call(int port, String method, String path) throws Exception {
    return call(port, method, path, null);
  }

  private static HttpResponse<String> call(int port, String method, String path, String body)
      throws Exception {
    // Two minutes: a backup of the measured state under load may take that long to answer.
    return ManagementCalls.send(
        port, method, path, body, TestBrokers.BEARER, Duration.ofSeconds(120));
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : paths.toList()) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
          try (var channel =
              java.nio.channels.FileChannel.open(target, java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true); // as the store forces what it writes
          }
        }
      }
    }
  }

  private static void deleteTree(Path directory) throws Exception {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
