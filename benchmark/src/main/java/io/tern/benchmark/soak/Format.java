package io.tern.benchmark.soak;

import java.util.Locale;

/** How the soak writes times and figures in its progress, verdicts and report. */
final class Format {
  private Format() {}

  /** "45s", "12m05s", "3h07m", "2d04h". */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }
    if (s < 86_400) {
      return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }
    return String.format(Locale.ROOT, "%dd%02dh", s / 86_400, s % 86_400 / 3600);
  }

  /** A whole number as such, else three significant figures at most: 0.0123, 1.50, 42.5, 1234. */
  static String number(double value) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    if (Math.abs(value) < 1e-9) {
      return "0"; // float noise of a difference, not a figure
    }
    double magnitude = Math.abs(value);
    if (value == Math.rint(value) && magnitude < 1e15) {
      return Long.toString((long) value);
    }
    String pattern =
        magnitude >= 100 ? "%.0f" : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3g";
    return String.format(Locale.ROOT, pattern, value);
  }

  /** A share as a percentage: "3.2%". */
  static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  /** A signed percentage: "+45%", "-3%". */
  static String change(double share) {
    return String.format(Locale.ROOT, "%+.0f%%", share * 100);
  }
}
