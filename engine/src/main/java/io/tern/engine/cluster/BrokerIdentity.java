package io.tern.engine.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Whether a call on the command API comes from a broker of this cluster, the only callers allowed
 * to send internal commands ({@link ForwardableCommands}) and to rebalance.
 *
 * <p>A broker is known by its host names: those of {@code cluster.contactPoints}, its own
 * advertised host, and those the brokers publish in their state. With TLS on the command API, the
 * caller's verified certificate must name one of them among its subject alternative names (DNS
 * names, one leading wildcard label allowed, or IP addresses); the address it connects from does
 * not matter then. Without TLS, the address the caller connects from must be one those names
 * resolve to. That holds where each broker has one address its name resolves to, as pods behind a
 * headless Service or containers on one network; it cannot tell apart processes on one host
 * (everything local connects from 127.0.0.1), so it protects a cluster from other machines, not
 * from its own. Certificates do both.
 *
 * <p>Names are resolved again when an address is not known (a broker restarted with a new pod IP),
 * at most once every {@link #RESOLVE_INTERVAL_MS}, so that a flood of calls from strangers does not
 * become a flood of DNS queries.
 */
public final class BrokerIdentity {
  /** The least time between two resolutions of the brokers' names. */
  static final long RESOLVE_INTERVAL_MS = 1_000;

  /** SAN types in {@link X509Certificate#getSubjectAlternativeNames()}. */
  private static final int SAN_DNS = 2;

  private static final int SAN_IP = 7;

  /** Resolves a host name to its addresses (replaced in tests). */
  interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final Supplier<Set<String>> hosts;
  private final Resolver resolver;
  private final LongSupplier nanoClock;
  private volatile Set<InetAddress> addresses = Set.of();
  private volatile long resolvedAtNs;
  private volatile boolean resolvedOnce;

  /** {@code hosts}: the brokers' host names or IP literals, read at each check. */
  public BrokerIdentity(Supplier<Set<String>> hosts) {
    this(hosts, InetAddress::getAllByName, System::nanoTime);
  }

  BrokerIdentity(Supplier<Set<String>> hosts, Resolver resolver, LongSupplier nanoClock) {
    this.hosts = hosts;
    this.resolver = resolver;
    this.nanoClock = nanoClock;
  }

  /**
   * Whether the caller is a broker: by its certificate when {@code session} is not null (a TLS
   * connection), else by the address it connects from.
   */
  public boolean isBroker(SocketAddress remote, SSLSession session) {
    if (session != null) {
      return certificateNamesBroker(session);
    }
    if (!(remote instanceof InetSocketAddress inet) || inet.getAddress() == null) {
      return false;
    }
    InetAddress address = inet.getAddress();
    if (addresses.contains(address)) {
      return true;
    }
    if (resolvedOnce
        && nanoClock.getAsLong() - resolvedAtNs
            < TimeUnit.MILLISECONDS.toNanos(RESOLVE_INTERVAL_MS)) {
      return false;
    }
    return resolve().contains(address);
  }

  /** Whether the peer's verified certificate names a broker host. */
  boolean certificateNamesBroker(SSLSession session) {
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      return false; // no client certificate: not a broker
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
      return false;
    }
    return namesBroker(certificate);
  }

  /** Whether one of {@code certificate}'s subject alternative names is a broker's host. */
  boolean namesBroker(X509Certificate certificate) {
    Collection<List<?>> names;
    try {
      names = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return false;
    }
    if (names == null) {
      return false; // the subject's common name is not looked at: SANs are what TLS checks
    }
    Set<String> brokers = hosts.get();
    for (List<?> name : names) {
      int type = (Integer) name.get(0);
      String value = String.valueOf(name.get(1));
      for (String broker : brokers) {
        if (type == SAN_DNS && dnsMatches(value, broker)) {
          return true;
        }
        if (type == SAN_IP && ipMatches(value, broker)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A DNS name matches case-insensitively; "*.x" matches exactly one label in front of x. */
  static boolean dnsMatches(String san, String host) {
    if (isIpLiteral(host)) {
      return false; // an address is named by an IP SAN, never by a DNS one
    }
    String name = san.toLowerCase(Locale.ROOT);
    String wanted = host.toLowerCase(Locale.ROOT);
    if (name.startsWith("*.")) {
      int dot = wanted.indexOf('.');
      return dot > 0 && wanted.substring(dot).equals(name.substring(1));
    }
    return name.equals(wanted);
  }

  private static boolean ipMatches(String san, String host) {
    if (!isIpLiteral(host)) {
      return false;
    }
    try {
      // Both literals: no lookup happens, and "::1" equals "0:0:0:0:0:0:0:1".
      return InetAddress.getByName(san).equals(InetAddress.getByName(host));
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean isIpLiteral(String host) {
    return host.contains(":") || host.matches("[0-9.]+");
  }

  private synchronized Set<InetAddress> resolve() {
    if (resolvedOnce
        && nanoClock.getAsLong() - resolvedAtNs
            < TimeUnit.MILLISECONDS.toNanos(RESOLVE_INTERVAL_MS)) {
      return addresses; // another caller just resolved them
    }
    Set<InetAddress> resolved = new HashSet<>();
    for (String host : hosts.get()) {
      try {
        resolved.addAll(List.of(resolver.resolve(host)));
      } catch (UnknownHostException e) {
        // a broker not in DNS yet (its pod is starting): known at a later resolution
      }
    }
    addresses = Set.copyOf(resolved);
    resolvedAtNs = nanoClock.getAsLong();
    resolvedOnce = true;
    return addresses;
  }
}
