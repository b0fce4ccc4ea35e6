package io.tern.benchmark.common;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What code prints on standard output and standard error, for tests of usage and help. */
public record CapturedOutput<T>(T result, String out, String err) {

  /** Code to run while the output is captured. */
  @FunctionalInterface
  public interface Body<T> {
    T run() throws Exception;
  }

  /** Runs {@code body} with standard output and error captured. */
  public static <T> CapturedOutput<T> of(Body<T> body) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      T result = body.run();
      return new CapturedOutput<>(
          result,
          outBytes.toString(StandardCharsets.UTF_8),
          errBytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }
}
