package io.tern.engine.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A broker in a child process of this JVM (its java and class path), configured by {@code TERN_*}
 * settings: for local clusters in benchmarks and for tests that kill a broker with SIGKILL. Brokers
 * in their own processes share no heap, garbage collector or JIT, as on separate machines.
 */
public final class BrokerProcess {
  /**
   * How long the exit of this JVM waits for its brokers to stop gracefully before killing them: a
   * broker closes its partitions in a second or two, and Ctrl-C should not hang.
   */
  private static final Duration STOP_ON_EXIT_GRACE = Duration.ofSeconds(10);

  /**
   * Brokers this JVM started. When it exits (Ctrl-C, SIGTERM, the end of main) it stops those still
   * running, so an interrupted benchmark or chaos run leaves no broker behind holding ports and
   * data. A SIGKILL of this JVM cannot be caught: its brokers then stay.
   */
  private static final Set<Process> STARTED = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(BrokerProcess::stopStarted, "stop-child-brokers"));
  }

  /**
   * A system property with JVM options for every broker process started here (split at spaces),
   * before the caller's own: e.g. {@code -XX:TieredStopAtLevel=1} for the many short-lived brokers
   * of the test suite, where compiling with C2 costs more CPU than the brokers run for.
   */
  public static final String JVM_OPTIONS_PROPERTY = "tern.brokerProcess.jvmOptions";

  private BrokerProcess() {}

  private static void stopStarted() {
    List<Process> alive = STARTED.stream().filter(Process::isAlive).toList();
    alive.forEach(Process::destroy);
    long deadline = System.nanoTime() + STOP_ON_EXIT_GRACE.toNanos();
    for (Process broker : alive) {
      try {
        long leftNs = deadline - System.nanoTime();
        if (leftNs <= 0 || !broker.waitFor(leftNs, TimeUnit.NANOSECONDS)) {
          broker.destroyForcibly();
        }
      } catch (InterruptedException e) {
        broker.destroyForcibly();
      }
    }
  }

  /**
   * Starts {@code BrokerMain} with exactly {@code settings} as its {@code TERN_*} environment
   * (inherited ones are dropped), its output appended to {@code log}.
   */
  public static Process start(Map<String, String> settings, Path log, String... jvmOptions)
      throws IOException {
    return start(BrokerMain.class, settings, log, jvmOptions);
  }

  /**
   * Starts {@code GatewayMain}, a standalone gateway, the same way as {@link #start} a broker: for
   * benchmarks that put the client on a gateway of its own rather than on a broker's. It is ready
   * ({@link #awaitReady} on its management port) once every partition has a known leader.
   */
  public static Process startGateway(Map<String, String> settings, Path log) throws IOException {
    return start(GatewayMain.class, settings, log);
  }

  private static Process start(
      Class<?> main, Map<String, String> settings, Path log, String... jvmOptions)
      throws IOException {
    java.util.List<String> command = new java.util.ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--add-exports");
    command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
    String extra = System.getProperty(JVM_OPTIONS_PROPERTY, "").strip();
    if (!extra.isEmpty()) {
      command.addAll(java.util.List.of(extra.split("\\s+")));
    }
    command.addAll(java.util.List.of(jvmOptions));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(key -> key.startsWith("TERN_"));
    env.putAll(settings);
    Files.createDirectories(log.toAbsolutePath().getParent());
    builder
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Process broker = builder.start();
    STARTED.add(broker);
    broker.onExit().thenRun(() -> STARTED.remove(broker));
    return broker;
  }

  /**
   * Waits until the broker's management server answers ready; throws if it exits or {@code timeout}
   * passes, with the last answer and where its log is.
   */
  public static void awaitReady(Process broker, int managementPort, Path log, Duration timeout)
      throws InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    URI readiness = URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness");
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!broker.isAlive()) {
        throw new IllegalStateException(
            "the broker exited with " + broker.exitValue() + "; see " + log);
      }
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(readiness).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 200) {
          return;
        }
        last = answer.body();
      } catch (IOException notListeningYet) {
        last = notListeningYet.toString();
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "the broker is not ready after " + timeout + ": " + last + "; see " + log);
  }

  /** A TCP port free on this machine now (a race with other processes is possible but rare). */
  public static int freePort() {
    return freePorts(1)[0];
  }

  /**
   * {@code count} distinct TCP ports free on this machine now, chosen below the system's range of
   * ephemeral ports: a port from that range can be taken by any outgoing connection (another
   * broker's, connecting to its peers) between the choice and the broker's bind, and a broker whose
   * port is taken stops. They are held open together until all are chosen: ports picked one at a
   * time can repeat.
   */
  public static int[] freePorts(int count) {
    int below = firstEphemeralPort();
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      int[] ports = new int[count];
      java.util.Random random = new java.util.Random();
      for (int i = 0; i < count; i++) {
        ServerSocket socket = null;
        for (int attempt = 0; socket == null; attempt++) {
          int port = LOWEST_CHOSEN_PORT + random.nextInt(below - LOWEST_CHOSEN_PORT);
          try {
            socket = new ServerSocket(port);
          } catch (IOException taken) {
            if (attempt > 1_000) {
              throw new UncheckedIOException("no free port below " + below, taken);
            }
          }
        }
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException e) {
          // nothing bound any more is all that matters
        }
      }
    }
  }

  /** Ports chosen by {@link #freePorts} are at least this (below: well-known services). */
  private static final int LOWEST_CHOSEN_PORT = 10_000;

  /** The first port of Linux's ephemeral range (32768 by default and where it cannot be read). */
  private static int firstEphemeralPort() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip();
      int first = Integer.parseInt(range.split("\\s+")[0]);
      return first > LOWEST_CHOSEN_PORT + 1_000 ? first : 32_768;
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }
}
