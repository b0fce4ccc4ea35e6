package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The partition's AIMD limit: how stalls, overload, outliers and calm move it. */
class WindowedAimdLimitTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long TIMEOUT = 200 * MS;
  private static final int WINDOW = WindowedAimdLimit.WINDOW_COMMANDS;

  private final WindowedAimdLimit limit = new WindowedAimdLimit(100, 1, 1000, 0.9, TIMEOUT);

  /**
   * One window's worth of commands admitted from {@code startMs}, 1 ms apart, each answered after
   * {@code rttMs} but {@code slow} of them after 300 ms; returns when the last was answered.
   */
  private long window(WindowedAimdLimit into, long startMs, long rttMs, int slow, int inFlight) {
    long lastAnsweredMs = 0;
    for (int i = 0; i < WINDOW; i++) {
      long rtt = i < slow ? 300 : rttMs;
      into.onSample((startMs + i) * MS, rtt * MS, inFlight, false);
      lastAnsweredMs = Math.max(lastAnsweredMs, startMs + i + rtt);
    }
    return lastAnsweredMs;
  }

  @Test
  void oneStallOfEveryCommandInFlightLowersTheLimitOnce() {
    // 64 commands admitted within 8 ms, all held up by one 600 ms stall.
    for (int i = 0; i < 64; i++) {
      limit.onSample(1_000 * MS + i * MS / 8, 600 * MS, 64, false);
    }
    assertThat(limit.getLimit()).isEqualTo(90);

    window(limit, 2_000, 5, 0, 10); // the next window is fast again
    assertThat(limit.getLimit()).isEqualTo(91);
  }

  @Test
  void sustainedOverloadLowersItOnceAWindowAndFastCommandsDoNotOutweighIt() {
    long now = window(limit, 0, 300, WINDOW, 100); // every command slow
    assertThat(limit.getLimit()).isEqualTo(90);
    // Commands admitted before that decision (still under the old limit) do not count.
    for (int i = 0; i < 50; i++) {
      limit.onSample(i * MS, 5 * MS, 100, false);
    }
    assertThat(limit.getLimit()).isEqualTo(90);

    now = window(limit, now + 1, 300, 5, 90); // half slow, half fast
    assertThat(limit.getLimit()).isEqualTo(81);
    window(limit, now + 1, 300, 2, 81);
    assertThat(limit.getLimit()).as("two slow in ten is congested").isEqualTo(72);
  }

  @Test
  void oneSlowCommandPerWindowIsTolerated() {
    long now = 0;
    for (int i = 0; i < 100; i++) {
      now = window(limit, now + 1, 5, 1, 10) + 1;
    }
    assertThat(limit.getLimit()).isEqualTo(100);
  }

  @Test
  void belowTheInitialLimitEveryCalmWindowAddsOneAboveItOnlyABusyOne() {
    long now = window(limit, 0, 300, WINDOW, 1);
    assertThat(limit.getLimit()).isEqualTo(90);
    for (int i = 0; i < 20; i++) {
      now = window(limit, now + 1, 5, 0, 1); // a light load, all fast
    }
    assertThat(limit.getLimit()).as("back to the initial limit, no further").isEqualTo(100);

    window(limit, now + 1, 5, 0, 50); // half the window in use
    assertThat(limit.getLimit()).isEqualTo(101);
  }

  @Test
  void itStaysWithinItsBounds() {
    WindowedAimdLimit small = new WindowedAimdLimit(2, 1, 3, 0.5, TIMEOUT);
    long now = 0;
    for (int i = 0; i < 5; i++) {
      now = window(small, now + 1, 300, WINDOW, 1);
    }
    assertThat(small.getLimit()).isEqualTo(1);
    for (int i = 0; i < 5; i++) {
      now = window(small, now + 1, 5, 0, 3);
    }
    assertThat(small.getLimit()).isEqualTo(3);
  }

  @Test
  void impossibleSettingsAreRefused() {
    assertThatThrownBy(() -> new WindowedAimdLimit(10, 20, 100, 0.9, TIMEOUT))
        .hasMessageContaining("1 <= min <= initial <= max");
    assertThatThrownBy(() -> new WindowedAimdLimit(10, 1, 100, 1.0, TIMEOUT))
        .hasMessageContaining("backoff ratio");
  }
}
