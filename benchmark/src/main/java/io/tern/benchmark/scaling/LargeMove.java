package io.tern.benchmark.scaling;

import static io.tern.benchmark.scaling.ScalingBenchmark.median;
import static io.tern.benchmark.scaling.ScalingBenchmark.round;

import io.camunda.client.CamundaClient;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.Status;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.load.Deployments;
import io.tern.benchmark.load.ExperimentBenchmark;
import io.tern.benchmark.load.LoadDriver;
import io.tern.benchmark.load.LocalCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Target t2: moving a partition with a large state takes at most twice as long as copying its
 * snapshot between the two brokers. One partition, replicas on brokers 0 and 1, is filled with
 * instances that wait at a job nobody takes, each with a large random variable (so the bytes land
 * in the state and its snapshot, not compressed away); broker 0 snapshots it. Each round copies the
 * snapshot's files into the directory of the broker not holding the partition, over a loopback
 * socket to another process and as a plain copy, then moves the partition's second replica there
 * ([0, 1] to [0, 2], the next round back): the join step is the copy plus Raft's catch-up.
 */
final class LargeMove {
  static final double TARGET_RATIO = 2.0;
  private static final String PROCESS_ID = "scaling-state";
  private static final int IN_FLIGHT = 8;
  private static final String INSTALL_SECONDS = "tern_raft_snapshot_install_duration_seconds";
  private static final String INSTALL_BYTES = "tern_raft_snapshot_install_bytes";
  private static final String PARTITION_1 = "partition=\"1\"";

  private LargeMove() {}

  static Map<String, Object> measure(ScalingOptions.Settings settings, Path dir, Progress progress)
      throws Exception {
    // The move copies the state as a snapshot although the leader's log still holds the fill: a
    // replica that joins far behind the latest snapshot is sent it
    // (raft.preferSnapshotReplicationThreshold).
    Map<String, String> environment = new LinkedHashMap<>(settings.environment());
    try (LocalCluster cluster =
        LocalCluster.start(2, 1, 1, 2, settings.flushMode(), environment, dir, progress)) {
      List<String> management = cluster.managementAddresses();
      ExperimentBenchmark.onPrimaries(
          management.subList(0, 2), cluster.managementAuthorization(), 2, progress);
      ClusterApi api = new ClusterApi(cluster.managementAuthorization());
      long filledBytes;
      try (CamundaClient client = ScalingBenchmark.client(cluster.gateway())) {
        filledBytes = fill(client, settings, progress);
      }
      List<Map<String, Object>> rounds = new ArrayList<>();
      int holder = 1; // the broker with partition 1's second replica
      for (int round = 1; round <= settings.rounds(); round++) {
        int target = holder == 1 ? 2 : 1;
        rounds.add(oneRound(settings, cluster, api, dir, round, holder, target, progress));
        holder = target;
      }
      return summary(filledBytes, rounds);
    }
  }

  /** Creates waiting instances with random variables until {@code stateBytes} of them went in. */
  private static long fill(
      CamundaClient client, ScalingOptions.Settings settings, Progress progress)
      throws InterruptedException {
    String jobType =
        "scaling-state-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    byte[] bpmn =
        Bpmn.convertToString(
                Bpmn.createExecutableProcess(PROCESS_ID)
                    .startEvent()
                    .serviceTask("wait", task -> task.zeebeJobType(jobType))
                    .endEvent()
                    .done())
            .getBytes(StandardCharsets.UTF_8);
    long definition = Deployments.deployEverywhere(client, PROCESS_ID, bpmn);
    long instances =
        (settings.stateBytes() + settings.variableBytes() - 1) / settings.variableBytes();
    progress.log(
        "t2: filling partition 1 with %d instances of a %d KB variable (%d MB)",
        instances, settings.variableBytes() / 1024, settings.stateBytes() / 1_000_000);
    Semaphore window = new Semaphore(IN_FLIGHT);
    AtomicLong created = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long startNs = System.nanoTime();
    long[] lastLogNs = {startNs};
    Runnable report =
        () -> {
          long now = System.nanoTime();
          if (now - lastLogNs[0] > 10_000_000_000L) {
            lastLogNs[0] = now;
            progress.log(
                "t2: %d/%d instances, %.1f MB/s of variables",
                created.get(),
                instances,
                created.get() * settings.variableBytes() / 1e6 / ((now - startNs) / 1e9));
          }
        };
    for (long sent = 0; sent < instances; ) {
      report.run();
      if (window.tryAcquire(1, TimeUnit.SECONDS)) {
        failed(failure);
        create(client, definition, settings.variableBytes(), window, created, failure);
        sent++;
      }
    }
    while (!window.tryAcquire(IN_FLIGHT, 1, TimeUnit.SECONDS)) {
      report.run();
    }
    failed(failure);
    progress.log(
        "t2: filled in %.1f s (%d MB of variables)",
        (System.nanoTime() - startNs) / 1e9, instances * settings.variableBytes() / 1_000_000);
    return instances * settings.variableBytes();
  }

