package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --oauth: the load benchmark runs against a gateway that needs OAuth tokens. */
@Tag("slow") // the load benchmark end to end, with OAuth: docs/testing.md
class OAuthLoadBenchmarkTest {
  @TempDir Path dir;

  @Test
  void aShortRunWithOAuthCompletesInstances() throws Exception {
    MockOAuth2Server issuer = MockIssuers.start();
    try {
      Path secret = Files.writeString(dir.resolve("secret"), "benchmark-secret\n");
      Path out = dir.resolve("load.json");
      List<String> args =
          new ArrayList<>(
              List.of(
                  "--warmup",
                  "2",
                  "--duration",
                  "3",
                  "--in-flight",
                  "4",
                  "--dir",
                  dir.resolve("data").toString(),
                  "--out",
                  out.toString()));
      args.addAll(MockIssuers.oauthOptions(issuer, secret));
      // The brokers of parallel tests each take a free REST port, not 8080.
      args.addAll(List.of("--set", "gateway.rest.port=0"));
      int exit = LoadBenchmark.run(args.toArray(String[]::new));
      assertThat(exit).as("no instance failed").isZero();
      assertThat(Files.readString(out))
          .contains("\"failedInstances\": 0")
          .doesNotContain("\"completedInstances\": 0,");
    } finally {
      issuer.shutdown();
    }
  }
}
