package io.tern.engine.tls;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Test helper (the same as raft's, whose test classes the engine does not see): a certificate
 * authority of its own and the certificates it issues, as PEM files (no key material is checked
 * in). Certificates can name any SANs and any validity, expired included.
 */
public final class TestPki {
  private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

  private final Path directory;
  private final KeyPair caKeys;
  private final X509Certificate ca;
  private final Path caFile;

  /** The files of one issued certificate. */
  public record Issued(Path chain, Path key, BigInteger serial) {}

  public TestPki(Path directory, String name) throws Exception {
    this.directory = directory;
    this.caKeys = keyPair();
    Instant now = Instant.now();
    X500Name subject = new X500Name("CN=" + name);
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            subject,
            BigInteger.valueOf(SERIALS.incrementAndGet()),
            Date.from(now.minus(Duration.ofHours(1))),
            Date.from(now.plus(Duration.ofDays(2))),
            subject,
            caKeys.getPublic());
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    builder.addExtension(
        Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    this.ca = sign(builder, caKeys.getPrivate());
    this.caFile = directory.resolve(name + "-ca.crt");
    Files.writeString(caFile, pem("CERTIFICATE", ca.getEncoded()));
  }

  /** The CA's certificate: what peers trust. */
  public Path caCertificate() {
    return caFile;
  }

  /** A certificate valid from an hour ago for two days, naming {@code sans} ("127.0.0.1", ...). */
  public Issued issue(String name, String... sans) throws Exception {
    Instant now = Instant.now();
    return issue(name, now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(2)), sans);
  }

  /** A certificate with the given validity; files {@code name.crt} (chain) and {@code name.key}. */
  public Issued issue(String name, Instant notBefore, Instant notAfter, String... sans)
      throws Exception {
    KeyPair keys = keyPair();
    BigInteger serial = BigInteger.valueOf(SERIALS.incrementAndGet());
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            ca,
            serial,
            Date.from(notBefore),
            Date.from(notAfter),
            new javax.security.auth.x500.X500Principal("CN=" + name),
            keys.getPublic());
    List<GeneralName> names = new ArrayList<>();
    for (String san : sans) {
      boolean ip = san.matches("[0-9.]+") || san.contains(":");
      names.add(new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, san));
    }
    if (!names.isEmpty()) {
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(names.toArray(GeneralName[]::new)));
    }
    builder.addExtension(
        Extension.extendedKeyUsage,
        false,
        new ExtendedKeyUsage(
            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    X509Certificate certificate = sign(builder, caKeys.getPrivate());
    Path chain = directory.resolve(name + ".crt");
    Path key = directory.resolve(name + ".key");
    write(
        chain, pem("CERTIFICATE", certificate.getEncoded()) + pem("CERTIFICATE", ca.getEncoded()));
    write(key, pem("PRIVATE KEY", keys.getPrivate().getEncoded()));
    return new Issued(chain, key, serial);
  }

  /** Replaces {@code target}'s content with {@code source}'s, as a Secret's rotation does. */
  public static void replace(Path source, Path target) throws Exception {
    write(target, Files.readString(source));
  }

  private static void write(Path file, String content) throws Exception {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temporary, content);
    Files.move(
        temporary,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static X509Certificate sign(JcaX509v3CertificateBuilder builder, PrivateKey key)
      throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
  }

  private static KeyPair keyPair() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
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
