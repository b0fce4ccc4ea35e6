package io.tern.benchmark.load;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority for local brokers under {@code --tls}: a CA and one certificate
 * per broker naming loopback, as PEM files in the run's directory, and the settings that turn on
 * gateway TLS and cluster TLS with them. The CA's key never touches the disk and is forgotten once
 * the brokers' certificates are signed, so nothing outside this run can be trusted through it.
 *
 * <p>The JDK signs certificates only through internal classes, hence Bouncy Castle's builder.
 */
final class LocalPki {
  /** Long enough for any run, short enough that a forgotten directory is soon worthless. */
  private static final Duration VALIDITY = Duration.ofDays(30);

  /** Clock skew between this process and the brokers' checks does not matter on one machine. */
  private static final Duration BACKDATED = Duration.ofHours(1);

  private final Path caCertificate;
  private final Path directory;

  private LocalPki(Path directory, Path caCertificate) {
    this.directory = directory;
    this.caCertificate = caCertificate;
  }

  /**
   * A new CA in {@code directory} (created) and certificates {@code broker-0.crt/.key} ... for
   * {@code brokers} brokers, each naming 127.0.0.1 and localhost.
   */
  static LocalPki create(Path directory, int brokers) throws IOException {
    Files.createDirectories(directory);
    try {
      KeyPair caKeys = keyPair();
      Instant now = Instant.now();
      X500Principal caName = new X500Principal("CN=tern-benchmark-ca");
      JcaX509v3CertificateBuilder caBuilder =
          new JcaX509v3CertificateBuilder(
              caName,
              serial(),
              Date.from(now.minus(BACKDATED)),
              Date.from(now.plus(VALIDITY)),
              caName,
              caKeys.getPublic());
      caBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
      caBuilder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      X509Certificate ca = sign(caBuilder, caKeys.getPrivate());
      Path caFile = directory.resolve("ca.crt");
      Files.writeString(caFile, pem("CERTIFICATE", ca.getEncoded()));
      for (int node = 0; node < brokers; node++) {
        issue(directory, "broker-" + node, ca, caKeys.getPrivate(), now);
      }
      return new LocalPki(directory, caFile);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make the local brokers' certificates", e);
    }
  }

  private static void issue(
      Path directory, String name, X509Certificate ca, PrivateKey caKey, Instant now)
      throws GeneralSecurityException, OperatorCreationException, IOException {
    KeyPair keys = keyPair();
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            ca,
            serial(),
            Date.from(now.minus(BACKDATED)),
            Date.from(now.plus(VALIDITY)),
            new X500Principal("CN=" + name),
            keys.getPublic());
    // Cluster TLS checks that a member's certificate names the address it is reached at.
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
              new GeneralName(GeneralName.dNSName, "localhost")
            }));
    builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    // Each broker is a server (gateway, command API, Raft) and a client of the others.
    builder.addExtension(
        Extension.extendedKeyUsage,
        false,
        new ExtendedKeyUsage(
            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    X509Certificate certificate = sign(builder, caKey);
    Files.writeString(
        directory.resolve(name + ".crt"),
        pem("CERTIFICATE", certificate.getEncoded()) + pem("CERTIFICATE", ca.getEncoded()));
    writePrivate(
        directory.resolve(name + ".key"), pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
  }

  /** Written readable by this user only, where the file system can say so. */
  private static void writePrivate(Path file, String content) throws IOException {
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    Files.writeString(file, content);
  }

  /** The CA certificate the client trusts. */
  Path caCertificate() {
    return caCertificate;
  }

  /**
   * The brokers' TERN_* settings for gateway TLS and cluster TLS (network.security.*), with
   * "{node}" for the broker's node id, as {@link LocalCluster} takes them. The management API stays
   * plain HTTP: the benchmark reads gauges there, outside the measured path.
   */
  Map<String, String> brokerSettings() {
    String chain = directory.resolve("broker-{node}.crt").toString();
    String key = directory.resolve("broker-{node}.key").toString();
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("TERN_GATEWAY_SECURITY_ENABLED", "true");
    settings.put("TERN_GATEWAY_SECURITY_CERTIFICATECHAINPATH", chain);
    settings.put("TERN_GATEWAY_SECURITY_PRIVATEKEYPATH", key);
    settings.put("TERN_NETWORK_SECURITY_ENABLED", "true");
    settings.put("TERN_NETWORK_SECURITY_CERTIFICATECHAINPATH", chain);
    settings.put("TERN_NETWORK_SECURITY_PRIVATEKEYPATH", key);
    settings.put("TERN_NETWORK_SECURITY_TRUSTEDCERTIFICATESPATH", caCertificate.toString());
    return settings;
  }

  private static BigInteger serial() {
    return new BigInteger(64, new SecureRandom());
  }

  private static KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static X509Certificate sign(JcaX509v3CertificateBuilder builder, PrivateKey key)
      throws GeneralSecurityException, OperatorCreationException {
    return new JcaX509CertificateConverter()
        .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
