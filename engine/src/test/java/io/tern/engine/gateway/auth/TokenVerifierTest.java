package io.tern.engine.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each check of a bearer token, against a real OAuth server's discovery and keys. */
class TokenVerifierTest {
  private static TestIssuer issuer;

  @BeforeAll
  static void startIssuer() {
    issuer = new TestIssuer();
  }

  @AfterAll
  static void stopIssuer() {
    issuer.close();
  }

  private static AuthenticationConfig.OAuth config(Duration refreshMinInterval) {
    return new AuthenticationConfig.OAuth(
        issuer.issuer(),
        null,
        TestIssuer.AUDIENCE,
        Duration.ofSeconds(5),
        Duration.ofMinutes(5),
        refreshMinInterval);
  }

  private static TokenVerifier verifier() {
    return TokenVerifier.start(config(Duration.ofSeconds(30)), new SimpleMeterRegistry());
  }

  private static void assertRefused(TokenVerifier verifier, String token, TokenRefusal.Reason why) {
    assertThatThrownBy(() -> verifier.verify(token))
        .isInstanceOfSatisfying(
            TokenRefusal.class,
            refusal -> {
              assertThat(refusal.reason()).isEqualTo(why);
              assertThat(refusal.getMessage()).doesNotContain(token);
            });
  }

  @Test
  void aTokenOfTheIssuerForTheAudienceIsAccepted() throws TokenRefusal {
    TokenVerifier verifier = verifier();
    assertThat(verifier.jwksUri().toString()).endsWith("/default/jwks"); // from discovery
    assertThat(verifier.verify(issuer.token()).getSubject()).isEqualTo("test-client");
  }

  @Test
  void eachFailedCheckIsNamed() throws Exception {
    TokenVerifier verifier = verifier();
    String valid = issuer.token();
    assertRefused(verifier, "not-a-jwt", TokenRefusal.Reason.MALFORMED);
    // Past the allowed 5 s of clock skew.
    assertRefused(
        verifier,
        issuer.token(TestIssuer.AUDIENCE, Duration.ofSeconds(-30)),
        TokenRefusal.Reason.EXPIRED);
    assertRefused(
        verifier,
        issuer.signedWithClaims(Map.of("nbf", Date.from(Instant.now().plusSeconds(60)))),
        TokenRefusal.Reason.NOT_YET_VALID);
    assertRefused(
        verifier, issuer.token("another-api", Duration.ofHours(1)), TokenRefusal.Reason.AUDIENCE);
    assertRefused(
        verifier,
        issuer.signedWithClaims(Map.of("iss", issuer.issuer() + "other")),
        TokenRefusal.Reason.ISSUER);
    // The issuer's key id, another key: the signature does not verify.
    assertRefused(
        verifier, TestIssuer.resigned(valid, issuer.keyId()), TokenRefusal.Reason.SIGNATURE);
    // A shared secret is never accepted, even one an attacker could derive from the public key.
    assertRefused(verifier, issuer.hmacSigned(valid), TokenRefusal.Reason.UNKNOWN_KEY);
    // Nor no signature at all (alg none).
    assertRefused(
        verifier,
        new PlainJWT(SignedJWT.parse(valid).getJWTClaimsSet()).serialize(),
        TokenRefusal.Reason.MALFORMED);
  }

  @Test
  void aTokenWithinTheClockSkewIsAccepted() throws TokenRefusal {
    TokenVerifier verifier = verifier();
    verifier.verify(issuer.token(TestIssuer.AUDIENCE, Duration.ofSeconds(-2)));
    verifier.verify(
        issuer.signedWithClaims(Map.of("nbf", Date.from(Instant.now().plusSeconds(2)))));
  }

  @Test
  void manyCallsFetchTheKeySetOnce() throws TokenRefusal {
    TokenVerifier verifier = verifier();
    int served = issuer.jwksRequests();
    String token = issuer.token();
    for (int call = 0; call < 1_000; call++) {
      verifier.verify(token);
    }
    assertThat(verifier.jwksFetches()).isEqualTo(1);
    assertThat(issuer.jwksRequests() - served).as("key set requests the issuer saw").isEqualTo(1);
  }

  /**
   * The same token verifies from the cache of verified tokens without looking at a key: here every
   * call brings a token never seen, so each is checked in full, signature included, and still the
   * issuer serves its key set once (issue 44: never a network call per request).
   */
  @Test
  void manyDifferentTokensAreEachCheckedInFullWithTheKeySetFetchedOnce() throws TokenRefusal {
    TokenVerifier verifier = verifier();
    int served = issuer.jwksRequests();
    Set<String> tokens = new HashSet<>();
    for (int call = 0; call < 200; call++) {
      String token = issuer.token();
      tokens.add(token);
      verifier.verify(token);
    }
    assertThat(tokens).as("distinct tokens").hasSize(200);
    assertThat(verifier.fullChecks()).isEqualTo(200);
    assertThat(verifier.jwksFetches()).isEqualTo(1);
    assertThat(issuer.jwksRequests() - served).as("key set requests the issuer saw").isEqualTo(1);
  }

