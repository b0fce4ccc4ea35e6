package io.tern.raft.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: a self-signed certificate and its key as PEM files, made with the JDK's keytool (no
 * key material is checked in, and no library beyond the JDK is needed).
 */
final class TestCertificates {
  private static final String PASSWORD = "test-only";

  private TestCertificates() {}

  /** Writes {@code <name>.crt} and {@code <name>.key} into {@code directory}. */
  static TransportTls selfSigned(Path directory, String name) throws Exception {
    Path keyStore = directory.resolve(name + ".p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process process =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + name,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keyStore.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException("keytool failed: " + output);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keyStore)) {
      store.load(in, PASSWORD.toCharArray());
    }
    PrivateKey key = (PrivateKey) store.getKey(name, PASSWORD.toCharArray());
    Certificate certificate = store.getCertificate(name);
    Path certificateFile = directory.resolve(name + ".crt");
    Path keyFile = directory.resolve(name + ".key");
    Files.writeString(certificateFile, pem("CERTIFICATE", certificate.getEncoded()));
    Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded())); // PKCS#8
    return new TransportTls(certificateFile, keyFile, certificateFile); // trusts itself
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
