package io.tern.engine.gateway.auth;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Lets a gateway call through only with a valid bearer token in its {@code authorization} header,
 * as the official client's {@code OAuthCredentialsProvider} sends it. A refused call is closed with
 * UNAUTHENTICATED (UNAVAILABLE when the issuer's keys cannot be fetched) before its handler runs,
 * so nothing of it reaches a partition. The description says which check failed, never the token.
 *
 * <p>Authorization is what Zeebe's gateway does without multi-tenancy: an authenticated client may
 * call every method.
 */
public final class BearerTokenInterceptor implements ServerInterceptor {
  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private static final String BEARER = "bearer ";

  private final TokenVerifier verifier;
  private final Timer verification;
  private final Map<TokenRefusal.Reason, Counter> refused =
      new EnumMap<>(TokenRefusal.Reason.class);

  public BearerTokenInterceptor(TokenVerifier verifier, MeterRegistry registry) {
    this.verifier = verifier;
    this.verification =
        Timer.builder("tern.gateway.auth.verification")
            .description("the check of a call's bearer token")
            .register(registry);
    for (TokenRefusal.Reason reason : TokenRefusal.Reason.values()) {
      refused.put(
          reason,
          Counter.builder("tern.gateway.auth.refused")
              .description("gateway calls refused for their token, by the check that failed")
              .tag("reason", reason.tag())
              .register(registry));
    }
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    TokenRefusal refusal = check(headers.get(AUTHORIZATION));
    if (refusal != null) {
      Status status = keysUnavailable(refusal) ? Status.UNAVAILABLE : Status.UNAUTHENTICATED;
      call.close(status.withDescription(refusal.getMessage()), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    return next.startCall(call, headers);
  }

  /**
   * Checks an authorization header's bearer token, counted and timed like a gRPC call's (the REST
   * API asks here too): null if it passes, else why not.
   */
  public TokenRefusal check(String authorization) {
    long start = System.nanoTime();
    try {
      verifier.verify(bearerToken(authorization));
      return null;
    } catch (TokenRefusal refusal) {
      refused.get(refusal.reason()).increment();
      return refusal;
    } finally {
      verification.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
  }

  /** Whether the token may be good but the issuer's keys could not be fetched (retry later). */
  public static boolean keysUnavailable(TokenRefusal refusal) {
    return refusal.reason() == TokenRefusal.Reason.KEYS_UNAVAILABLE;
  }

  /** The token of "Bearer token" (the scheme in any case). */
  static String bearerToken(String header) throws TokenRefusal {
    if (header == null || header.isBlank()) {
      throw new TokenRefusal(
          TokenRefusal.Reason.MISSING,
          "the call has no bearer token: this gateway needs an OAuth access token in the"
              + " authorization header");
    }
    if (!header.toLowerCase(Locale.ROOT).startsWith(BEARER) || header.length() == BEARER.length()) {
      throw new TokenRefusal(
          TokenRefusal.Reason.MALFORMED, "the authorization header must be 'Bearer <token>'");
    }
    return header.substring(BEARER.length()).strip();
  }
}
