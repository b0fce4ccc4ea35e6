package io.tern.raft.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A certificate chain, its private key and (optionally) the certificates peers must chain to, read
 * from PEM files and read again when the files change: cert-manager rotates a Kubernetes Secret's
 * files in place, and a listener must present the new certificate without a restart.
 *
 * <p>The key and trust managers handed out ({@link #keyManager()}, {@link #trustManager()}) stay
 * the same objects and consult the newest good files at every TLS handshake, so one SSL context
 * built on them serves rotated certificates to new connections; open connections keep theirs. The
 * files are compared by content every {@code reloadInterval}, which works with any volume (a
 * Secret's atomic symlink swap included). A change that does not load (a half-written file, a key
 * that does not match the certificate) is logged as an error naming the setting and the file, and
 * the previous credentials stay in use.
 */
public final class ReloadingCredentials implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingCredentials.class);

  /** One thread checks the files of every credential set in the JVM: they are a few KB each. */
  private static final ScheduledExecutorService CHECKER =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "tls-file-checker");
            thread.setDaemon(true);
            return thread;
          });

  private final PemFile certificateChain;
  private final PemFile privateKey;
  private final PemFile trustedCertificates;
  private final ReloadingKeyManager keyManager = new ReloadingKeyManager(this);
  private final ReloadingTrustManager trustManager;
  private volatile Loaded current;
  private byte[] lastFailedDigest;
  private int generation;
  private ScheduledFuture<?> checking;

  /** What one reading of the files gave. */
  record Loaded(
      byte[] digest,
      X509ExtendedKeyManager keyManager,
      X509ExtendedTrustManager trustManager,
      X509Certificate certificate) {}

  private ReloadingCredentials(PemFile chain, PemFile key, PemFile trusted) {
    this.certificateChain = chain;
    this.privateKey = key;
    this.trustedCertificates = trusted;
    this.trustManager = trusted == null ? null : new ReloadingTrustManager(this);
  }

  /**
   * Reads the files now (an {@link IllegalArgumentException} names the setting and file of the
   * first problem) and then every {@code reloadInterval} (zero: never again).
   *
   * @param trustedCertificates null when peers are not checked (a server without client
   *     certificates)
   */
  public static ReloadingCredentials load(
      PemFile certificateChain,
      PemFile privateKey,
      PemFile trustedCertificates,
      Duration reloadInterval) {
    ReloadingCredentials credentials =
        new ReloadingCredentials(certificateChain, privateKey, trustedCertificates);
    credentials.current = credentials.read(credentials.digest());
    X509Certificate leaf = credentials.current.certificate();
    LOG.info(
        "TLS: {} presents {} (serial {}, valid until {})",
        certificateChain.setting(),
        leaf.getSubjectX500Principal().getName(),
        leaf.getSerialNumber().toString(16),
        leaf.getNotAfter().toInstant());
    if (leaf.getNotAfter().getTime() < System.currentTimeMillis()) {
      LOG.warn(
          "TLS: the certificate in {} expired at {}; peers will refuse it",
          certificateChain,
          leaf.getNotAfter().toInstant());
    }
    if (!reloadInterval.isZero()) {
      long ms = reloadInterval.toMillis();
      credentials.checking =
          CHECKER.scheduleWithFixedDelay(credentials::checkFiles, ms, ms, TimeUnit.MILLISECONDS);
    }
    return credentials;
  }

  /** Presents the newest good certificate chain. */
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  /** Checks peers against the newest good trusted certificates; null without a trust file. */
  public X509ExtendedTrustManager trustManager() {
    return trustManager;
  }

  /** The certificate presented now (its serial shows which files are in use). */
  public X509Certificate certificate() {
    return current.certificate();
  }

  /** The provider for new contexts: BoringSSL when netty-tcnative is on the class path. */
  public static SslProvider provider() {
    return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
  }

  /** A server context builder presenting these credentials, checking clients as told. */
  public SslContextBuilder forServer(ClientAuth clientAuth, SslProvider provider) {
    if (clientAuth != ClientAuth.NONE && trustManager == null) {
      throw new IllegalStateException(
          certificateChain.setting() + ": client certificates need trusted certificates");
    }
    SslContextBuilder builder =
        SslContextBuilder.forServer(keyManager).sslProvider(provider).clientAuth(clientAuth);
    return trustManager == null ? builder : builder.trustManager(trustManager);
  }

  /** A client context builder presenting these credentials and checking servers against trust. */
  public SslContextBuilder forClient(SslProvider provider) {
    SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(provider);
    builder.keyManager(keyManager);
    return trustManager == null ? builder : builder.trustManager(trustManager);
  }

  Loaded current() {
    return current;
  }

  /** Reads the files again if their content changed; what the checker thread runs. */
  public synchronized void checkFiles() {
    byte[] digest;
    try {
      digest = digest();
    } catch (IllegalArgumentException e) {
      failed(null, e);
      return;
    }
    if (Arrays.equals(digest, current.digest()) || Arrays.equals(digest, lastFailedDigest)) {
      return;
    }
    try {
      Loaded loaded = read(digest);
      keyManager.retire(current.keyManager());
      current = loaded;
      lastFailedDigest = null;
      LOG.info(
          "TLS: reloaded {}: new connections get {} (serial {}, valid until {})",
          certificateChain.setting(),
          loaded.certificate().getSubjectX500Principal().getName(),
          loaded.certificate().getSerialNumber().toString(16),
          loaded.certificate().getNotAfter().toInstant());
    } catch (IllegalArgumentException e) {
      failed(digest, e);
    }
  }

  private void failed(byte[] digest, IllegalArgumentException e) {
    lastFailedDigest = digest;
    LOG.error(
        "TLS: the changed files do not load, keeping the previous certificate (serial {}): {}",
        current.certificate().getSerialNumber().toString(16),
        e.getMessage());
  }

  /** A digest of the three files' content, so that a change of any is noticed. */
  private byte[] digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      for (PemFile file : files()) {
        sha.update(file.read());
        sha.update((byte) 0);
      }
      return sha.digest();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private List<PemFile> files() {
    return trustedCertificates == null
        ? List.of(certificateChain, privateKey)
        : List.of(certificateChain, privateKey, trustedCertificates);
  }

  private Loaded read(byte[] digest) {
    List<X509Certificate> chain = certificateChain.certificates(certificateChain.read());
    PrivateKey key = privateKey.privateKey(privateKey.read());
    if (!matches(chain.get(0), key)) {
      throw privateKey.invalid(
          "does not belong to the first certificate of "
              + certificateChain
              + " (is one of them not yet rotated?)");
    }
    try {
      // A fresh alias per reading: a handshake that chose the old alias cannot be given the new
      // key with the old chain (see ReloadingKeyManager).
      String alias = "tern-" + (++generation);
      char[] password = new char[0];
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(alias, key, password, chain.toArray(X509Certificate[]::new));
      KeyManagerFactory keyFactory = KeyManagerFactory.getInstance("SunX509");
      keyFactory.init(keys, password);
      X509ExtendedKeyManager keyManager = (X509ExtendedKeyManager) keyFactory.getKeyManagers()[0];
      X509ExtendedTrustManager trustManager = null;
      if (trustedCertificates != null) {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        for (X509Certificate ca : trustedCertificates.certificates(trustedCertificates.read())) {
          trust.setCertificateEntry("trusted-" + i++, ca);
        }
        TrustManagerFactory trustFactory =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustFactory.init(trust);
        trustManager = (X509ExtendedTrustManager) trustFactory.getTrustManagers()[0];
      }
      return new Loaded(digest, keyManager, trustManager, chain.get(0));
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw certificateChain.invalid("cannot be used with " + privateKey + ": " + e.getMessage());
    }
  }

  /** Signs a few bytes with the key and checks them with the certificate's public key. */
  private static boolean matches(X509Certificate certificate, PrivateKey key) {
    String algorithm =
        switch (key.getAlgorithm()) {
          case "EC" -> "SHA256withECDSA";
          case "RSA" -> "SHA256withRSA";
          default -> key.getAlgorithm(); // Ed25519, Ed448
        };
    try {
      byte[] probe = "tern".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      java.security.Signature signer = java.security.Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(probe);
      byte[] signature = signer.sign();
      java.security.Signature verifier = java.security.Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(probe);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  @Override
  public void close() {
    if (checking != null) {
      checking.cancel(false);
    }
  }

  @Override
  public String toString() {
    return certificateChain
        + ", "
        + privateKey
        + (trustedCertificates == null ? "" : ", " + trustedCertificates);
  }
}
