package io.tern.benchmark.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakLogTest {
  @TempDir Path dir;

  @Test
  void intervalsAreReadBackAsWrittenAndALaterRunAppends() throws Exception {
    try (SoakLog log = SoakLog.append(dir)) {
      log.write(interval(10, 1, 150.0, 42.5));
      log.write(interval(20, 1, 149.0, Double.NaN));
    }
    try (SoakLog log = SoakLog.append(dir)) {
      log.write(interval(95, 2, 151.0, 40.0));
    }

    List<SoakSeries.Interval> intervals = SoakLog.read(dir);
    assertThat(intervals)
        .extracting(SoakSeries.Interval::elapsedS)
        .containsExactly(10.0, 20.0, 95.0);
    assertThat(intervals).extracting(SoakSeries.Interval::segment).containsExactly(1, 1, 2);
    SoakSeries series = SoakSeries.of(intervals);
    assertThat(series.values(Signals.SENT)).containsExactly(150.0, 149.0, 151.0);
    assertThat(series.values(Signals.PEL_P99)[1]).as("missing is NaN").isNaN();
    assertThat(series.values("never.recorded")).containsExactly(Double.NaN, Double.NaN, Double.NaN);
  }

  @Test
  void aLineCutShortByACrashIsSkippedAndTheNextRunStartsOnANewLine() throws Exception {
    try (SoakLog log = SoakLog.append(dir)) {
      log.write(interval(10, 1, 150.0, 42.0));
    }
    Files.writeString(
        dir.resolve(SoakLog.FILE),
        "{\"epochMs\":1,\"elapsedS\":20,\"sig",
        StandardCharsets.UTF_8,
        StandardOpenOption.APPEND);
    try (SoakLog log = SoakLog.append(dir)) {
      log.write(interval(30, 2, 152.0, 41.0));
    }

    assertThat(SoakLog.read(dir))
        .extracting(SoakSeries.Interval::elapsedS)
        .containsExactly(10.0, 30.0);
  }

  private static SoakSeries.Interval interval(
      double elapsedS, int segment, double sent, double p99) {
    Map<String, Double> signals = new LinkedHashMap<>();
    signals.put(Signals.SENT, sent);
    signals.put(Signals.PEL_P99, p99);
    return new SoakSeries.Interval(
        1_700_000_000_000L + (long) (elapsedS * 1000), elapsedS, segment, signals);
  }
}
