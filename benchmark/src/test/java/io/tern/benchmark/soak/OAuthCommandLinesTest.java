package io.tern.benchmark.soak;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The starter and worker take the --oauth options the benchmark chart renders with oauth. */
class OAuthCommandLinesTest {
  private static final String[] OAUTH = {
    "--oauth",
    "https://idp.example/token",
    "--oauth-client-id",
    "tern-benchmark",
    "--oauth-audience",
    "zeebe-api"
  };

  private static String[] with(String... first) {
    String[] all = new String[first.length + OAUTH.length];
    System.arraycopy(first, 0, all, 0, first.length);
    System.arraycopy(OAUTH, 0, all, first.length, OAUTH.length);
    return all;
  }

  @Test
  void theStarterAndWorkerReadTheOAuthOptions() {
    assertThatCode(
            () ->
                SoakCommandLines.parse(
                    "starter", with("--gateway", "tern-gateway:26500", "--rate", "10")))
        .doesNotThrowAnyException();
    assertThatCode(
            () ->
                SoakCommandLines.parse(
                    "worker", with("--gateway", "tern-gateway:26500", "--job-type", "t")))
        .doesNotThrowAnyException();
    assertThatThrownBy(
            () ->
                SoakCommandLines.parse(
                    "worker", "--gateway", "tern-gateway:26500", "--oauth-secret", "x"))
        .hasMessageContaining("--oauth-secret");
  }
}
