package io.tern.benchmark.soak;

import io.camunda.client.CamundaClient;
import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.OAuthOptions;
import io.tern.benchmark.common.Progress;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code starter} and {@code worker}: the soak's two halves of the load as processes of their own
 * (one Kubernetes Deployment each, as Zeebe's benchmarks run them), with the soak's code. Each
 * prints what it did every {@code --progress} until stopped (or, the starter, until {@code
 * --duration}).
 */
public final class LoadCommands {
  private LoadCommands() {}

  @Command(
      name = "starter",
      usageHelpAutoWidth = true,
      description =
          "Starts instances of a workload at a fixed rate through a gateway, deploying it first;"
              + " prints the rates every --progress.")
  static final class StarterOptions {
    @Option(
        names = "--gateway",
        paramLabel = "HOST:PORT",
        required = true,
        description = "the gateway")
    String gateway;

    @Option(
        names = "--rate",
        paramLabel = "N",
        defaultValue = "150",
        description = "instances per second (default ${DEFAULT-VALUE})")
    double rate;

    @Mixin WorkloadOptions workloadOptions;

    @Mixin OAuthOptions oauth = new OAuthOptions();

    @Option(
        names = "--duration",
        paramLabel = "DUR",
        converter = DurationConverter.class,
        defaultValue = "0",
        description = "then stop; 0 = until stopped (default)")
    Duration duration;

    @Option(
        names = "--progress",
        paramLabel = "DUR",
        converter = DurationConverter.class,
        defaultValue = "10s",
        description = "how often to print the rates (default ${DEFAULT-VALUE})")
    Duration every;

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "this help")
    boolean help;

    SoakWorkload resolved;
    String jobType;

    StarterOptions resolve() {
      if (rate <= 0) {
        throw new IllegalArgumentException("--rate must be positive, got " + rate);
      }
      positive("--progress", every);
      oauth.check(System.getenv());
      resolved = workloadOptions.resolve();
      jobType = workloadOptions.jobType;
      return this;
    }
  }

  @Command(
      name = "worker",
      usageHelpAutoWidth = true,
      description =
          "Completes jobs of one type through a gateway, each after --completion-delay; measures"
              + " the execution latency of the instances whose last task it completes; prints the"
              + " rates every --progress.")
  static final class WorkerOptions {
    @Option(
        names = "--gateway",
        paramLabel = "HOST:PORT",
        required = true,
        description = "the gateway")
    String gateway;

    @Option(
        names = "--job-type",
        paramLabel = "TYPE",
        defaultValue = "benchmark-task",
        description = "(default ${DEFAULT-VALUE})")
    String jobType;

    @Option(
        names = "--capacity",
        paramLabel = "N",
        defaultValue = "60",
        description = "jobs held at once (default ${DEFAULT-VALUE})")
    int capacity;

    @Option(
        names = "--completion-delay",
        paramLabel = "DUR",
        converter = DurationConverter.class,
        defaultValue = "50ms",
        description = "each job's work (default ${DEFAULT-VALUE})")
    Duration completionDelay;

    @Option(names = "--polling", description = "poll for jobs instead of streaming them")
    boolean polling;

    @Mixin OAuthOptions oauth = new OAuthOptions();

    @Option(
        names = "--workload",
        paramLabel = "NAME",
        defaultValue = "typical",
        description =
            "whose last task ends an instance, for its latency (default ${DEFAULT-VALUE})")
    String workload;

    @Option(
        names = "--progress",
        paramLabel = "DUR",
        converter = DurationConverter.class,
        defaultValue = "10s",
        description = "how often to print the rates (default ${DEFAULT-VALUE})")
    Duration every;

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "this help")
    boolean help;

    String lastTaskId;

    WorkerOptions resolve() {
      CommandLines.positive("--capacity", capacity);
      positive("--progress", every);
      oauth.check(System.getenv());
      lastTaskId = SoakWorkload.named(workload.toLowerCase(Locale.ROOT)).lastTaskId();
      return this;
    }
  }

  private static void positive(String option, Duration duration) {
    if (duration.isZero() || duration.isNegative()) {
      throw new IllegalArgumentException(option + " must be positive");
    }
  }

  public static int starter(String[] args) throws Exception {
    StarterOptions options =
        CommandLines.parse(new StarterOptions(), args, StarterOptions::resolve);
    if (options == null) {
      return 0;
    }
    Progress progress = new Progress();
    ClientStats stats = new ClientStats();
    try (CamundaClient client =
            SoakBenchmark.client(
                options.gateway, 1, options.oauth.credentialsProvider(System.getenv()));
        Starter starter =
            new Starter(
                client,
                options.resolved,
                options.rate,
                stats,
                error -> progress.log("%s", error))) {
      starter.deploy(options.jobType);
      starter.start();
      progress.log(
          "starter: %s at %s/s against %s",
          options.resolved.name(), Format.number(options.rate), options.gateway);
      report(progress, stats, null, options.every, options.duration);
    }
    return 0;
  }

  public static int worker(String[] args) throws Exception {
    WorkerOptions options = CommandLines.parse(new WorkerOptions(), args, WorkerOptions::resolve);
    if (options == null) {
      return 0;
    }
    Progress progress = new Progress();
    ClientStats stats = new ClientStats();
    try (CamundaClient client =
            SoakBenchmark.client(
                options.gateway, 1, options.oauth.credentialsProvider(System.getenv()));
        Worker worker =
            new Worker(
                client,
                options.jobType,
                new Worker.Settings(1, options.capacity, options.completionDelay, options.polling),
                options.lastTaskId,
                stats,
                error -> progress.log("%s", error))) {
      worker.open();
      progress.log(
          "worker: jobs of %s from %s, capacity %d",
          options.jobType, options.gateway, options.capacity);
      report(progress, stats, worker::jobsCompleted, options.every, Duration.ZERO);
    }
    return 0;
  }

  /**
   * Prints the rates every {@code every} until {@code duration} (0: until stopped): a starter's
   * instances, or ({@code jobs} given) a worker's jobs and the instances its last task ended.
   */
  private static void report(
      Progress progress,
      ClientStats stats,
      java.util.function.LongSupplier jobs,
      Duration every,
      Duration duration)
      throws InterruptedException {
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "load-stop"));
    long startNs = System.nanoTime();
    long lastNs = startNs;
    long lastJobs = 0;
    while (!stop.await(every.toNanos(), TimeUnit.NANOSECONDS)) {
      long nowNs = System.nanoTime();
      double seconds = (nowNs - lastNs) / 1e9;
      Map<String, Double> rates = stats.interval(seconds);
      lastNs = nowNs;
      if (jobs != null) {
        long jobsNow = jobs.getAsLong();
        progress.log(
            "jobs completed %s/s, instances ended by their last task %s/s, failed %s/s, PEL p99"
                + " %s ms",
            Format.number((jobsNow - lastJobs) / seconds),
            Format.number(rates.get(Signals.COMPLETED)),
            Format.number(rates.get(Signals.FAILED)),
            Format.number(rates.get(Signals.PEL_P99)));
        lastJobs = jobsNow;
      } else {
        progress.log(
            "sent %s/s, started %s/s, rejected %s/s, failed %s/s (the workers report the"
                + " completions)",
            Format.number(rates.get(Signals.SENT)),
            Format.number(rates.get(Signals.STARTED)),
            Format.number(rates.get(Signals.REJECTED)),
            Format.number(rates.get(Signals.FAILED)));
      }
      if (!duration.isZero() && nowNs - startNs >= duration.toNanos()) {
        return;
      }
    }
  }
}
