package io.tern.benchmark.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import no.nav.security.mock.oauth2.token.RequestMapping;
import no.nav.security.mock.oauth2.token.RequestMappingTokenCallback;

/** An OAuth 2 issuer for the load benchmark's secured runs: the benchmark runs none of its own. */
final class MockIssuers {
  /** The issuer's id: its URLs end in it. */
  static final String ISSUER_ID = "tern";

  private MockIssuers() {}

  /**
   * A started issuer whose token endpoint puts the audience the client asks for into aud, as real
   * issuers do. Shut it down after use.
   */
  static MockOAuth2Server start() {
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
                        ISSUER_ID,
                        List.of(
                            new RequestMapping(
                                "grant_type",
                                "client_credentials",
                                Map.of("aud", List.of("${audience}"), "sub", "${clientId}"),
                                "JWT")),
                        Duration.ofHours(1).toSeconds()))));
    issuer.start();
    // Its first answers load much of the server (Kotlin, Jackson, templates): seconds on a busy
    // machine, which the gateway's 5 s discovery time-out at start must not be measured against.
    warmUp(issuer.wellKnownUrl(ISSUER_ID).uri());
    warmUp(issuer.jwksUrl(ISSUER_ID).uri());
    return issuer;
  }

  private static void warmUp(URI uri) {
    try {
      HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
      connection.setConnectTimeout(60_000);
      connection.setReadTimeout(60_000);
      try (InputStream in = connection.getInputStream()) {
        in.readAllBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the mock issuer does not answer at " + uri, e);
    }
  }

  /** The load benchmark's options that secure a local gateway with {@code issuer}'s tokens. */
  static List<String> oauthOptions(MockOAuth2Server issuer, java.nio.file.Path secretFile) {
    return List.of(
        "--set",
        "gateway.security.authentication.mode=oauth",
        "--set",
        "gateway.security.authentication.oauth.issuerUri=" + issuer.issuerUrl(ISSUER_ID),
        "--oauth",
        issuer.tokenEndpointUrl(ISSUER_ID).toString(),
        "--oauth-client-secret-file",
        secretFile.toString());
  }
}