  private static void failed(AtomicReference<Throwable> failure) {
    if (failure.get() != null) {
      throw new IllegalStateException("t2: a create failed", failure.get());
    }
  }

  /**
   * Creates one instance, sent again while it is refused or not written; frees its slot once in.
   */
  private static void create(
      CamundaClient client,
      long definition,
      int bytes,
      Semaphore window,
      AtomicLong created,
      AtomicReference<Throwable> failure) {
    byte[] random = new byte[bytes * 3 / 4];
    ThreadLocalRandom.current().nextBytes(random);
    String value = Base64.getEncoder().encodeToString(random);
    client
        .newCreateInstanceCommand()
        .processDefinitionKey(definition)
        .variables(Map.of("state", value))
        .send()
        .whenComplete(
            (answer, error) -> {
              if (error == null) {
                created.incrementAndGet();
                window.release();
                return;
              }
              Status.Code code = LoadDriver.statusOf(error);
              if (code == Status.Code.RESOURCE_EXHAUSTED || code == Status.Code.UNAVAILABLE) {
                create(client, definition, bytes, window, created, failure);
              } else {
                failure.compareAndSet(null, error);
                window.release();
              }
            });
  }

  private static Map<String, Object> oneRound(
      ScalingOptions.Settings settings,
      LocalCluster cluster,
      ClusterApi api,
      Path dir,
      int round,
      int holder,
      int target,
      Progress progress)
      throws Exception {
    List<String> management = cluster.managementAddresses();
    // Both replicas snapshot: the leader's is the one a new replica receives, and only the
    // leader's own snapshot lets it drop the fill's entries. The leader may have changed since the
    // fill (an election on a busy machine), so it is looked up.
    int leader = -1;
    for (int node : List.of(0, holder)) {
      progress.log("t2: snapshot on broker %d: %s", node, api.takeSnapshot(management.get(node)));
      if ("LEADER".equals(api.partitions(management.get(node)).get(1).get("role").asText())) {
        leader = node;
      }
    }
    if (leader < 0) {
      throw new IllegalStateException("t2: no leader of partition 1 on brokers 0 and " + holder);
    }
    String snapshotId = api.partitions(management.get(leader)).get(1).get("snapshotId").asText();
    Path snapshot = find(cluster.dataDirectory(leader), snapshotId);
    long bytes = SnapshotCopy.bytes(snapshot);
    progress.log(
        "t2 round %d/%d: leader %d's snapshot %s, %.1f MB; copying it as broker %d would receive"
            + " it",
        round, settings.rounds(), leader, snapshotId, bytes / 1e6, target);
    // Beside the brokers' directories, on the same file system: a broker's own directory is its.
    Path socketCopy = dir.resolve("copy-socket-" + round);
    double socketSeconds =
        SnapshotCopy.socketCopy(snapshot, socketCopy, dir.resolve("copy-receiver.log"));
    Path plainCopy = dir.resolve("copy-plain-" + round);
    double plainSeconds = SnapshotCopy.plainCopy(snapshot, plainCopy);
    ScalingBenchmark.deleteTree(socketCopy);
    ScalingBenchmark.deleteTree(plainCopy);
    progress.log(
        "t2: copy over a socket %.2f s (%.0f MB/s), plain copy %.2f s (%.0f MB/s)",
        socketSeconds, bytes / 1e6 / socketSeconds, plainSeconds, bytes / 1e6 / plainSeconds);
    double[] timerBefore = api.stepTimer(management.get(0), "PARTITION_JOIN");
    List<Integer> brokers = List.of(0, target);
    progress.log("t2: requesting brokers %s of broker 0", brokers);
    ClusterApi.ChangeRun change =
        api.change(management.get(0), brokers, null, settings.changeTimeout());
    double[] timerAfter = api.stepTimer(management.get(0), "PARTITION_JOIN");
    int join = change.plan().indexOf("PARTITION_JOIN " + target + " 1");
    double joinSeconds =
        timerAfter[1] - timerBefore[1] == 1
            ? timerAfter[0] - timerBefore[0]
            : join >= 0 && join < change.stepsDoneNs().size()
                ? change.stepSeconds(join)
                : Double.NaN;
    // The new replica's own meters: the target held no replica of partition 1 before the join
    // (one dropped in an earlier round had its meters removed with it).
    double[] install = api.meter(management.get(target), INSTALL_SECONDS, PARTITION_1);
    double[] installBytes = api.meter(management.get(target), INSTALL_BYTES, PARTITION_1);
    boolean gotSnapshot = install[1] > 0;
    progress.log(
        "t2: change %d %s in %.2f s %s; join step %.2f s (%.2fx the socket copy); broker %d"
            + " %s",
        change.changeId(),
        change.status(),
        change.seconds(),
        change.plan(),
        joinSeconds,
        joinSeconds / socketSeconds,
        target,
        gotSnapshot
            ? String.format(
                "installed a snapshot of %.1f MB in %.2f s", installBytes[0] / 1e6, install[0])
            : "installed NO snapshot (it took the leader's log)");
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("leader", leader);
    figures.put("snapshotId", snapshotId);
    figures.put("snapshotBytes", bytes);
    figures.put("socketCopySeconds", round(socketSeconds, 3));
    figures.put("plainCopySeconds", round(plainSeconds, 3));
    figures.put("changeStatus", change.status());
    figures.put("plan", change.plan());
    figures.put("changeSeconds", round(change.seconds(), 3));
    figures.put("joinSeconds", round(joinSeconds, 3));
    figures.put("joinSecondsFromTimer", timerAfter[1] - timerBefore[1] == 1);
    figures.put("joinOverSocketCopy", round(joinSeconds / socketSeconds, 3));
    figures.put("joinOverPlainCopy", round(joinSeconds / plainSeconds, 3));
    figures.put("snapshotInstalled", gotSnapshot);
    figures.put("installedBytes", installBytes[0]);
    figures.put("installSeconds", round(install[0], 3));
    return figures;
  }

