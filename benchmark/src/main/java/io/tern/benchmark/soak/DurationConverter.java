package io.tern.benchmark.soak;

import io.tern.engine.broker.Durations;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;

/** Durations on the command line, read as the broker reads them in its configuration. */
public final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String text) {
    return Durations.parse(text);
  }
}
