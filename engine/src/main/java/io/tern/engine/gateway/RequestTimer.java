package io.tern.engine.gateway;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Each gateway call's time, from its arrival to its answer, by method and gRPC status code: {@code
 * tern.gateway.request.latency}. It is the outermost interceptor, so calls refused by the
 * authentication count too. A stream's time is its lifetime (StreamActivatedJobs lives as long as
 * its worker; ActivateJobs as long as its long poll).
 */
final class RequestTimer implements ServerInterceptor {
  static final String NAME = "tern.gateway.request.latency";

  private static final int CODES = Status.Code.values().length;

  private final MeterRegistry registry;

  /** By full method name, then by status code (its ordinal): made on first use, then reused. */
  private final ConcurrentHashMap<String, AtomicReferenceArray<Timer>> timers =
      new ConcurrentHashMap<>();

  RequestTimer(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    long startNs = System.nanoTime();
    MethodDescriptor<Q, A> method = call.getMethodDescriptor();
    return next.startCall(
        new SimpleForwardingServerCall<>(call) {
          @Override
          public void close(Status status, Metadata trailers) {
            timer(method, status.getCode())
                .record(System.nanoTime() - startNs, TimeUnit.NANOSECONDS);
            super.close(status, trailers);
          }
        },
        headers);
  }

  private Timer timer(MethodDescriptor<?, ?> method, Status.Code code) {
    AtomicReferenceArray<Timer> byCode =
        timers.computeIfAbsent(method.getFullMethodName(), m -> new AtomicReferenceArray<>(CODES));
    Timer timer = byCode.get(code.ordinal());
    if (timer == null) {
      timer =
          Timer.builder(NAME)
              .description("a gateway call, from its arrival to its answer")
              .tag("method", method.getBareMethodName())
              .tag("code", code.name())
              .publishPercentileHistogram()
              .minimumExpectedValue(Duration.ofNanos(100_000))
              .maximumExpectedValue(Duration.ofSeconds(30))
              .register(registry);
      byCode.set(code.ordinal(), timer);
    }
    return timer;
  }
}
