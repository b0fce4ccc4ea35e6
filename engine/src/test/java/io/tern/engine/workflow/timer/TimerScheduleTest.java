package io.tern.engine.workflow.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.workflow.timer.TimerSchedule.Schedule;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimerScheduleTest {
  private static final long NOW_MS = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
  private final TimerSchedule schedules = new TimerSchedule();

  private Schedule evaluate(TimerKind kind, String expression, Map<String, String> variables) {
    return schedules.evaluate(
        kind,
        expression,
        () -> {
          Map<String, byte[]> json = new java.util.LinkedHashMap<>();
          variables.forEach((k, v) -> json.put(k, v.getBytes(StandardCharsets.UTF_8)));
          return json;
        },
        NOW_MS);
  }

  private Schedule evaluate(TimerKind kind, String expression) {
    return evaluate(kind, expression, Map.of());
  }

  @Test
  void durationsArePeriodsOrTimesOrBoth() {
    assertThat(evaluate(TimerKind.DURATION, "PT10S"))
        .isEqualTo(new Schedule(NOW_MS + 10_000, 1, -1));
    assertThat(evaluate(TimerKind.DURATION, "PT0.5S").dueDateMs()).isEqualTo(NOW_MS + 500);
    assertThat(evaluate(TimerKind.DURATION, "P1D").dueDateMs()).isEqualTo(NOW_MS + 86_400_000);
    assertThat(evaluate(TimerKind.DURATION, "P1DT2H").dueDateMs())
        .isEqualTo(NOW_MS + 86_400_000 + 7_200_000);
    assertThat(evaluate(TimerKind.DURATION, "P1M").dueDateMs())
        .isEqualTo(Instant.parse("2026-12-22T10:00:00Z").toEpochMilli());
  }

  @Test
  void datesNeedAnOffsetOrAZone() {
    assertThat(evaluate(TimerKind.DATE, "2026-11-22T12:00:00+01:00").dueDateMs())
        .isEqualTo(Instant.parse("2026-11-22T11:00:00Z").toEpochMilli());
    assertThat(evaluate(TimerKind.DATE, "2026-11-22T12:00:00@Europe/Berlin").dueDateMs())
        .isEqualTo(Instant.parse("2026-11-22T11:00:00Z").toEpochMilli());
    assertThatThrownBy(() -> evaluate(TimerKind.DATE, "2026-11-22T12:00:00"))
        .isInstanceOf(TimerSchedule.TimerException.class)
        .hasMessageContaining("'2026-11-22T12:00:00'")
        .hasMessageContaining("offset");
  }

  @Test
  void cyclesCountRepetitionsAndMayStartAtADate() {
    assertThat(evaluate(TimerKind.CYCLE, "R5/PT10S"))
        .isEqualTo(new Schedule(NOW_MS + 10_000, 5, 10_000));
    assertThat(evaluate(TimerKind.CYCLE, "R/PT1M"))
        .isEqualTo(new Schedule(NOW_MS + 60_000, -1, 60_000));
    assertThat(evaluate(TimerKind.CYCLE, "R3/2026-11-23T00:00:00Z/PT1H"))
        .isEqualTo(
            new Schedule(Instant.parse("2026-11-23T00:00:00Z").toEpochMilli(), 3, 3_600_000));
  }

  @Test
  void malformedTimersNameTheTextAndTheProblem() {
    assertThatThrownBy(() -> TimerSchedule.check(TimerKind.DURATION, "PT10X"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'PT10X' is not an ISO 8601 duration");
    assertThatThrownBy(() -> TimerSchedule.check(TimerKind.CYCLE, "PT10S"))
        .hasMessageContaining("repeating interval");
    assertThatThrownBy(() -> TimerSchedule.check(TimerKind.CYCLE, "R0/PT10S"))
        .hasMessageContaining("at least one repetition");
    assertThatThrownBy(() -> TimerSchedule.check(TimerKind.CYCLE, "R2/PT0S"))
        .hasMessageContaining("must be positive");
    assertThatThrownBy(() -> TimerSchedule.check(TimerKind.CYCLE, "0 0 9 * * FUNDAY"))
        .hasMessageContaining("'0 0 9 * * FUNDAY' is not a valid cron expression");
  }

  @Test
  void cronCyclesFireWhenTheExpressionMatchesInUtcWithoutEnd() {
    // 2026-11-22 is a Sunday: the next weekday 09:00 is Monday's.
    long monday9 = Instant.parse("2026-11-23T09:00:00Z").toEpochMilli();
    Schedule weekdays = evaluate(TimerKind.CYCLE, "0 0 9 * * MON-FRI");
    assertThat(weekdays).isEqualTo(new Schedule(monday9, -1, TimerSchedule.CRON_INTERVAL));
    assertThat(TimerSchedule.nextDue("0 0 9 * * MON-FRI", weekdays.intervalMs(), monday9))
        .isEqualTo(monday9 + 86_400_000);
    assertThat(evaluate(TimerKind.CYCLE, "0 15 * * * ?").dueDateMs())
        .isEqualTo(NOW_MS + 15 * 60_000);
    assertThat(evaluate(TimerKind.CYCLE, "@daily").dueDateMs())
        .isEqualTo(Instant.parse("2026-11-23T00:00:00Z").toEpochMilli());
    assertThat(TimerSchedule.nextDue("R/PT10S", 10_000, NOW_MS)).isEqualTo(NOW_MS + 10_000);
    assertThatThrownBy(() -> evaluate(TimerKind.CYCLE, "=\"0 0 9 * * MON\""))
        .hasMessageContaining("write cron cycles as text");
  }

  @Test
  void feelGivesDurationsDatesOrTheirText() {
    assertThat(evaluate(TimerKind.DURATION, "=duration(\"PT3S\")").dueDateMs())
        .isEqualTo(NOW_MS + 3_000);
    assertThat(evaluate(TimerKind.DURATION, "=wait", Map.of("wait", "\"PT2S\"")).dueDateMs())
        .isEqualTo(NOW_MS + 2_000);
    assertThat(evaluate(TimerKind.DATE, "=date and time(\"2026-11-22T11:00:00Z\")").dueDateMs())
        .isEqualTo(NOW_MS + 3_600_000);
    assertThat(evaluate(TimerKind.CYCLE, "=\"R2/PT\" + string(n) + \"S\"", Map.of("n", "4")))
        .isEqualTo(new Schedule(NOW_MS + 4_000, 2, 4_000));
    assertThatThrownBy(() -> evaluate(TimerKind.DURATION, "=missing"))
        .isInstanceOf(TimerSchedule.TimerException.class)
        .hasMessageContaining("'=missing'");
    assertThatThrownBy(() -> evaluate(TimerKind.DURATION, "=42"))
        .hasMessageContaining("must give a duration");
  }
}
