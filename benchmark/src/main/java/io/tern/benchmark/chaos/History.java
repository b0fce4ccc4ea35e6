package io.tern.benchmark.chaos;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The recorded history of a chaos run: every operation in the order its answer arrived, kept in
 * memory for the checker and appended to {@code history.jsonl} as it happens (so a run that dies
 * still leaves what it saw). Thread-safe.
 */
final class History implements AutoCloseable {
  private final long startNs = System.nanoTime();
  private final List<Op> ops = new ArrayList<>();
  private final BufferedWriter out;

  History(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  /** Milliseconds since the run started: the history's clock. */
  long now() {
    return (System.nanoTime() - startNs) / 1_000_000;
  }

  /** Records {@code op}, which started at {@code start} and ends now. */
  Op record(Op op, long start) {
    long end = now();
    synchronized (this) {
      Op recorded = op.withTimes(start, end).withSeq(ops.size() + 1);
      ops.add(recorded);
      try {
        out.write(recorded.toJson());
        out.newLine();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return recorded;
    }
  }

  /** A copy of the operations so far. */
  synchronized List<Op> ops() {
    return List.copyOf(ops);
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
