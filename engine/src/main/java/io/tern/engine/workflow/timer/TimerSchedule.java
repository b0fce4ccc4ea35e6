package io.tern.engine.workflow.timer;

import io.tern.engine.workflow.feel.FeelBudget;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.feel.api.EvaluationResult;
import org.camunda.feel.api.FeelEngineApi;
import org.springframework.scheduling.support.CronExpression;

/**
 * When a timer fires: Zeebe's timer definitions, read as ISO 8601 text ({@code PT10S}, {@code
 * 2026-11-22T10:00:00Z}, {@code R5/PT10S}, {@code R/2026-11-22T10:00:00Z/PT1H}), cycles also as
 * cron expressions ({@code 0 0 9 * * MON-FRI}), or evaluated from FEEL (a leading '=') to such text
 * (but a cron) or to a FEEL duration or date-time.
 */
public final class TimerSchedule {
  /**
   * When a timer first fires, how often in all ({@code -1}: without end), and how long between
   * firings ({@code -1} for one firing).
   */
  public record Schedule(long dueDateMs, int repetitions, long intervalMs) {}

  /** The {@code intervalMs} of a cron cycle: its next firing is computed from its expression. */
  public static final long CRON_INTERVAL = -2;

  private static final ZoneOffset UTC = ZoneOffset.UTC;

