package io.tern.benchmark.soak;

import java.util.List;

/**
 * One verdict on a soak run: its name (throughput, latency, drift, leak, stability, baseline),
 * whether it passed, one line saying why, and the evidence: the figures behind it, each finding on
 * a line of its own.
 */
record Verdict(String name, boolean passed, String summary, List<String> evidence) {
  static Verdict pass(String name, String summary, List<String> evidence) {
    return new Verdict(name, true, summary, List.copyOf(evidence));
  }

  static Verdict fail(String name, String summary, List<String> evidence) {
    return new Verdict(name, false, summary, List.copyOf(evidence));
  }

  /** "PASS throughput: ..." or "FAIL leak: ...". */
  String line() {
    return (passed ? "PASS " : "FAIL ") + name + ": " + summary;
  }
}
