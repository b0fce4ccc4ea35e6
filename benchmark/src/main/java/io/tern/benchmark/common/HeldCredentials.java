package io.tern.benchmark.common;

import io.camunda.client.CredentialsProvider;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The official client's OAuth credentials, held in memory between calls. The official {@code
 * OAuthCredentialsProvider} reads and parses its YAML credentials cache file on every call, under a
 * lock that every client thread shares: on a 2-core machine where the benchmark's client and the
 * brokers share the CPU, that client work alone cost about a tenth of the throughput, and it would
 * be charged to the gateway's token check. Here the official provider still fetches, caches and
 * renews the token; its headers are reused for {@link #HOLD} and asked for again after that, and at
 * once when the gateway refuses a call (an expired or revoked token), so a renewed token is in use
 * within that time.
 */
final class HeldCredentials implements CredentialsProvider {
  /** Far below any token's lifetime, and long enough that asking the file costs nothing. */
  static final Duration HOLD = Duration.ofSeconds(30);

  private final CredentialsProvider official;
  private final LongSupplier nanoTime;
  private Map<String, String> headers;
  private long heldSinceNs;

  HeldCredentials(CredentialsProvider official, LongSupplier nanoTime) {
    this.official = official;
    this.nanoTime = nanoTime;
  }

  @Override
  public void applyCredentials(CredentialsApplier applier) throws IOException {
    Map<String, String> held = current();
    held.forEach(applier::put);
  }

  private synchronized Map<String, String> current() throws IOException {
    long nowNs = nanoTime.getAsLong();
    if (headers == null || nowNs - heldSinceNs >= HOLD.toNanos()) {
      Map<String, String> fresh = new LinkedHashMap<>();
      official.applyCredentials(fresh::put);
      headers = Map.copyOf(fresh);
      heldSinceNs = nowNs;
    }
    return headers;
  }

  @Override
  public boolean shouldRetryRequest(StatusCode statusCode) {
    boolean retry = official.shouldRetryRequest(statusCode);
    if (retry || statusCode.isUnauthorized()) {
      synchronized (this) {
        headers = null;
      }
    }
    return retry;
  }
}
