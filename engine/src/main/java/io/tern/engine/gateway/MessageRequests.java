package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageResponse;
import io.grpc.stub.StreamObserver;
import io.tern.engine.workflow.Partitions;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.MessageIntent;
import io.tern.engine.workflow.value.MessageValue;

/**
 * The gateway's message request: publishing a message on the partition its correlation key belongs
 * to, where it waits (up to its time to live) for subscriptions to correlate with.
 */
final class MessageRequests {
  private final GatewayCommands commands;

  MessageRequests(GatewayCommands commands) {
    this.commands = commands;
  }

  void publishMessage(
      PublishMessageRequest request, StreamObserver<PublishMessageResponse> observer) {
    MessageValue message = new MessageValue();
    message.name = request.getName();
    message.correlationKey = request.getCorrelationKey();
    message.timeToLiveMs = request.getTimeToLive();
    message.messageId = request.getMessageId();
    message.variables = Conversions.json(request.getVariables());
    commands.unary(
        "PublishMessage",
        Partitions.ofCorrelationKey(request.getCorrelationKey(), commands.partitionsCount()),
        ValueTypes.MESSAGE,
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
}
