package io.tern.benchmark.soak;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;

/** Durations on the command line as people write them: 50ms, 10s, 5m, 2h, 7d, or 0. */
public final class Durations implements ITypeConverter<Duration> {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d)");

  @Override
  public Duration convert(String text) {
    return parse(text);
  }

  public static Duration parse(String text) {
    String trimmed = text.strip().toLowerCase(Locale.ROOT);
    if (trimmed.equals("0")) {
      return Duration.ZERO;
    }
    Matcher matcher = DURATION.matcher(trimmed);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration: a number and ms, s, m, h or d (50ms, 10s, 7d), or 0");
    }
    double amount = Double.parseDouble(matcher.group(1));
    double millis =
        amount
            * switch (matcher.group(2)) {
              case "ms" -> 1;
              case "s" -> 1_000;
              case "m" -> 60_000;
              case "h" -> 3_600_000;
              default -> 86_400_000;
            };
    return Duration.ofMillis(Math.round(millis));
  }
}
