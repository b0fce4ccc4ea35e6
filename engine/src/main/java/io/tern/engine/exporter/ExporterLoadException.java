package io.tern.engine.exporter;

import java.util.List;

/**
 * Configured exporters that cannot be used: each problem names the exporter's id and what is wrong
 * (the jar, the class, its constructor, or what its {@code configure} threw). The broker does not
 * start.
 */
public final class ExporterLoadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  ExporterLoadException(List<String> problems, Throwable cause) {
    super(
        problems.size() == 1
            ? problems.get(0)
            : "exporters cannot be used:\n- " + String.join("\n- ", problems),
        cause);
    this.problems = List.copyOf(problems);
  }

  /** "exporter 'id': what is wrong", one per exporter that failed. */
  public List<String> problems() {
    return problems;
  }
}
