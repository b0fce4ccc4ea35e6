package io.tern.benchmark.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class HandOffLoadTest {
  @Test
  void passesTheTokenAtAboutTheRateAndStopsItsThreads() throws Exception {
    long startNs = System.nanoTime();
    HandOffLoad load = HandOffLoad.start(1_000);
    // A hundred passes, about 0.1 s: the rate is checked over the time the load ran.
    Awaitility.await("a hundred passes")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> load.roundTrips() >= 100);
    load.close();
    long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;
    long done = load.roundTrips();

    // Paced: never more than the rate allows over the time it ran (plus a pass or two of catching
    // up), and it did run. No lower bound near the rate: a loaded CI machine may delay the threads.
    assertThat(done).isBetween(1L, elapsedMs + 5);
    // No pass may come in the 50 ms after close.
    Awaitility.await("no passes after close")
        .during(Duration.ofMillis(50))
        .atMost(Duration.ofSeconds(1))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> load.roundTrips() == done);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("hand-off-"));
  }

  @Test
  void refusesARateBelowOne() {
    assertThatThrownBy(() -> HandOffLoad.start(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("roundTripsPerS must be >= 1, got 0");
  }

  @Test
  void theProbeIsOffUnlessAskedFor() {
    assertThat(System.getProperty(HandOffLoad.PROBE_PROPERTY)).isNull();
    assertThat(HandOffLoad.probeRoundTripsPerS()).isZero();
  }
}
