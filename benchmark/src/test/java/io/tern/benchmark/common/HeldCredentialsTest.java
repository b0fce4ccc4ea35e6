package io.tern.benchmark.common;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CredentialsProvider;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeldCredentialsTest {
  private final AtomicLong nowNs = new AtomicLong();
  private final AtomicInteger asked = new AtomicInteger();

  /** Hands out "Bearer token-N" for the N-th time it is asked; refuses retries after a 401. */
  private final CredentialsProvider official =
      new CredentialsProvider() {
        @Override
        public void applyCredentials(CredentialsApplier applier) {
          applier.put("Authorization", "Bearer token-" + asked.incrementAndGet());
        }

        @Override
        public boolean shouldRetryRequest(StatusCode statusCode) {
          return statusCode.isUnauthorized();
        }
      };

  private final HeldCredentials held = new HeldCredentials(official, nowNs::get);

  private String authorization() throws Exception {
    Map<String, String> headers = new HashMap<>();
    held.applyCredentials(headers::put);
    return headers.get("Authorization");
  }

  @Test
  void theOfficialProviderIsAskedOncePerHold() throws Exception {
    for (int call = 0; call < 1_000; call++) {
      assertThat(authorization()).isEqualTo("Bearer token-1");
    }
    assertThat(asked).hasValue(1);

    nowNs.addAndGet(HeldCredentials.HOLD.toNanos() - 1);
    assertThat(authorization()).isEqualTo("Bearer token-1");
    nowNs.addAndGet(1);
    assertThat(authorization()).as("asked again after the hold").isEqualTo("Bearer token-2");
    assertThat(asked).hasValue(2);
  }

  @Test
  void aRefusedCallDropsTheHeldToken() throws Exception {
    assertThat(authorization()).isEqualTo("Bearer token-1");
    assertThat(held.shouldRetryRequest(status(503, false))).isFalse();
    assertThat(authorization()).as("kept after an unrelated failure").isEqualTo("Bearer token-1");

    assertThat(held.shouldRetryRequest(status(401, true))).isTrue();
    assertThat(authorization()).as("asked again at once").isEqualTo("Bearer token-2");
  }

  private static CredentialsProvider.StatusCode status(int code, boolean unauthorized) {
    return new CredentialsProvider.StatusCode() {
      @Override
      public int code() {
        return code;
      }

      @Override
      public boolean isUnauthorized() {
        return unauthorized;
      }
    };
  }
}
