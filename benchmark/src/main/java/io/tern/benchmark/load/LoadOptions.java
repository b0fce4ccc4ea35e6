package io.tern.benchmark.load;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.OAuthOptions;
import io.tern.engine.broker.BrokerConfigLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the workflow load benchmark. */
@Command(
    name = "load",
    usageHelpAutoWidth = true,
    description =
        "Workflow load through a gateway with the official Java client: a starter creates process"
            + " instances of N service tasks, a worker completes their jobs. The starter keeps a"
            + " number of instances in flight (closed loop, --in-flight) or creates them at a rate"
            + " (open loop, --rate). Reports instances/s, latency percentiles, refusals"
            + " (RESOURCE_EXHAUSTED) and each partition leader's backpressure limit once a second."
            + " Works against Tern or Zeebe alike (--gateway); without it, starts a local Tern"
            + " broker in this process, or --brokers N broker processes.")
final class LoadOptions {
  private static final String AUTHENTICATION_MODE = "gateway.security.authentication.mode";

  @Option(
      names = "--gateway",
      paramLabel = "HOST:PORT",
      description = "a running gateway (default: launch local brokers)")
  String gateway;

  @Option(
      names = "--management",
      paramLabel = "HOST:PORT",
      split = ",",
      description =
          "with --gateway: the brokers' management addresses, to read their backpressure gauges")
  List<String> management = new ArrayList<>();

  @Option(
      names = "--in-flight",
      paramLabel = "N",
      defaultValue = "16",
      description =
          "closed loop: instances in flight (default ${DEFAULT-VALUE}; 1 = one at a time)")
  int inFlight;

  @Option(
      names = "--rate",
      paramLabel = "PER_SECOND",
      description = "open loop: creates per second on schedule, whatever the answers")
  Double rate;

  @Option(
      names = "--tasks",
      paramLabel = "N",
      defaultValue = "1",
      description = "service tasks per process (default ${DEFAULT-VALUE})")
  int tasks;

  @Option(
      names = "--with-result",
      defaultValue = "on",
      paramLabel = "on|off",
      description =
          "create with result (on, the default) or not (off: an instance ends when its last"
              + " job's completion is acknowledged)")
  String withResultOnOff;

  boolean withResult;

  @Option(
      names = "--payload",
      defaultValue = "0",
      paramLabel = "BYTES",
      description = "size of each instance's variables (default ${DEFAULT-VALUE})")
  int payloadBytes;

  @Option(
      names = "--streaming",
      defaultValue = "on",
      paramLabel = "on|off",
      description = "job push streaming for the worker (default on)")
  String streamingOnOff;

  boolean streaming;

  @Option(
      names = "--capacity",
      paramLabel = "N",
      defaultValue = "256",
      description = "the worker's jobs active at once (default ${DEFAULT-VALUE})")
  int workerCapacity;

  @Option(
      names = "--completion-delay",
      defaultValue = "0",
      paramLabel = "MS",
      description = "the worker's work per job (default ${DEFAULT-VALUE})")
  long completionDelayMs;

  @Option(
      names = "--backoff",
      defaultValue = "200",
      paramLabel = "MS",
      description =
          "closed loop: after a refusal, that instance's slot waits this long (default"
              + " ${DEFAULT-VALUE})")
  long backoffMs;

  @Option(
      names = "--request-timeout",
      defaultValue = "30",
      paramLabel = "SECONDS",
      description = "each create's request timeout (default ${DEFAULT-VALUE})")
  long requestTimeoutSeconds;

  @Option(
      names = "--warmup",
      defaultValue = "10",
      paramLabel = "SECONDS",
      description = "not measured (default ${DEFAULT-VALUE})")
  long warmupSeconds;

  @Option(
      names = "--duration",
      defaultValue = "30",
      paramLabel = "SECONDS",
      description = "measured (default ${DEFAULT-VALUE})")
  long durationSeconds;

