package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The partition's AIMD limit: how stalls, overload and calm move it. */
class WindowedAimdLimitTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long TIMEOUT = 200 * MS;

  private final WindowedAimdLimit limit = new WindowedAimdLimit(100, 1, 1000, 0.9, TIMEOUT);

  @Test
  void oneStallOfEveryCommandInFlightLowersTheLimitOnce() {
    // 64 commands admitted within 10 ms, all held up by one 600 ms stall.
    for (int i = 0; i < 64; i++) {
      limit.onSample(1_000 * MS + i * MS / 8, 600 * MS, 64, false);
    }
    assertThat(limit.getLimit()).isEqualTo(90);
  }

  @Test
  void sustainedOverloadLowersItOncePerRoundTrip() {
    limit.onSample(0, 300 * MS, 10, false); // decrease; the event lasts until 300 ms
    limit.onSample(100 * MS, 300 * MS, 10, false); // admitted during it: same event
    limit.onSample(250 * MS, 400 * MS, 10, true); // a drop, still admitted during it
    assertThat(limit.getLimit()).isEqualTo(90);

    limit.onSample(301 * MS, 300 * MS, 10, false); // admitted after: a new round trip
    assertThat(limit.getLimit()).isEqualTo(81);
    limit.onSample(602 * MS, 1 * MS, 10, true); // a drop admitted after that one's end
    assertThat(limit.getLimit()).isEqualTo(72);
  }

  @Test
  void belowTheInitialLimitEveryFastCommandAddsOneAboveItOnlyABusyWindowDoes() {
    limit.onSample(0, 300 * MS, 1, false);
    assertThat(limit.getLimit()).isEqualTo(90);
    for (int i = 0; i < 20; i++) {
      limit.onSample(400 * MS + i * MS, 2 * MS, 1, false); // a light load, all fast
    }
    assertThat(limit.getLimit()).as("back to the initial limit, no further").isEqualTo(100);

    limit.onSample(500 * MS, 2 * MS, 50, false); // half the window in use
    assertThat(limit.getLimit()).isEqualTo(101);
  }

  @Test
  void itStaysWithinItsBounds() {
    WindowedAimdLimit small = new WindowedAimdLimit(2, 1, 3, 0.5, TIMEOUT);
    for (int i = 0; i < 10; i++) {
      small.onSample(i * 1_000 * MS, 300 * MS, 1, false);
    }
    assertThat(small.getLimit()).isEqualTo(1);
    for (int i = 0; i < 10; i++) {
      small.onSample(20_000 * MS + i * MS, MS, 3, false);
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
