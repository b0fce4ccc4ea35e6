package io.tern.engine.cluster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Delays every message of the calls on one broker's channel, both ways, by the connection's {@link
 * CallLatency.Delay}: what goes out (the call's start, its messages, its half-close) and what comes
 * back (headers, messages, the close). Each direction of a call stays in order, as on a slow TCP
 * connection: a message is due at the later of its own delay and the previous message's due time.
 * The delays run on a scheduler thread of their own, so no event loop ever waits; flow control and
 * cancellation keep their order without a delay of their own.
 */
final class DelayingInterceptor implements ClientInterceptor {
  private final ScheduledExecutorService scheduler;
  private final Supplier<CallLatency.Delay> delay;

  /**
   * {@code delay}: read for each message, so that a call opened before the connection knew its
   * broker's node id (the first subscription) is delayed from then on.
   */
  DelayingInterceptor(ScheduledExecutorService scheduler, Supplier<CallLatency.Delay> delay) {
    this.scheduler = scheduler;
    this.delay = delay;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    return new DelayedCall<>(next.newCall(method, options));
  }

  /**
   * One direction of one call: a queue of steps, each due no earlier than the one before it, run in
   * order by one drain at a time on the scheduler (the scheduler alone would not keep the order of
   * steps due at the same moment).
   */
  private final class Lane {
    private final ArrayDeque<Step> steps = new ArrayDeque<>();
    private long lastDueNs;
    private boolean scheduled;

    /** Runs {@code step} after the connection's delay, after every earlier step of the lane. */
    void delayed(Runnable step) {
      CallLatency.Delay now = delay.get();
      long jitter =
          now.jitterNs() > 0 ? ThreadLocalRandom.current().nextLong(now.jitterNs() + 1) : 0;
      add(System.nanoTime() + now.delayNs() + jitter, step);
    }

    /** Runs {@code step} as soon as every earlier step of the lane has run. */
    void inOrder(Runnable step) {
      add(System.nanoTime(), step);
    }

    private synchronized void add(long wantedNs, Runnable action) {
      long dueNs = steps.isEmpty() && !scheduled ? wantedNs : Math.max(wantedNs, lastDueNs);
      lastDueNs = dueNs;
      steps.add(new Step(dueNs, action));
      if (!scheduled) {
        scheduleDrain(dueNs);
      }
    }

    private void scheduleDrain(long dueNs) {
      scheduled = true;
      try {
        scheduler.schedule(
            this::drain, Math.max(0, dueNs - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException closing) {
        steps.clear(); // the client is closing: what was still delayed is lost, as on a closed link
        scheduled = false;
      }
    }

    private void drain() {
      while (true) {
        Step next;
        synchronized (this) {
          next = steps.peek();
          if (next == null) {
            scheduled = false;
            return;
          }
          if (next.dueNs - System.nanoTime() > 0) {
            scheduleDrain(next.dueNs);
            return;
          }
          steps.poll();
        }
        next.action.run();
      }
    }
  }

  private record Step(long dueNs, Runnable action) {}

  private final class DelayedCall<Q, R> extends ClientCall<Q, R> {
    private final ClientCall<Q, R> call;
    private final Lane out;
    private final Lane in;

    DelayedCall(ClientCall<Q, R> call) {
      this.call = call;
      this.out = new Lane();
      this.in = new Lane();
    }

    @Override
    public void start(Listener<R> listener, Metadata headers) {
      out.delayed(() -> call.start(new DelayedListener<>(listener, in), headers));
    }

    @Override
    public void request(int numMessages) {
      out.inOrder(() -> call.request(numMessages));
    }

    @Override
    public void cancel(String message, Throwable cause) {
      out.inOrder(() -> call.cancel(message, cause));
    }

    @Override
    public void halfClose() {
      out.delayed(call::halfClose);
    }

    @Override
    public void sendMessage(Q message) {
      out.delayed(() -> call.sendMessage(message));
    }

    @Override
    public boolean isReady() {
      return call.isReady();
    }
  }

  private static final class DelayedListener<R> extends ClientCall.Listener<R> {
    private final ClientCall.Listener<R> listener;
    private final Lane in;

    DelayedListener(ClientCall.Listener<R> listener, Lane in) {
      this.listener = listener;
      this.in = in;
    }

    @Override
    public void onHeaders(Metadata headers) {
      in.delayed(() -> listener.onHeaders(headers));
    }

    @Override
    public void onMessage(R message) {
      in.delayed(() -> listener.onMessage(message));
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      in.delayed(() -> listener.onClose(status, trailers));
    }

    @Override
    public void onReady() {
      in.inOrder(listener::onReady);
    }
  }
}
