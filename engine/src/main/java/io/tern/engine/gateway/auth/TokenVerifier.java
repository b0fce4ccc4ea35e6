package io.tern.engine.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.text.ParseException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

/**
 * Checks an OAuth 2 access token: a JWT whose signature verifies with one of the issuer's keys (RSA
 * or EC; never a shared secret), whose iss is the issuer, whose aud holds the audience, and whose
 * exp and nbf hold now, give or take the allowed clock skew.
 *
 * <p>The issuer's key set is fetched once and cached: a call costs at most one signature
 * verification with a key in memory, never a network call; a token that verified before costs a
 * lookup until it expires ({@link VerifiedTokens}). A token naming a key id the cache does not hold
 * (the issuer rotated its keys) fetches the set again, at most twice per {@code
 * jwksRefreshMinInterval}, so that tokens with made-up key ids cannot turn the gateway into a flood
 * of requests to the issuer. Safe for concurrent use.
 */
public final class TokenVerifier {
  /** Time-outs and size limit of the discovery and key set fetches. */
  private static final int HTTP_TIMEOUT_MS = 5_000;

  private static final int HTTP_SIZE_LIMIT_BYTES = 512 * 1024;

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final Counter jwksFetches;
  private final URI jwksUri;
  private final VerifiedTokens verified;
  private final LongAdder fullChecks = new LongAdder();

  private TokenVerifier(AuthenticationConfig.OAuth config, URI jwksUri, MeterRegistry registry) {
    this.jwksUri = jwksUri;
    this.verified = new VerifiedTokens(config.allowedClockSkew().toMillis());
    this.jwksFetches =
        Counter.builder("tern.gateway.auth.jwks.fetches")
            .description("fetches of the OAuth issuer's key set (JWKS)")
            .register(registry);
    ResourceRetriever http =
        new DefaultResourceRetriever(HTTP_TIMEOUT_MS, HTTP_TIMEOUT_MS, HTTP_SIZE_LIMIT_BYTES);
    ResourceRetriever counted =
        url -> {
          jwksFetches.increment();
          return http.retrieveResource(url);
        };
    JWKSource<SecurityContext> keys =
        JWKSourceBuilder.create(toUrl(jwksUri), counted)
            .cache(config.jwksCacheTtl().toMillis(), HTTP_TIMEOUT_MS * 2L)
            .rateLimited(config.jwksRefreshMinInterval().toMillis())
            .build();
    Set<JWSAlgorithm> algorithms = new HashSet<>(JWSAlgorithm.Family.RSA);
    algorithms.addAll(JWSAlgorithm.Family.EC);
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
    // Access tokens are typed JWT, at+jwt (RFC 9068) or not at all.
    processor.setJWSTypeVerifier(
        new DefaultJOSEObjectTypeVerifier<>(
            JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null));
    DefaultJWTClaimsVerifier<SecurityContext> claims =
        new DefaultJWTClaimsVerifier<>(
            config.audience(),
            new JWTClaimsSet.Builder().issuer(config.issuer()).build(),
            Set.of("iss", "aud", "exp"));
    claims.setMaxClockSkew(
        (int) Math.min(Integer.MAX_VALUE, config.allowedClockSkew().toSeconds()));
    processor.setJWTClaimsSetVerifier(claims);
  }

  /**
   * A verifier for {@code config}; without a JWKS URI it reads the issuer's discovery document now.
   *
   * @throws AuthenticationSetupException when the discovery document cannot be read or names
   *     another issuer (the message says which URL and why)
   */
  public static TokenVerifier start(AuthenticationConfig.OAuth config, MeterRegistry registry) {
    URI jwks = config.jwksUri() != null ? config.jwksUri() : discoverJwksUri(config.issuer());
    return new TokenVerifier(config, jwks, registry);
  }

  /** Where the keys come from (discovered or configured). */
  public URI jwksUri() {
    return jwksUri;
  }

  /** How many calls had their token checked in full (the others' token had been checked). */
  long fullChecks() {
    return fullChecks.sum();
  }

  /** How often the key set was fetched: once, then only at expiry of the cache or at rotation. */
  public long jwksFetches() {
    return (long) jwksFetches.count();
  }

