package io.tern.benchmark.common;

/** Timestamped progress lines, so that a long run shows where it is and how long steps take. */
public final class Progress {
  private final long startNs = System.nanoTime();

  public void log(String format, Object... args) {
    double elapsedS = (System.nanoTime() - startNs) / 1e9;
    System.out.printf("[%6.1f s] %s%n", elapsedS, String.format(format, args));
    System.out.flush();
  }
}
