package io.tern.engine.protocol;

/**
 * {@link ValueType#MESSAGE_CORRELATION}: a message published to be taken now or never. CORRELATING
 * while its offers to subscriptions on other partitions await their answer; CORRELATED names the
 * instance that took it (the first to); NOT_CORRELATED when every offer was refused.
 */
public enum MessageCorrelationIntent implements Intent {
  CORRELATE(0),
  CORRELATING(1),
  CORRELATED(2),
  NOT_CORRELATED(3);

  private final int code;

  MessageCorrelationIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.MESSAGE_CORRELATION;
  }

  @Override
  public int code() {
    return code;
  }
}
