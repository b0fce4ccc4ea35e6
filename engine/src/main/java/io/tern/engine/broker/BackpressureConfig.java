package io.tern.engine.broker;

import java.time.Duration;

/**
 * Backpressure on each partition's command intake (netflix concurrency-limits).
 *
 * @param algorithm {@code aimd} (additive increase, multiplicative decrease on a slow or dropped
 *     request), {@code vegas} (from the queueing delay it infers), or {@code fixed}
 * @param aimdRequestTimeout for aimd: an answer slower than this counts as an overload signal
 */
public record BackpressureConfig(
    boolean enabled,
    String algorithm,
    int aimdInitialLimit,
    int aimdMinLimit,
    int aimdMaxLimit,
    Duration aimdRequestTimeout,
    double aimdBackoffRatio,
    int vegasInitialLimit,
    int vegasAlpha,
    int vegasBeta,
    int fixedLimit) {

  static BackpressureConfig from(BrokerConfigLoader.Values values) {
    String algorithm = values.text("backpressure.algorithm").toLowerCase(java.util.Locale.ROOT);
    if (!algorithm.equals("aimd") && !algorithm.equals("vegas") && !algorithm.equals("fixed")) {
      values.bad("backpressure.algorithm", "aimd, vegas or fixed");
    }
    int min = values.integer("backpressure.aimd.minLimit", 1, 1_000_000);
    int max = values.integer("backpressure.aimd.maxLimit", 1, 1_000_000);
    int initial = values.integer("backpressure.aimd.initialLimit", 1, 1_000_000);
    if (min > initial || initial > max) {
      values.bad(
          "backpressure.aimd.initialLimit",
          "between backpressure.aimd.minLimit (" + min + ") and maxLimit (" + max + ")");
    }
    double ratio = values.decimal("backpressure.aimd.backoffRatio");
    if (!(ratio >= 0.5 && ratio < 1.0)) {
      values.bad("backpressure.aimd.backoffRatio", "at least 0.5 and below 1");
    }
    int alpha = values.integer("backpressure.vegas.alpha", 1, 1000);
    int beta = values.integer("backpressure.vegas.beta", 1, 1000);
    if (beta <= alpha) {
      values.bad("backpressure.vegas.beta", "above backpressure.vegas.alpha (" + alpha + ")");
    }
    return new BackpressureConfig(
        values.bool("backpressure.enabled"),
        algorithm,
        initial,
        min,
        max,
        values.duration("backpressure.aimd.requestTimeout"),
        ratio,
        values.integer("backpressure.vegas.initialLimit", 1, 1_000_000),
        alpha,
        beta,
        values.integer("backpressure.fixed.limit", 1, 1_000_000));
  }
}
