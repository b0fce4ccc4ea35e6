package io.tern.benchmark.soak;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the soak's starter and workers saw, counted from any thread; {@link #interval} turns what
 * happened since its last call into the interval's client signals.
 */
final class ClientStats {
  private static final long MAX_MS = TimeUnit.HOURS.toMillis(1);

  private final LongAdder sent = new LongAdder();
  private final LongAdder started = new LongAdder();
  private final LongAdder completed = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final Recorder pel = new Recorder(MAX_MS, 3);
  private final long[] last = new long[5];
  private Histogram recycled;

  void sent() {
    sent.increment();
  }

  void started() {
    started.increment();
  }

  /** An instance ended {@code latencyMs} after it was sent. */
  void completed(long latencyMs) {
    pel.recordValue(Math.max(0, Math.min(latencyMs, MAX_MS)));
    completed.increment();
  }

  void rejected() {
    rejected.increment();
  }

  void failed() {
    failed.increment();
  }

  long failedSoFar() {
    return failed.sum();
  }

  /** The client signals since the last call, {@code seconds} long (one caller at a time). */
  synchronized Map<String, Double> interval(double seconds) {
    long[] now = {sent.sum(), started.sum(), completed.sum(), rejected.sum(), failed.sum()};
    String[] names = {
      Signals.SENT, Signals.STARTED, Signals.COMPLETED, Signals.REJECTED, Signals.FAILED
    };
    Map<String, Double> signals = new LinkedHashMap<>();
    for (int i = 0; i < now.length; i++) {
      signals.put(names[i], (now[i] - last[i]) / seconds);
      last[i] = now[i];
    }
    Histogram latency = pel.getIntervalHistogram(recycled);
    recycled = latency;
    boolean any = latency.getTotalCount() > 0;
    signals.put(Signals.PEL_P50, any ? latency.getValueAtPercentile(50) : Double.NaN);
    signals.put(Signals.PEL_P90, any ? latency.getValueAtPercentile(90) : Double.NaN);
    signals.put(Signals.PEL_P99, any ? latency.getValueAtPercentile(99) : Double.NaN);
    signals.put(Signals.PEL_MAX, any ? (double) latency.getMaxValue() : Double.NaN);
    return signals;
  }
}
