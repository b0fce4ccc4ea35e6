package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BroadcastSignalRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BroadcastSignalResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageResponse;
import io.grpc.stub.StreamObserver;
import io.tern.engine.gateway.rest.MessageCorrelation;
import io.tern.engine.protocol.MessageCorrelationIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.workflow.Partitions;
import io.tern.engine.workflow.value.MessageCorrelationValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.SignalValue;

/**
 * The gateway's message and signal requests: publishing a message on the partition its correlation
 * key belongs to, where it waits (up to its time to live) for subscriptions to correlate with;
 * correlating one there, answered once the instance that took it is known (or that none did); and
 * broadcasting a signal from partition 1 (which starts the instances of signal start events and
 * sends the signal on to every other partition).
 */
final class MessageRequests {
  /** Signal start events start instances there; the broadcast reaches the others from it. */
  private static final int SIGNAL_PARTITION = 1;

  private final GatewayCommands commands;

  MessageRequests(GatewayCommands commands) {
    this.commands = commands;
  }

  void publishMessage(
      PublishMessageRequest request, StreamObserver<PublishMessageResponse> observer) {
    if (RequestTexts.tooLong(observer, "PublishMessage", "the name", request.getName())
        || RequestTexts.tooLong(
            observer, "PublishMessage", "the correlation key", request.getCorrelationKey())
        || RequestTexts.tooLong(
            observer, "PublishMessage", "the message id", request.getMessageId())) {
      return;
    }
    MessageValue message = new MessageValue();
    message.name = request.getName();
    message.correlationKey = request.getCorrelationKey();
    message.timeToLiveMs = request.getTimeToLive();
    message.messageId = request.getMessageId();
    message.variables = Conversions.json(request.getVariables());
    commands.unary(
        "PublishMessage",
        Partitions.ofCorrelationKey(request.getCorrelationKey(), commands.partitionsCount()),
        MessageIntent.PUBLISH,
        -1,
        message,
        observer,
        answer ->
            PublishMessageResponse.newBuilder()
                .setKey(answer.key())
                .setTenantId(Conversions.DEFAULT_TENANT)
                .build());
  }

  void correlateMessage(
      MessageCorrelation.Request request, StreamObserver<MessageCorrelation.Correlated> observer) {
    if (RequestTexts.tooLong(observer, "CorrelateMessage", "the name", request.name())
        || RequestTexts.tooLong(
            observer, "CorrelateMessage", "the correlation key", request.correlationKey())) {
      return;
    }
    MessageCorrelationValue message = new MessageCorrelationValue();
    message.name = request.name();
    message.correlationKey = request.correlationKey();
    message.variables = Conversions.json(request.variables());
    commands.unary(
        "CorrelateMessage",
        Partitions.ofCorrelationKey(request.correlationKey(), commands.partitionsCount()),
        MessageCorrelationIntent.CORRELATE,
        -1,
        message,
        observer,
        answer -> {
          MessageCorrelationValue correlated =
              GatewayCommands.read(new MessageCorrelationValue(), answer);
          return new MessageCorrelation.Correlated(
              correlated.messageKey, Conversions.DEFAULT_TENANT, correlated.processInstanceKey);
        });
  }

  void broadcastSignal(
      BroadcastSignalRequest request, StreamObserver<BroadcastSignalResponse> observer) {
    if (RequestTexts.tooLong(
        observer, "BroadcastSignal", "the signal name", request.getSignalName())) {
      return;
    }
    SignalValue signal = new SignalValue();
    signal.signalName = request.getSignalName();
    signal.variables = Conversions.json(request.getVariables());
    commands.unary(
        "BroadcastSignal",
        SIGNAL_PARTITION,
        SignalIntent.BROADCAST,
        -1,
        signal,
        observer,
        answer ->
            BroadcastSignalResponse.newBuilder()
                .setKey(answer.key())
                .setTenantId(Conversions.DEFAULT_TENANT)
                .build());
  }
}