  /**
   * The token's claims, if every check passes.
   *
   * @throws TokenRefusal saying which check failed
   */
  public JWTClaimsSet verify(String token) throws TokenRefusal {
    JWTClaimsSet known = verified.get(token, System.currentTimeMillis());
    if (known != null) {
      return known;
    }
    fullChecks.increment();
    try {
      JWTClaimsSet claims = processor.process(token, null);
      verified.put(token, claims);
      return claims;
    } catch (ParseException e) {
      throw new TokenRefusal(TokenRefusal.Reason.MALFORMED, "the bearer token is not a signed JWT");
    } catch (ExpiredJWTException e) {
      throw new TokenRefusal(TokenRefusal.Reason.EXPIRED, "the token has expired");
    } catch (BadJWSException e) {
      throw new TokenRefusal(
          TokenRefusal.Reason.SIGNATURE,
          "the token's signature does not verify with the issuer's key");
    } catch (BadJWTException e) {
      throw claimRefusal(e.getMessage());
    } catch (RateLimitReachedException e) {
      throw unknownKey();
    } catch (KeySourceException e) {
      throw new TokenRefusal(
          TokenRefusal.Reason.KEYS_UNAVAILABLE,
          "the issuer's keys cannot be fetched from " + jwksUri + " (" + e.getMessage() + ")");
    } catch (BadJOSEException e) {
      // No key of the issuer's set has the token's key id and algorithm, or its typ is not a JWT.
      throw joseRefusal(e);
    } catch (JOSEException e) {
      throw new TokenRefusal(
          TokenRefusal.Reason.SIGNATURE, "the token's signature cannot be checked");
    }
  }

  private static TokenRefusal joseRefusal(BadJOSEException e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("no matching key")) {
      return unknownKey();
    }
    return new TokenRefusal(TokenRefusal.Reason.MALFORMED, "the token is refused: " + message);
  }

  private static TokenRefusal unknownKey() {
    return new TokenRefusal(
        TokenRefusal.Reason.UNKNOWN_KEY,
        "the token is not signed by a key of the issuer's key set (or not with RSA or EC)");
  }

  /**
   * DefaultJWTClaimsVerifier says which claim failed only in its message; TokenVerifierTest pins
   * every case, so that a library upgrade that words them differently fails there.
   */
  private static TokenRefusal claimRefusal(String message) {
    String text = String.valueOf(message);
    if (text.startsWith("JWT before use time")) {
      return new TokenRefusal(
          TokenRefusal.Reason.NOT_YET_VALID, "the token is not valid yet (nbf)");
    }
    if (text.contains(" aud ")) {
      return new TokenRefusal(
          TokenRefusal.Reason.AUDIENCE, "the token's audience does not include this gateway's");
    }
    if (text.contains(" iss ")) {
      return new TokenRefusal(TokenRefusal.Reason.ISSUER, "the token is from another issuer");
    }
    if (text.startsWith("JWT missing required claims")) {
      return new TokenRefusal(
          TokenRefusal.Reason.CLAIMS, "the token lacks a claim it needs: iss, aud and exp");
    }
    return new TokenRefusal(TokenRefusal.Reason.CLAIMS, "the token's claims are refused: " + text);
  }

  /** The jwks_uri of the issuer's OpenID discovery document, which must name the same issuer. */
  static URI discoverJwksUri(String issuer) {
    String url =
        (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer)
            + "/.well-known/openid-configuration";
    Map<String, Object> document;
    try {
      Resource resource =
          new DefaultResourceRetriever(HTTP_TIMEOUT_MS, HTTP_TIMEOUT_MS, HTTP_SIZE_LIMIT_BYTES)
              .retrieveResource(toUrl(URI.create(url)));
      document = JSONObjectUtils.parse(resource.getContent());
    } catch (IOException | ParseException | IllegalArgumentException e) {
      throw new AuthenticationSetupException(
          "cannot read the OAuth issuer's discovery document "
              + url
              + " ("
              + e.getMessage()
              + "): check gateway.security.authentication.oauth.issuerUri, or set"
              + " gateway.security.authentication.oauth.jwksUri",
          e);
    }
    Object named = document.get("issuer");
    if (!issuer.equals(named)) {
      throw new AuthenticationSetupException(
          "the discovery document "
              + url
              + " names the issuer '"
              + named
              + "', not '"
              + issuer
              + "': gateway.security.authentication.oauth.issuerUri must be the issuer exactly as"
              + " its tokens name it",
          null);
    }
    Object jwks = document.get("jwks_uri");
    if (!(jwks instanceof String text) || text.isBlank()) {
      throw new AuthenticationSetupException(
          "the discovery document "
              + url
              + " has no jwks_uri: set gateway.security.authentication.oauth.jwksUri",
          null);
    }
    return URI.create(text);
  }

  private static URL toUrl(URI uri) {
    try {
      return uri.toURL();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL: " + uri, e);
    }
  }
}