  /** The directory named {@code snapshotId} under {@code dataDirectory}. */
  private static Path find(Path dataDirectory, String snapshotId) throws IOException {
    try (Stream<Path> paths = Files.walk(dataDirectory)) {
      return paths
          .filter(Files::isDirectory)
          .filter(path -> path.getFileName().toString().equals(snapshotId))
          .findFirst()
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "no directory " + snapshotId + " under " + dataDirectory));
    }
  }

  private static Map<String, Object> summary(long filledBytes, List<Map<String, Object>> rounds) {
    boolean completed = rounds.stream().allMatch(r -> "COMPLETED".equals(r.get("changeStatus")));
    boolean installed =
        rounds.stream().allMatch(r -> Boolean.TRUE.equals(r.get("snapshotInstalled")));
    double ratio = median(MoveUnderLoad.doubles(rounds, "joinOverSocketCopy"));
    // A join that took the leader's log rather than the snapshot is not the move the target means.
    boolean met = completed && installed && ratio <= TARGET_RATIO;
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("target", "a partition's join <= " + TARGET_RATIO + "x copying its snapshot");
    result.put("measured", completed);
    result.put("met", met);
    result.put("variableBytes", filledBytes);
    result.put("snapshotBytes", median(MoveUnderLoad.doubles(rounds, "snapshotBytes")));
    result.put("socketCopySeconds", median(MoveUnderLoad.doubles(rounds, "socketCopySeconds")));
    result.put("plainCopySeconds", median(MoveUnderLoad.doubles(rounds, "plainCopySeconds")));
    result.put("joinSeconds", median(MoveUnderLoad.doubles(rounds, "joinSeconds")));
    result.put("joinOverSocketCopy", ratio);
    result.put("joinOverPlainCopy", median(MoveUnderLoad.doubles(rounds, "joinOverPlainCopy")));
    result.put("snapshotInstalled", installed);
    result.put("installSeconds", median(MoveUnderLoad.doubles(rounds, "installSeconds")));
    result.put(
        "verdict",
        String.format(
            "%s: snapshot %.0f MB, copy over a socket %.2f s (plain %.2f s), join %.2f s = %.2fx"
                + " the socket copy (%.2fx the plain copy), of which the snapshot's install %.2f s%s;"
                + " change %s",
            met ? "PASS" : "FAIL",
            (Double) result.get("snapshotBytes") / 1e6,
            result.get("socketCopySeconds"),
            result.get("plainCopySeconds"),
            result.get("joinSeconds"),
            ratio,
            result.get("joinOverPlainCopy"),
            result.get("installSeconds"),
            installed ? "" : " (a round's new replica took the log, not the snapshot)",
            completed ? "completed" : "did NOT complete"));
    result.put("rounds", rounds);
    return result;
  }
}