  @Test
  void aTokenThatVerifiedIsCheckedInFullOnceAndRefusedOnceItExpires() throws TokenRefusal {
    TokenVerifier verifier =
        TokenVerifier.start(
            new AuthenticationConfig.OAuth(
                issuer.issuer(),
                null,
                TestIssuer.AUDIENCE,
                Duration.ZERO,
                Duration.ofMinutes(5),
                Duration.ofSeconds(30)),
            new SimpleMeterRegistry());
    String token = issuer.token(TestIssuer.AUDIENCE, Duration.ofSeconds(2));
    for (int call = 0; call < 100; call++) {
      verifier.verify(token);
    }
    assertThat(verifier.fullChecks()).isEqualTo(1);
    // Another token with the same claims but a bad signature is not taken for the checked one.
    assertRefused(
        verifier, TestIssuer.resigned(token, issuer.keyId()), TokenRefusal.Reason.SIGNATURE);
    Awaitility.await("the cached token expires")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              try {
                verifier.verify(token);
                return false;
              } catch (TokenRefusal refusal) {
                return refusal.reason() == TokenRefusal.Reason.EXPIRED;
              }
            });
  }

  @Test
  void aRotatedKeyIsFetchedOnceAndMadeUpKeyIdsFetchNothingMore() throws TokenRefusal {
    TokenVerifier verifier = verifier();
    int served = issuer.jwksRequests();
    verifier.verify(issuer.token());
    assertThat(verifier.jwksFetches()).isEqualTo(1);

    issuer.rotate();
    String rotated = issuer.token();
    verifier.verify(rotated);
    verifier.verify(rotated);
    assertThat(verifier.jwksFetches()).as("one refresh for the new key").isEqualTo(2);

    // Within jwksRefreshMinInterval: the refresh budget is spent, nothing more is fetched.
    for (int call = 0; call < 20; call++) {
      assertRefused(
          verifier,
          TestIssuer.resigned(rotated, "made-up-" + call),
          TokenRefusal.Reason.UNKNOWN_KEY);
    }
    verifier.verify(rotated);
    assertThat(verifier.jwksFetches()).isEqualTo(2);
    assertThat(issuer.jwksRequests() - served).isEqualTo(2);
  }

  private static AuthenticationConfig.OAuth withIssuer(String issuerUri) {
    return new AuthenticationConfig.OAuth(
        issuerUri,
        null,
        TestIssuer.AUDIENCE,
        Duration.ZERO,
        Duration.ofMinutes(5),
        Duration.ofSeconds(30));
  }

  @Test
  void anIssuerWithoutDiscoveryFailsTheStartNamingTheKey() {
    // Port 1: nothing listens, the connection is refused.
    assertThatThrownBy(
            () ->
                TokenVerifier.start(
                    withIssuer("http://127.0.0.1:1/realm"), new SimpleMeterRegistry()))
        .isInstanceOf(AuthenticationSetupException.class)
        .hasMessageContaining("gateway.security.authentication.oauth.issuerUri")
        .hasMessageContaining("http://127.0.0.1:1/realm/.well-known/openid-configuration");
  }

  @Test
  void anIssuerThatDiscoveryNamesOtherwiseFailsTheStart() {
    // The same document, but the tokens' iss has no trailing slash: every token would be refused.
    assertThatThrownBy(
            () -> TokenVerifier.start(withIssuer(issuer.issuer() + "/"), new SimpleMeterRegistry()))
        .isInstanceOf(AuthenticationSetupException.class)
        .hasMessageContaining("names the issuer '" + issuer.issuer() + "'")
        .hasMessageContaining("gateway.security.authentication.oauth.issuerUri");
  }

  @Test
  void keysThatCannotBeFetchedAreSaidSoAndNotBlamedOnTheToken() {
    // An explicit JWKS URI: no discovery at start. Port 1: nothing listens.
    TokenVerifier verifier =
        TokenVerifier.start(
            new AuthenticationConfig.OAuth(
                issuer.issuer(),
                URI.create("http://127.0.0.1:1/jwks"),
                TestIssuer.AUDIENCE,
                Duration.ZERO,
                Duration.ofMinutes(5),
                Duration.ofSeconds(30)),
            new SimpleMeterRegistry());
    assertRefused(verifier, issuer.token(), TokenRefusal.Reason.KEYS_UNAVAILABLE);
  }

  @Test
  void theAuthorizationHeaderMustHoldABearerToken() throws TokenRefusal {
    assertThat(BearerTokenInterceptor.bearerToken("Bearer abc")).isEqualTo("abc");
    assertThat(BearerTokenInterceptor.bearerToken("bearer abc")).isEqualTo("abc");
    assertThatThrownBy(() -> BearerTokenInterceptor.bearerToken(null))
        .isInstanceOfSatisfying(
            TokenRefusal.class, r -> assertThat(r.reason()).isEqualTo(TokenRefusal.Reason.MISSING));
    assertThatThrownBy(() -> BearerTokenInterceptor.bearerToken("Basic dXNlcjpwYXNz"))
        .isInstanceOfSatisfying(
            TokenRefusal.class,
            r -> assertThat(r.reason()).isEqualTo(TokenRefusal.Reason.MALFORMED));
  }
}
