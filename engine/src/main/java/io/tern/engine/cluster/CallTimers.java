package io.tern.engine.cluster;

import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The time of each unary call this process makes on another broker's command API, from its start to
 * its answer, by method, the broker called and the gRPC status code: {@code
 * tern.commandapi.call.latency}. A gateway's forwarded command is one such call, so next to the
 * gateway's own request timer and the leader's Raft commit timer it tells which hop a slow request
 * spent its time on (with cluster TLS: the encryption on both ends of this hop is in it).
 */
final class CallTimers {
  static final String NAME = "tern.commandapi.call.latency";

  /** Nothing timed: a client made without a registry. */
  static final CallTimers NONE = new CallTimers(null);

  private final MeterRegistry registry;

  /** By method, node and code: made on first use, then reused. */
  private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();

  CallTimers(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * Records a call to {@code nodeId} that began at {@code startNs} and ended with {@code error}.
   */
  void record(MethodDescriptor<?, ?> method, int nodeId, long startNs, Throwable error) {
    if (registry == null) {
      return;
    }
    long elapsedNs = System.nanoTime() - startNs;
    Status.Code code = error == null ? Status.Code.OK : Status.fromThrowable(error).getCode();
    String name = method.getBareMethodName();
    timers
        .computeIfAbsent(
            name + '/' + nodeId + '/' + code,
            key ->
                Timer.builder(NAME)
                    .description("a call on another broker's command API, from start to answer")
                    .tag("method", name)
                    .tag("node", Integer.toString(nodeId))
                    .tag("code", code.name())
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(100_000))
                    .maximumExpectedValue(Duration.ofSeconds(30))
                    .register(registry))
        .record(elapsedNs, TimeUnit.NANOSECONDS);
  }
}
