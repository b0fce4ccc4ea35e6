package io.tern.engine.broker;

import io.netty.handler.ssl.ClientAuth;
import io.tern.engine.tls.GatewayTls;
import io.tern.engine.tls.TlsFiles;
import io.tern.raft.tls.PemFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The TLS settings of a broker or standalone gateway ({@code network.security.*}, {@code
 * gateway.security.*}, {@code management.security.tls.*}), read and checked as {@link BrokerConfig}
 * reads the rest: every problem names its key. Only paths are read here; the files themselves are
 * loaded when the listener starts, and again when they change.
 */
final class SecuritySettings {
  private SecuritySettings() {}

  /** Cluster TLS, or null when network.security.enabled is false. */
  static TlsFiles cluster(BrokerConfigLoader.Values values) {
    return files(values, "network.security", "network.security.enabled", true);
  }

  /**
   * Gateway TLS with its client certificate mode, or null when gateway.security.enabled is false.
   */
  static GatewayTls gateway(BrokerConfigLoader.Values values) {
    String mode = values.text("gateway.security.clientAuth").toLowerCase(Locale.ROOT);
    ClientAuth clientAuth =
        switch (mode) {
          case "none" -> ClientAuth.NONE;
          case "optional" -> ClientAuth.OPTIONAL;
          case "required" -> ClientAuth.REQUIRE;
          default -> {
            values.bad("gateway.security.clientAuth", "none, optional or required");
            yield ClientAuth.NONE;
          }
        };
    boolean enabled = values.bool("gateway.security.enabled");
    if (!enabled) {
      if (clientAuth != ClientAuth.NONE) {
        values.bad(
            "gateway.security.clientAuth",
            "none while gateway.security.enabled is false (client certificates need TLS)");
      }
      return null;
    }
    TlsFiles files =
        files(
            values, "gateway.security", "gateway.security.enabled", clientAuth != ClientAuth.NONE);
    return files == null ? null : new GatewayTls(files, clientAuth);
  }

  /** HTTPS on the management port, or null when management.security.tls.enabled is false. */
  static TlsFiles management(BrokerConfigLoader.Values values) {
    return files(values, "management.security.tls", "management.security.tls.enabled", false);
  }

  private static TlsFiles files(
      BrokerConfigLoader.Values values, String prefix, String enabledKey, boolean needsTrust) {
    Duration reload = values.duration("security.certificateReloadInterval");
    if (!values.bool(enabledKey)) {
      return null;
    }
    PemFile chain = readable(values, prefix + ".certificateChainPath", enabledKey);
    PemFile key = readable(values, prefix + ".privateKeyPath", enabledKey);
    PemFile trust =
        needsTrust ? readable(values, prefix + ".trustedCertificatesPath", enabledKey) : null;
    if (chain == null || key == null || (needsTrust && trust == null)) {
      return null; // named as bad already
    }
    return new TlsFiles(chain, key, trust, reload);
  }

  private static PemFile readable(BrokerConfigLoader.Values values, String key, String enabledKey) {
    String text = values.text(key);
    Path path = text.isEmpty() ? null : Path.of(text).toAbsolutePath();
    if (path == null || !Files.isReadable(path)) {
      values.bad(key, "a readable PEM file when " + enabledKey + " is true");
      return null;
    }
    return new PemFile(key, path);
  }
}