  @Option(names = "--quick", description = "--warmup 3 --duration 8")
  boolean quick;

  @Option(
      names = "--rest",
      arity = "0..1",
      fallbackValue = "",
      paramLabel = "HOST:PORT",
      description =
          "create the instances over the REST API (/v2) instead of gRPC; the worker stays on"
              + " gRPC. Local brokers: node 0's REST port. With --gateway: HOST:PORT, or the"
              + " gateway's host on port 8080")
  String rest;

  /** With --rest and --gateway: the REST API's HOST:PORT (local brokers: known once started). */
  String restAddress;

  @Option(
      names = "--flush",
      defaultValue = "sync",
      paramLabel = "MODE",
      description = "the local brokers' raft.flush.mode (default ${DEFAULT-VALUE})")
  String flushMode;

  @Option(
      names = "--brokers",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "launch N local brokers, one process each, and use node 0's gateway (default 1: one"
              + " broker inside this process)")
  int brokers;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description = "partitions of the local brokers (default: N)")
  Integer partitions;

  @Option(
      names = "--replication",
      paramLabel = "N",
      description = "replicas of each partition (default: N, at most 3)")
  Integer replication;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description =
          "a configuration key of the local brokers, e.g. --set backpressure.enabled=false"
              + " (repeatable)")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = "--dir",
      paramLabel = "PATH",
      defaultValue = "target",
      description = "where the local brokers' data goes (default ${DEFAULT-VALUE})")
  Path dataParentDir;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "JSON results (default load-benchmark.json next to the jar)")
  Path jsonOut;

  @Option(
      names = "--chart",
      paramLabel = "FILE",
      description = "PNG chart of the run's seconds (default: --out with .png)")
  Path chartOut;

  @Mixin OAuthOptions oauth = new OAuthOptions();

  @Option(
      names = "--tls",
      arity = "0..1",
      fallbackValue = "",
      paramLabel = "CA_FILE",
      description =
          "TLS to the gateway. Local brokers: a throwaway CA in the run's directory signs their"
              + " certificates, and they serve gateway TLS and cluster TLS (network.security.*)"
              + " with them. With --gateway: the PEM file of the CA the gateway's certificate"
              + " leads to")
  String tls;

  /** With --tls: the CA the client trusts; local brokers make theirs when they start. */
  Path tlsCaFile;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  boolean help;

  /**
   * The options of {@code args}; null if only help was asked for (it is printed).
   *
   * @throws IllegalArgumentException naming what is wrong, with the usage
   */
  static LoadOptions parse(String[] args) {
    return CommandLines.parse(
        new LoadOptions(),
        args,
        options -> {
          options.complete();
          return options;
        });
  }

  private void complete() {
    withResult = onOff("--with-result", withResultOnOff);
    streaming = onOff("--streaming", streamingOnOff);
    if (quick) {
      warmupSeconds = 3;
      durationSeconds = 8;
    }
    if (jsonOut == null) {
      jsonOut = BenchmarkFiles.defaultJsonOut("load-benchmark.json");
    }
    if (chartOut == null) {
      String name = jsonOut.getFileName().toString().replaceFirst("\\.json$", "");
      chartOut = jsonOut.resolveSibling(name + ".png");
    }
    if (inFlight < 1 || tasks < 1 || durationSeconds < 1 || workerCapacity < 1) {
      throw new IllegalArgumentException(
          "--in-flight, --tasks, --capacity and --duration must be positive");
    }
    if (payloadBytes < 0 || completionDelayMs < 0 || backoffMs < 0 || warmupSeconds < 0) {
      throw new IllegalArgumentException(
          "--payload, --completion-delay, --backoff and --warmup must be at least 0");
    }
    if (requestTimeoutSeconds < 1) {
      throw new IllegalArgumentException("--request-timeout must be at least 1 second");
    }
    if (rate != null && !(rate > 0)) {
      throw new IllegalArgumentException("--rate must be positive");
    }
    if (brokers < 1) {
      throw new IllegalArgumentException("--brokers must be at least 1");
    }
    partitions = partitions == null ? brokers : partitions;
    replication = replication == null ? Math.min(3, brokers) : replication;
    if (partitions < 1 || replication < 1 || replication > brokers) {
      throw new IllegalArgumentException(
          "--partitions must be positive and --replication from 1 to --brokers");
    }
    if (gateway != null && (brokers > 1 || !settings.isEmpty())) {
      throw new IllegalArgumentException(
          "--brokers and --set configure local brokers; not with --gateway");
    }
    if (gateway == null && !management.isEmpty()) {
      throw new IllegalArgumentException("--management goes with --gateway");
    }
    // Read the secret now, so that a missing one is said before brokers start.
    oauth.check(System.getenv());
    if (oauth.enabled()
        && gateway == null
        && !environment()
            .containsKey(BrokerConfigLoader.environmentVariable(AUTHENTICATION_MODE))) {
      // Else the local gateway takes the tokens and checks none: a secured run that is not.
      throw new IllegalArgumentException(
          "--oauth with local brokers needs --set "
              + AUTHENTICATION_MODE
              + "=oauth and --set gateway.security.authentication.oauth.issuerUri=ISSUER (the"
              + " benchmark runs no issuer of its own)");
    }
    completeTls();
    completeRest();
  }

  private void completeRest() {
    if (rest == null) {
      return;
    }
    if (gateway == null) {
      if (!rest.isEmpty()) {
        throw new IllegalArgumentException(
            "--rest HOST:PORT goes with --gateway; local brokers' REST port is known (--rest"
                + " alone)");
      }
      return;
    }
    restAddress = rest.isEmpty() ? gateway.replaceFirst(":[^:]*$", "") + ":8080" : rest;
    int colon = restAddress.lastIndexOf(':');
    if (colon < 1 || !restAddress.substring(colon + 1).matches("[0-9]{1,5}")) {
      throw new IllegalArgumentException("--rest takes HOST:PORT, not " + rest);
    }
  }

  /** Whether the instances are created over REST. */
  boolean rest() {
    return rest != null;
  }

  private void completeTls() {
    if (tls == null) {
      return;
    }
    if (gateway == null && !tls.isEmpty()) {
      throw new IllegalArgumentException(
          "--tls CA_FILE goes with --gateway; local brokers get a CA of their own (--tls alone)");
    }
    if (gateway != null) {
      if (tls.isEmpty()) {
        throw new IllegalArgumentException(
            "--tls with --gateway needs the CA file the gateway's certificate leads to: --tls"
                + " CA_FILE");
      }
      tlsCaFile = Path.of(tls);
      if (!Files.isReadable(tlsCaFile)) {
        throw new IllegalArgumentException("--tls: cannot read the CA file " + tlsCaFile);
      }
    }
  }

  /** Whether the client speaks TLS to the gateway (and local brokers serve it). */
  boolean tls() {
    return tls != null;
  }

  private static boolean onOff(String option, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new IllegalArgumentException(option + " takes on or off, not " + value);
    };
  }

  /** The local brokers' extra settings as {@code TERN_*} environment variables. */
  Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>();
    settings.forEach(
        (key, value) -> environment.put(BrokerConfigLoader.environmentVariable(key), value));
    return environment;
  }

  boolean openLoop() {
    return rate != null;
  }

  Duration warmup() {
    return Duration.ofSeconds(warmupSeconds);
  }

  Duration duration() {
    return Duration.ofSeconds(durationSeconds);
  }

  LoadDriver.Workload workload() {
    return new LoadDriver.Workload(
            tasks,
            payloadBytes,
            withResult,
            streaming,
            workerCapacity,
            Duration.ofMillis(completionDelayMs),
            Duration.ofSeconds(requestTimeoutSeconds))
        .overRest(rest());
  }
}
