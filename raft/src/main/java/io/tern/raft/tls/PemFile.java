package io.tern.raft.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * One PEM file and the setting that named it, so that every error says which setting and which file
 * to fix. Contents never reach a message: a private key is a secret.
 *
 * @param setting the configuration key the path came from (e.g. {@code
 *     network.security.privateKeyPath})
 * @param path the file
 */
public record PemFile(String setting, Path path) {
  private static final String KEY_BEGIN = "-----BEGIN PRIVATE KEY-----";
  private static final String KEY_END = "-----END PRIVATE KEY-----";

  /** Key algorithms tried in turn on a PKCS#8 key, whose header does not name one readably. */
  private static final List<String> KEY_ALGORITHMS = List.of("EC", "RSA", "Ed25519", "Ed448");

  public PemFile {
    if (setting == null || path == null) {
      throw new IllegalArgumentException("a PEM file needs its setting and its path");
    }
  }

  /** The bytes as they are now (what reloading compares). */
  byte[] read() {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw invalid("cannot read the file: " + e);
    }
  }

  /** One or more certificates ({@code -----BEGIN CERTIFICATE-----} blocks), in file order. */
  List<X509Certificate> certificates(byte[] content) {
    try (InputStream in = new java.io.ByteArrayInputStream(content)) {
      List<X509Certificate> certificates = new ArrayList<>();
      for (var certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        certificates.add((X509Certificate) certificate);
      }
      if (certificates.isEmpty()) {
        throw invalid("holds no PEM certificate");
      }
      return certificates;
    } catch (CertificateException | IOException e) {
      throw invalid("is not a PEM certificate file (" + e.getMessage() + ")");
    }
  }

  /** The unencrypted PKCS#8 key ({@code -----BEGIN PRIVATE KEY-----}). */
  PrivateKey privateKey(byte[] content) {
    String text = new String(content, java.nio.charset.StandardCharsets.US_ASCII);
    int begin = text.indexOf(KEY_BEGIN);
    int end = text.indexOf(KEY_END);
    if (begin < 0 || end < begin) {
      String hint =
          text.contains("-----BEGIN RSA PRIVATE KEY-----")
                  || text.contains("-----BEGIN EC PRIVATE KEY-----")
              ? " (it is PKCS#1/SEC1: convert it with 'openssl pkcs8 -topk8 -nocrypt', or set"
                  + " cert-manager's privateKey.encoding: PKCS8)"
              : text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
                  ? " (it is encrypted: the key must be unencrypted; protect the file instead)"
                  : "";
      throw invalid("holds no unencrypted PKCS#8 PEM private key" + hint);
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(text.substring(begin + KEY_BEGIN.length(), end).strip());
    } catch (IllegalArgumentException e) {
      throw invalid("holds a private key that is not valid base64");
    }
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException e) {
        // not this algorithm; try the next
      }
    }
    throw invalid("holds a private key of none of " + KEY_ALGORITHMS);
  }

  IllegalArgumentException invalid(String problem) {
    return new IllegalArgumentException(setting + " (" + path + "): " + problem);
  }

  @Override
  public String toString() {
    return setting + " (" + path + ")";
  }
}