  /** A timer that cannot be scheduled: the message says which text and what is wrong. */
  public static final class TimerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TimerException(String message) {
      super(message);
    }
  }

  private final FeelEngineApi feel = FeelBudget.newEngine();

  /**
   * Checks static timer text at deployment.
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  public static void check(TimerKind kind, String text) {
    try {
      parse(kind, text, 0);
    } catch (TimerException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * @param variables the variables a FEEL expression sees (asked for only if it is one)
   * @throws TimerException if the expression fails or does not give a timer of this kind
   */
  public Schedule evaluate(
      TimerKind kind, String expression, Supplier<Map<String, byte[]>> variables, long nowMs) {
    String text = expression.strip();
    if (!text.startsWith("=")) {
      return parse(kind, text, nowMs);
    }
    Map<String, Object> context = new LinkedHashMap<>();
    variables.get().forEach((name, json) -> context.put(name, JsonDocuments.toJava(json)));
    EvaluationResult result;
    try {
      result = FeelBudget.evaluate(feel, text.substring(1), context, FeelBudget.DEFAULT_MAX_STEPS);
    } catch (FeelBudget.ExceededException e) {
      throw new TimerException("the expression '" + text + "' was stopped: " + e.getMessage());
    }
    if (!result.isSuccess()) {
      throw new TimerException(
          "the expression '" + text + "' failed: " + result.failure().message());
    }
    Object value = result.result();
    if (value instanceof Duration duration && kind == TimerKind.DURATION) {
      return new Schedule(nowMs + duration.toMillis(), 1, -1);
    }
    if (value instanceof Period period && kind == TimerKind.DURATION) {
      return new Schedule(plus(nowMs, period), 1, -1);
    }
    if (value instanceof ZonedDateTime date && kind == TimerKind.DATE) {
      return new Schedule(date.toInstant().toEpochMilli(), 1, -1);
    }
    if (value instanceof java.time.OffsetDateTime date && kind == TimerKind.DATE) {
      return new Schedule(date.toInstant().toEpochMilli(), 1, -1);
    }
    if (value instanceof String string) {
      Schedule schedule = parse(kind, string, nowMs);
      if (schedule.intervalMs() == CRON_INTERVAL) {
        // Its next firings are computed from the deployed text, which here is the expression.
        throw new TimerException(
            "the expression '" + text + "' gave a cron expression: write cron cycles as text");
      }
      return schedule;
    }
    throw new TimerException(
        "the expression '"
            + text
            + "' must give a "
            + kind.name().toLowerCase()
            + " (or its ISO 8601 text), but gave "
            + (value == null ? "null" : "'" + value + "'"));
  }

  private static Schedule parse(TimerKind kind, String text, long nowMs) {
    String trimmed = text.strip();
    return switch (kind) {
      case DURATION -> new Schedule(plus(nowMs, trimmed), 1, -1);
      case DATE -> new Schedule(date(trimmed), 1, -1);
      case CYCLE -> cycle(trimmed, nowMs);
    };
  }

  /** {@code R<n>/<duration>} or {@code R<n>/<start date>/<duration>}; no n: without end. */
  private static Schedule cycle(String text, long nowMs) {
    String[] parts = text.split("/", -1);
    if ((parts.length != 2 && parts.length != 3) || !parts[0].startsWith("R")) {
      if (text.startsWith("@") || text.split("\\s+").length >= 5) {
        return new Schedule(cronNext(text, nowMs), -1, CRON_INTERVAL);
      }
      throw new TimerException(
          "'"
              + text
              + "' is neither an ISO 8601 repeating interval like R5/PT10S nor a cron expression"
              + " like '0 0 9 * * MON-FRI'");
    }
    int repetitions;
    try {
      repetitions = parts[0].length() == 1 ? -1 : Integer.parseInt(parts[0].substring(1));
    } catch (NumberFormatException e) {
      throw new TimerException("'" + text + "': the repetitions '" + parts[0] + "' are not R<n>");
    }
    if (repetitions == 0 || repetitions < -1) {
      throw new TimerException("'" + text + "': a cycle needs at least one repetition");
    }
    long intervalMs = interval(text, parts[parts.length - 1]);
    long firstMs = parts.length == 3 ? date(parts[1]) : nowMs + intervalMs;
    return new Schedule(firstMs, repetitions, intervalMs);
  }

  /**
   * When a cycle that fired at {@code firedMs} fires next: a cron expression's next time (its
   * {@code intervalMs} is {@link #CRON_INTERVAL}), else one interval later.
   *
   * @param expression the timer's expression as deployed (static, for a cron expression)
   */
  public static long nextDue(String expression, long intervalMs, long firedMs) {
    if (intervalMs == CRON_INTERVAL) {
      return cronNext(expression.strip(), firedMs);
    }
    return firedMs + intervalMs;
  }

  /**
   * The first time after {@code afterMs} that cron expression {@code text} matches, in UTC.
   * Spring's format, as Zeebe's: six fields (second, minute, hour, day of month, month, day of
   * week) or a macro such as {@code @daily}.
   */
  private static long cronNext(String text, long afterMs) {
    CronExpression cron;
    try {
      cron = CronExpression.parse(text);
    } catch (IllegalArgumentException e) {
      throw new TimerException("'" + text + "' is not a valid cron expression: " + e.getMessage());
    }
    ZonedDateTime next = cron.next(ZonedDateTime.ofInstant(Instant.ofEpochMilli(afterMs), UTC));
    if (next == null) {
      throw new TimerException("the cron expression '" + text + "' never matches a future time");
    }
    return next.toInstant().toEpochMilli();
  }

  private static long interval(String text, String duration) {
    long intervalMs = plus(0, duration);
    if (intervalMs <= 0) {
      throw new TimerException("'" + text + "': the interval of a cycle must be positive");
    }
    return intervalMs;
  }

  /** {@code baseMs} plus an ISO 8601 duration ({@code PT1.5S}) or period ({@code P1D}). */
  private static long plus(long baseMs, String duration) {
    try {
      return baseMs + Duration.parse(duration).toMillis();
    } catch (DateTimeParseException e) {
      // not a time-based duration; maybe a period (P1Y2M3D) or one with both (P1DT2H)
    }
    try {
      int time = duration.indexOf('T');
      if (time < 0) {
        return plus(baseMs, Period.parse(duration));
      }
      long withDays = plus(baseMs, Period.parse(duration.substring(0, time)));
      return withDays + Duration.parse("P" + duration.substring(time)).toMillis();
    } catch (DateTimeParseException e) {
      throw new TimerException("'" + duration + "' is not an ISO 8601 duration like PT10S or P1D");
    }
  }

  private static long plus(long baseMs, Period period) {
    return ZonedDateTime.ofInstant(Instant.ofEpochMilli(baseMs), ZoneOffset.UTC)
        .plus(period)
        .toInstant()
        .toEpochMilli();
  }

  /** An ISO 8601 date-time with an offset or zone ({@code 2026-11-22T10:00:00+01:00[...]}). */
  private static long date(String text) {
    try {
      int at = text.indexOf('@'); // FEEL writes a zoned date-time as <local>@<zone id>
      ZonedDateTime date =
          at < 0
              ? ZonedDateTime.parse(text)
              : LocalDateTime.parse(text.substring(0, at))
                  .atZone(ZoneId.of(text.substring(at + 1)));
      return date.toInstant().toEpochMilli();
    } catch (java.time.DateTimeException e) {
      throw new TimerException(
          "'" + text + "' is not an ISO 8601 date-time with an offset, like 2026-11-22T10:00:00Z");
    }
  }
}
