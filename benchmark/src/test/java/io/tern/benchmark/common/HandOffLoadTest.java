package io.tern.benchmark.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HandOffLoadTest {
  @Test
  void passesTheTokenAtAboutTheRateAndStopsItsThreads() throws Exception {
    HandOffLoad load = HandOffLoad.start(1_000);
    Thread.sleep(300);
    load.close();
    long done = load.roundTrips();

    // Paced: never more than the rate allows (plus the first pass), and it did run. No lower
    // bound near the rate: a loaded CI machine may delay the threads.
    assertThat(done).isBetween(1L, 1_000L * 3 / 10 + 50);
    Thread.sleep(50);
    assertThat(load.roundTrips()).as("no passes after close").isEqualTo(done);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("hand-off-"));
  }

  @Test
  void refusesARateBelowOne() {
    assertThatThrownBy(() -> HandOffLoad.start(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("roundTripsPerS must be >= 1, got 0");
  }
}
