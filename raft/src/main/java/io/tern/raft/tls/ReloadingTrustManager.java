package io.tern.raft.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Checks peers against the trusted certificates of the newest good reading of {@link
 * ReloadingCredentials}' files. The JDK's manager behind it does the work: chain, validity dates,
 * and the server's host name when the client's engine asks for endpoint identification.
 */
final class ReloadingTrustManager extends X509ExtendedTrustManager {
  private final ReloadingCredentials credentials;

  ReloadingTrustManager(ReloadingCredentials credentials) {
    this.credentials = credentials;
  }

  private X509ExtendedTrustManager current() {
    return credentials.current().trustManager();
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    current().checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    current().checkServerTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    current().checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    current().checkServerTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    current().checkClientTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    current().checkServerTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return current().getAcceptedIssuers();
  }
}
