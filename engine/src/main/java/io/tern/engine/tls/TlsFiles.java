package io.tern.engine.tls;

import io.tern.raft.tls.PemFile;
import io.tern.raft.tls.ReloadingCredentials;
import java.time.Duration;

/**
 * The PEM files of one TLS setting, as configured: a certificate chain, its private key, and the
 * certificates peers must chain to (null where peers present none). Nothing is read until {@link
 * #load}.
 *
 * @param reloadInterval how often the files are compared with what is in use (zero: never)
 */
public record TlsFiles(
    PemFile certificateChain,
    PemFile privateKey,
    PemFile trustedCertificates,
    Duration reloadInterval) {
  public TlsFiles {
    if (certificateChain == null || privateKey == null || reloadInterval == null) {
      throw new IllegalArgumentException("TLS needs a certificate chain and its private key");
    }
  }

  /** Reads the files now (an {@link IllegalArgumentException} names the setting and file). */
  public ReloadingCredentials load() {
    return ReloadingCredentials.load(
        certificateChain, privateKey, trustedCertificates, reloadInterval);
  }
}
