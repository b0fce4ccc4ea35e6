package io.tern.benchmark.soak;

/**
 * A least-squares line through a signal over time, and how sure it is: a drift or a leak is judged
 * by the slope fitted over the whole run, never by one point, and only when the slope stands out of
 * the noise around it (its t statistic).
 *
 * @param slopePerS the fitted rise per second
 * @param start the fitted value at the first point
 * @param rise the fitted rise from the first point to the last
 * @param t the slope over its standard error (infinite for a perfect line, 0 for a flat one)
 * @param points the points fitted (NaN ones left out)
 */
record Trend(double slopePerS, double start, double rise, double t, int points) {
  static final Trend NONE = new Trend(0, Double.NaN, 0, 0, 0);

  /** The trend of {@code y} over {@code x} from index {@code from} on, NaNs left out. */
  static Trend fit(double[] x, double[] y, int from) {
    int n = 0;
    double sumX = 0;
    double sumY = 0;
    double minX = Double.POSITIVE_INFINITY;
    double maxX = Double.NEGATIVE_INFINITY;
    for (int i = from; i < y.length; i++) {
      if (Double.isFinite(y[i])) {
        n++;
        sumX += x[i];
        sumY += y[i];
        minX = Math.min(minX, x[i]);
        maxX = Math.max(maxX, x[i]);
      }
    }
    if (n < 3) {
      return NONE;
    }
    double meanX = sumX / n;
    double meanY = sumY / n;
    double sxx = 0;
    double sxy = 0;
    for (int i = from; i < y.length; i++) {
      if (Double.isFinite(y[i])) {
        sxx += (x[i] - meanX) * (x[i] - meanX);
        sxy += (x[i] - meanX) * (y[i] - meanY);
      }
    }
    if (sxx == 0) {
      return NONE;
    }
    double slope = sxy / sxx;
    double intercept = meanY - slope * meanX;
    double residuals = 0;
    for (int i = from; i < y.length; i++) {
      if (Double.isFinite(y[i])) {
        double residual = y[i] - (intercept + slope * x[i]);
        residuals += residual * residual;
      }
    }
    double standardError = Math.sqrt(residuals / (n - 2) / sxx);
    double t =
        standardError == 0
            ? (slope == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, slope))
            : slope / standardError;
    return new Trend(slope, intercept + slope * minX, slope * (maxX - minX), t, n);
  }

  /** The rise as a share of the fitted start (of {@code floor} if the start is below it). */
  double relativeRise(double floor) {
    return rise / Math.max(Math.abs(start), floor);
  }
}
