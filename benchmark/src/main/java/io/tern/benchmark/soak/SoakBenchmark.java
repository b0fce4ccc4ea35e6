package io.tern.benchmark.soak;

import io.camunda.client.CamundaClient;
import io.camunda.client.CredentialsProvider;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.load.LocalCluster;
import io.tern.benchmark.machine.ProcessCpu;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code soak}: keeps the load on until {@code --duration} has passed since the run's first start
 * (or until stopped: SIGTERM or Ctrl-C end it cleanly), recording an interval every {@code
 * --interval}; then writes the report and returns 0 if every verdict passed, 1 if not.
 */
public final class SoakBenchmark {
  /**
   * Verdicts on the terminal are judged again each interval while the run has fewer than {@link
   * #JUDGE_ALWAYS}, then every {@link #JUDGE_EVERY} (judging reads the whole series).
   */
  private static final int JUDGE_EVERY = 6;

  private static final int JUDGE_ALWAYS = 1_000;

  private SoakBenchmark() {}

  public static int run(String[] args) throws Exception {
    SoakOptions options = SoakOptions.parse(args);
    if (options == null) {
      return 0;
    }
    Progress progress = new Progress();
    RunInfo.record(options, args);
    List<SoakSeries.Interval> earlier = SoakLog.read(options.dir);
    SoakSeries series = SoakSeries.of(earlier);
    long nowMs = System.currentTimeMillis();
    long firstStartMs =
        earlier.isEmpty()
            ? nowMs
            : earlier.get(0).epochMs() - Math.round(earlier.get(0).elapsedS() * 1000);
    int segment = earlier.isEmpty() ? 1 : earlier.get(earlier.size() - 1).segment() + 1;
    if (!earlier.isEmpty()) {
      progress.log(
          "resuming %s: %d intervals recorded since %s",
          options.dir, earlier.size(), Instant.ofEpochMilli(firstStartMs));
    }
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              stop.countDown();
              try {
                finished.await(2, TimeUnit.MINUTES); // let the report be written
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "soak-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (!done(options, firstStartMs)) {
        drive(options, series, firstStartMs, segment, stop, progress);
      }
      List<Verdict> verdicts =
          SoakReport.write(options.dir, series, options.thresholds, options.baseline);
      verdicts.forEach(verdict -> System.out.println(verdict.line()));
      progress.log("report: %s", options.dir.resolve(SoakReport.HTML).toAbsolutePath());
      return verdicts.stream().allMatch(Verdict::passed) ? 0 : 1;
    } finally {
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running: it waits for the countdown above
      }
    }
  }

  private static boolean done(SoakOptions options, long firstStartMs) {
    return !options.duration.isZero()
        && System.currentTimeMillis() - firstStartMs >= options.duration.toMillis();
  }

  private static void drive(
      SoakOptions options,
      SoakSeries series,
      long firstStartMs,
      int segment,
      CountDownLatch stop,
      Progress progress)
      throws Exception {
    LocalCluster cluster = null;
    String gateway = options.gateway;
    List<String> management = options.management;
    if (gateway == null) {
      Map<String, String> environment = options.environment();
      cluster =
          LocalCluster.start(
              options.brokers,
              options.partitions,
              options.replication,
              environment.getOrDefault("TERN_RAFT_FLUSH_MODE", "sync"),
              environment,
              options.dir.resolve("cluster"),
              progress);
      gateway = cluster.gateway();
      management = cluster.managementAddresses();
    }
    ClientStats stats = new ClientStats();
    AtomicLong errorsShown = new AtomicLong();
    AtomicBoolean closing = new AtomicBoolean();
    Consumer<String> errors =
        error -> {
          if (!closing.get()) {
            show(error, errorsShown, progress); // not the ones of the answers cut off by closing
          }
        };
    try (LocalCluster local = cluster;
        CamundaClient client = client(gateway, options.workers);
        SoakLog log = SoakLog.append(options.dir)) {
      Starter starter = new Starter(client, options.workload, options.rate, stats, errors);
      deploy(starter, options.jobType, progress);
      try (Worker worker =
              new Worker(
                  client,
                  options.jobType,
                  new Worker.Settings(
                      options.workers, options.capacity, options.completionDelay, options.polling),
                  options.workload.lastTaskId(),
                  stats,
                  errors);
          Starter running = starter) {
        worker.open();
        running.start();
        progress.log(
            "soak: %s at %s/s against %s, %d workers x %d, interval %s, %s",
            options.workload.name(),
            Format.number(options.rate),
            gateway,
            options.workers,
            options.capacity,
            Format.duration(options.interval.toMillis() / 1000.0),
            options.duration.isZero()
                ? "until stopped"
                : "for " + Format.duration(options.duration.toMillis() / 1000.0));
        try {
          record(
              options,
              series,
              firstStartMs,
              segment,
              stop,
              progress,
              stats,
              new BrokerSignals(management),
              log);
        } finally {
          closing.set(true);
        }
      }
    }
  }

  private static void record(
      SoakOptions options,
      SoakSeries series,
      long firstStartMs,
      int segment,
      CountDownLatch stop,
      Progress progress,
      ClientStats stats,
      BrokerSignals brokers,
      SoakLog log)
      throws InterruptedException, IOException {
    brokers.scrape(1); // the baseline of the brokers' counters
    stats.interval(1); // what came before recording (deploying, the first sends) is not counted
    // A fresh run's time starts now, with the load; a resumed one's at its first start.
    long origin = series.isEmpty() ? System.currentTimeMillis() : firstStartMs;
    long intervalNs = options.interval.toNanos();
    long startNs = System.nanoTime();
    long lastNs = startNs;
    long lastCpuNs = ProcessCpu.nanos();
    List<Verdict> verdicts = List.of();
    for (long k = 1; ; k++) {
      long waitNs = startNs + k * intervalNs - System.nanoTime();
      if (stop.await(Math.max(0, waitNs), TimeUnit.NANOSECONDS)) {
        return;
      }
      long nowNs = System.nanoTime();
      double seconds = (nowNs - lastNs) / 1e9;
      lastNs = nowNs;
      Map<String, Double> signals = new LinkedHashMap<>(stats.interval(seconds));
      signals.putAll(brokers.scrape(seconds));
      double completed = signals.get(Signals.COMPLETED);
      double brokerCpu = signals.getOrDefault(Signals.BROKERS_CPU, Double.NaN);
      signals.put(
          Signals.CPU_PER_INSTANCE, completed > 0 ? brokerCpu * 1000 / completed : Double.NaN);
      long cpuNs = ProcessCpu.nanos();
      signals.put(Signals.CLIENT_CPU, (cpuNs - lastCpuNs) / 1e9 / seconds);
      lastCpuNs = cpuNs;
      signals.put(Signals.CLIENT_HEAP, HeapAfterGc.megabytes());
      long nowMs = System.currentTimeMillis();
      SoakSeries.Interval interval =
          new SoakSeries.Interval(nowMs, (nowMs - origin) / 1000.0, segment, signals);
      log.write(interval);
      series.add(interval);
      if (series.size() < JUDGE_ALWAYS || k % JUDGE_EVERY == 0) {
        verdicts = Verdicts.judge(series, options.thresholds);
      }
      progress.log(
          "%s: sent %s/s, completed %s/s, rejected %s/s, PEL p99 %s ms; %s",
          Format.duration(interval.elapsedS()),
          Format.number(signals.get(Signals.SENT)),
          Format.number(completed),
          Format.number(signals.get(Signals.REJECTED)),
          Format.number(signals.get(Signals.PEL_P99)),
          verdicts.stream()
              .map(v -> v.name() + (v.passed() ? " ok" : " FAIL"))
              .collect(Collectors.joining(", ")));
      if (done(options, origin)) {
        return;
      }
    }
  }

  /** Deploys the workload, retrying while the cluster is not ready yet (up to two minutes). */
  private static void deploy(Starter starter, String jobType, Progress progress)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (true) {
      try {
        starter.deploy(jobType);
        return;
      } catch (RuntimeException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        progress.log("deploy failed, retrying: %s", Starter.rootMessage(e));
        Thread.sleep(2_000);
      }
    }
  }

  /**
   * Shows the first errors and then every 1000th, so that a failing cluster cannot flood the log.
   */
  private static void show(String error, AtomicLong shown, Progress progress) {
    long count = shown.incrementAndGet();
    if (count <= 10 || count % 1000 == 0) {
      progress.log("error %d: %s", count, error);
    }
  }

  static CamundaClient client(String gateway, int threads) {
    return client(gateway, threads, null);
  }

  /** With {@code credentials} (an OAuth provider, or null for none) on every call. */
  static CamundaClient client(String gateway, int threads, CredentialsProvider credentials) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://" + gateway))
        .preferRestOverGrpc(false)
        .credentialsProvider(credentials)
        .defaultRequestTimeout(Duration.ofSeconds(30))
        .numJobWorkerExecutionThreads(Math.max(1, threads))
        .build();
  }
}
