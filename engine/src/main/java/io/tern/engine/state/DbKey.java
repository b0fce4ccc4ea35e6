package io.tern.engine.state;

/**
 * A key in the state store. Its encoding must sort as the keys should be iterated (RocksDB orders
 * keys bytewise), and a composite key's parts must be self-delimiting so that a prefix of parts is
 * a prefix of bytes.
 */
public interface DbKey extends DbValue {}
