package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import no.nav.security.mock.oauth2.token.RequestMapping;
import no.nav.security.mock.oauth2.token.RequestMappingTokenCallback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --oauth: the load benchmark runs against a gateway that needs OAuth tokens. */
class OAuthLoadBenchmarkTest {
  @TempDir Path dir;

  @Test
  void aShortRunWithOAuthCompletesInstances() throws Exception {
    // The token endpoint puts the audience the client asks for into aud, as real issuers do.
    MockOAuth2Server issuer =
        new MockOAuth2Server(
            new OAuth2Config(
                false,
                null,
                null,
                false,
                new OAuth2TokenProvider(),
                Set.of(
                    new RequestMappingTokenCallback(
                        "tern",
                        List.of(
                            new RequestMapping(
                                "grant_type",
                                "client_credentials",
                                Map.of("aud", List.of("${audience}"), "sub", "${clientId}"),
                                "JWT")),
                        Duration.ofHours(1).toSeconds()))));
    issuer.start();
    try {
      Path secret = Files.writeString(dir.resolve("secret"), "benchmark-secret\n");
      Path out = dir.resolve("load.json");
      int exit =
          LoadBenchmark.run(
              new String[] {
                "--warmup",
                "2",
                "--duration",
                "3",
                "--in-flight",
                "4",
                "--set",
                "gateway.security.authentication.mode=oauth",
                "--set",
                "gateway.security.authentication.oauth.issuerUri=" + issuer.issuerUrl("tern"),
                "--oauth",
                issuer.tokenEndpointUrl("tern").toString(),
                "--oauth-client-secret-file",
                secret.toString(),
                "--dir",
                dir.resolve("data").toString(),
                "--out",
                out.toString()
              });
      assertThat(exit).as("no instance failed").isZero();
      assertThat(Files.readString(out))
          .contains("\"failedInstances\": 0")
          .doesNotContain("\"completedInstances\": 0,");
    } finally {
      issuer.shutdown();
    }
  }
}
