package io.tern.raft.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents the certificate of the newest good reading of {@link ReloadingCredentials}' files. A
 * handshake first chooses an alias, then asks for its chain and key: each reading has its own
 * alias, and the previous reading is still asked, so a handshake that straddles a reload gets the
 * chain and key it chose, never the new key with the old chain.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {
  private final ReloadingCredentials credentials;
  private volatile X509ExtendedKeyManager previous;

  ReloadingKeyManager(ReloadingCredentials credentials) {
    this.credentials = credentials;
  }

  void retire(X509ExtendedKeyManager replaced) {
    previous = replaced;
  }

  private X509ExtendedKeyManager current() {
    return credentials.current().keyManager();
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return current().getClientAliases(keyType, issuers);
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return current().chooseClientAlias(keyType, issuers, socket);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return current().chooseEngineClientAlias(keyType, issuers, engine);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return current().getServerAliases(keyType, issuers);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return current().chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return current().chooseEngineServerAlias(keyType, issuers, engine);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    X509Certificate[] chain = current().getCertificateChain(alias);
    X509ExtendedKeyManager old = previous;
    return chain != null || old == null ? chain : old.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    PrivateKey key = current().getPrivateKey(alias);
    X509ExtendedKeyManager old = previous;
    return key != null || old == null ? key : old.getPrivateKey(alias);
  }
}
