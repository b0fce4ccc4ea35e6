package io.tern.raft.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The subject alternative names of a certificate, and whether one names a host: how a broker checks
 * that a peer's certificate was issued for the address the cluster knows that member by. DNS names
 * match case-insensitively, with a wildcard for one leftmost label ({@code *.broker.svc}); IP
 * addresses match when the host is an IP literal. The subject's common name is not used (RFC 6125
 * and browsers dropped it).
 */
public final class SubjectNames {
  private static final int DNS = 2;
  private static final int IP = 7;

  private SubjectNames() {}

  /** "DNS:a, IP:1.2.3.4" entries of {@code certificate}, in its order; empty without SANs. */
  public static List<String> of(X509Certificate certificate) {
    List<String> names = new ArrayList<>();
    Collection<List<?>> entries;
    try {
      entries = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return names;
    }
    if (entries == null) {
      return names;
    }
    for (List<?> entry : entries) {
      int type = (Integer) entry.get(0);
      if (type == DNS) {
        names.add("DNS:" + entry.get(1));
      } else if (type == IP) {
        names.add("IP:" + entry.get(1));
      }
    }
    return names;
  }

  /** Whether a SAN of {@code certificate} names {@code host} (a DNS name or an IP literal). */
  public static boolean matches(X509Certificate certificate, String host) {
    InetAddress literal = ipLiteral(host);
    for (String name : of(certificate)) {
      if (literal != null && name.startsWith("IP:")) {
        InetAddress address = ipLiteral(name.substring(3));
        if (literal.equals(address)) {
          return true;
        }
      } else if (literal == null && name.startsWith("DNS:")) {
        if (dnsMatches(name.substring(4), host)) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean dnsMatches(String pattern, String host) {
    String p = stripDot(pattern.toLowerCase(Locale.ROOT));
    String h = stripDot(host.toLowerCase(Locale.ROOT));
    if (!p.startsWith("*.")) {
      return p.equals(h);
    }
    int firstDot = h.indexOf('.');
    return firstDot > 0 && h.substring(firstDot).equals(p.substring(1));
  }

  private static String stripDot(String name) {
    return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
  }

  /** The address if {@code host} is an IPv4 or IPv6 literal, else null (never a DNS lookup). */
  private static InetAddress ipLiteral(String host) {
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    boolean ipv4 = h.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    boolean ipv6 = h.contains(":") && h.matches("[0-9a-fA-F:.%]+");
    if (!ipv4 && !ipv6) {
      return null;
    }
    try {
      return InetAddress.getByName(h); // a literal: parsed, not resolved
    } catch (UnknownHostException e) {
      return null;
    }
  }
}
