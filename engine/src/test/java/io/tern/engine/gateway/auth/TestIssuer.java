package io.tern.engine.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.OAuth2Config;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import no.nav.security.mock.oauth2.token.KeyProvider;
import no.nav.security.mock.oauth2.token.OAuth2TokenProvider;
import no.nav.security.mock.oauth2.token.RequestMapping;
import no.nav.security.mock.oauth2.token.RequestMappingTokenCallback;
import okhttp3.mockwebserver.RecordedRequest;

/**
 * A real OAuth 2 / OpenID server for tests (mock-oauth2-server): discovery, JWKS and a token
 * endpoint for client_credentials, under the issuer id {@code default}. Its signing key can be
 * rotated, and tokens that a gateway must refuse can be made: signed by the issuer's key with any
 * claims, or signed by a key it never published.
 */
public final class TestIssuer implements AutoCloseable {
  public static final String ISSUER_ID = "default";
  public static final String AUDIENCE = "zeebe-api";

  /** A key no issuer published (generating one takes a while: one for every test). */
  private static final RSAKey STRANGER = RotatingKeys.newKey().toRSAKey();

  private final RotatingKeys keys = new RotatingKeys();
  private final MockOAuth2Server server;
  private int jwksRequests;

  public TestIssuer() {
    // The token endpoint puts the audience the client asks for into aud, as the issuers Zeebe
    // users run do (the server's default takes it from the scope instead).
    RequestMapping clientCredentials =
        new RequestMapping(
            "grant_type",
            "client_credentials",
            Map.of("aud", List.of("${audience}"), "sub", "${clientId}"),
            "JWT");
    server =
        new MockOAuth2Server(
            new OAuth2Config(
                false,
                null,
                null,
                false,
                new OAuth2TokenProvider(keys),
                Set.of(
                    new RequestMappingTokenCallback(
                        ISSUER_ID, List.of(clientCredentials), Duration.ofHours(1).toSeconds()))));
    server.start();
    // Its first answers load much of the server (Kotlin, Jackson, templates): seconds on a busy
    // machine, which the gateway's 5 s discovery time-out must not be measured against.
    warmUp(server.wellKnownUrl(ISSUER_ID).uri());
    warmUp(server.jwksUrl(ISSUER_ID).uri());
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
      throw new UncheckedIOException("the test issuer does not answer at " + uri, e);
    }
  }

  /** The issuer as its tokens name it (iss). */
  public String issuer() {
    return server.issuerUrl(ISSUER_ID).toString();
  }

  /** Its token endpoint, for the official client's OAuthCredentialsProvider. */
  public URI tokenEndpoint() {
    return server.tokenEndpointUrl(ISSUER_ID).uri();
  }

  /** Requests for its key set so far, as the server recorded them. */
  public synchronized int jwksRequests() {
    while (true) {
      RecordedRequest request;
      try {
        request = server.takeRequest(1, TimeUnit.MILLISECONDS);
      } catch (RuntimeException none) {
        return jwksRequests;
      }
      if (request.getPath() != null && request.getPath().endsWith("/jwks")) {
        jwksRequests++;
      }
    }
  }

  /** A token for {@code audience} that expires {@code expiresIn} from now (negative: ago). */
  public String token(String audience, Duration expiresIn) {
    return server
        .issueToken(
            ISSUER_ID,
            "test-client",
            new DefaultOAuth2TokenCallback(
                ISSUER_ID,
                "test-client",
                "JWT",
                List.of(audience),
                Map.of(),
                expiresIn.toSeconds()))
        .serialize();
  }

  /** A valid token for {@link #AUDIENCE}. */
  public String token() {
    return token(AUDIENCE, Duration.ofHours(1));
  }

  /** A token with these claims over valid ones (iss, aud, exp, nbf), signed by the issuer's key. */
  public String signedWithClaims(Map<String, Object> claims) {
    Map<String, Object> all = new HashMap<>();
    all.put("iss", issuer());
    all.put("aud", AUDIENCE);
    all.put("sub", "test-client");
    all.put("exp", Date.from(Instant.now().plus(Duration.ofHours(1))));
    all.put("nbf", Date.from(Instant.now()));
    all.putAll(claims);
    return server
        .getConfig()
        .getTokenProvider()
        .jwt(all, Duration.ofHours(1), ISSUER_ID)
        .serialize();
  }

  /** {@code token}'s header and claims signed by a key the issuer never published. */
  public static String resigned(String token, String keyId) {
    try {
      SignedJWT original = SignedJWT.parse(token);
      SignedJWT forged =
          new SignedJWT(
              new JWSHeader.Builder(JWSAlgorithm.RS256)
                  .keyID(keyId)
                  .type(original.getHeader().getType())
                  .build(),
              original.getJWTClaimsSet());
      forged.sign(new RSASSASigner(STRANGER));
      return forged.serialize();
    } catch (ParseException | JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code token}'s claims signed with HMAC, keyed by the text of the issuer's public key. */
  public String hmacSigned(String token) {
    try {
      JWTClaimsSet claims = SignedJWT.parse(token).getJWTClaimsSet();
      SignedJWT forged =
          new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(keyId()).build(), claims);
      forged.sign(new MACSigner(keys.current.toPublicJWK().toJSONString().getBytes()));
      return forged.serialize();
    } catch (ParseException | JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The id of the key the issuer signs with now. */
  public String keyId() {
    return keys.current.getKeyID();
  }

  /** The issuer signs with a new key from now on, and publishes only that one. */
  public void rotate() {
    keys.current = RotatingKeys.newKey();
  }

  @Override
  public void close() {
    server.shutdown();
  }

  /** One signing key at a time, for every issuer id: what it signs with is what it publishes. */
  private static final class RotatingKeys extends KeyProvider {
    private static final AtomicInteger GENERATION = new AtomicInteger();
    private volatile JWK current = newKey();

    static JWK newKey() {
      try {
        return new RSAKeyGenerator(2048).keyID("key-" + GENERATION.incrementAndGet()).generate();
      } catch (JOSEException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public JWK signingKey(String keyId) {
      return current;
    }
  }
}
