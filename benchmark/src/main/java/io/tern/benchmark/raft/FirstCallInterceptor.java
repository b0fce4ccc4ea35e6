package io.tern.benchmark.raft;

import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;

/**
 * Records when a Ratis member first receives a gRPC call whose method name ends with a given name
 * (Ratis' gRPC services are its only hook that sees a snapshot install start on the follower).
 */
final class FirstCallInterceptor implements ServerInterceptor {
  private final String methodSuffix;
  private final AtomicLongArray firstCallNs;
  private final int slot;

  FirstCallInterceptor(String methodSuffix, AtomicLongArray firstCallNs, int slot) {
    this.methodSuffix = "/" + methodSuffix;
    this.firstCallNs = firstCallNs;
    this.slot = slot;
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    if (call.getMethodDescriptor().getFullMethodName().endsWith(methodSuffix)) {
      firstCallNs.compareAndSet(slot, 0, System.nanoTime());
    }
    return next.startCall(call, headers);
  }
}
