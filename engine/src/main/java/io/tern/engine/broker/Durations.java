package io.tern.engine.broker;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people write them, in configuration files and on command lines alike: a number with
 * ms, s, m, h or d ({@code 50ms}, {@code 10s}, {@code 1.5h}, {@code 7d}), ISO-8601 ({@code PT10S}),
 * or {@code 0}. The one parser of the broker's configuration and the benchmarks' options, so that
 * both accept the same text.
 */
public final class Durations {
  private static final Pattern NUMBER_AND_UNIT =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)");

  /** What {@link #parse} accepts, for error messages. */
  public static final String EXPECTED =
      "a number and ms, s, m, h or d (500ms, 10s, 1.5h, 7d), PT10S or 0";

  private Durations() {}

  /**
   * Parses {@code text}; fractions of a millisecond are rounded.
   *
   * @throws IllegalArgumentException naming the text, if it is no duration or a negative one
   */
  public static Duration parse(String text) {
    String trimmed = text.strip().toLowerCase(Locale.ROOT);
    if (trimmed.equals("0")) {
      return Duration.ZERO;
    }
    if (trimmed.startsWith("p")) {
      return nonNegative(text, iso(text, trimmed));
    }
    Matcher matcher = NUMBER_AND_UNIT.matcher(trimmed);
    if (!matcher.matches()) {
      throw notADuration(text);
    }
    long millisPerUnit =
        switch (matcher.group(2)) {
          case "ms" -> 1;
          case "s" -> 1_000;
          case "m" -> 60_000;
          case "h" -> 3_600_000;
          default -> 86_400_000;
        };
    try {
      BigDecimal millis =
          new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(millisPerUnit));
      return Duration.ofMillis(millis.setScale(0, RoundingMode.HALF_UP).longValueExact());
    } catch (ArithmeticException e) {
      throw notADuration(text);
    }
  }

  private static Duration iso(String text, String trimmed) {
    try {
      return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException e) {
      throw notADuration(text);
    }
  }

  private static Duration nonNegative(String text, Duration duration) {
    if (duration.isNegative()) {
      throw notADuration(text);
    }
    return duration;
  }

  private static IllegalArgumentException notADuration(String text) {
    return new IllegalArgumentException("'" + text + "' is not a duration: " + EXPECTED);
  }
}
