package io.tern.engine.broker;

import io.tern.engine.cluster.BrokerMessages.MembershipAnswer;
import io.tern.engine.cluster.BrokerMessages.MembershipRequest;
import io.tern.engine.cluster.ClusterClient;
import io.tern.raft.ConfigChange;
import io.tern.raft.Member;
import io.tern.raft.Membership;
import io.tern.raft.RaftRole;
import io.tern.raft.server.RaftPartition;
import io.tern.raft.server.RaftServer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Reads and changes partitions' Raft membership for the scaling coordinator: on a partition led
 * here directly ({@link #local}), else on its leader's broker over the command API ({@link
 * #route}).
 */
final class PartitionMembership {
  private final RaftServer raft;
  private final ClusterClient cluster;

  PartitionMembership(RaftServer raft, ClusterClient cluster) {
    this.raft = raft;
    this.cluster = cluster;
  }

  /** Sends {@code request} to its partition's leader, wherever it is. */
  CompletableFuture<MembershipAnswer> route(MembershipRequest request) {
    RaftPartition partition = raft.partition(request.partitionId());
    if (partition != null && partition.role() == RaftRole.LEADER) {
      return local(request);
    }
    int leader = cluster.leaderOf(request.partitionId());
    if (leader < 0) {
      return CompletableFuture.completedFuture(MembershipAnswer.notLeader());
    }
    return cluster.membership(leader, request, io.tern.engine.scaling.Coordinator.CALL_TIMEOUT_MS);
  }

  /** Answers {@code request} for a partition led here; NOT_LEADER if it is not. */
  CompletableFuture<MembershipAnswer> local(MembershipRequest request) {
    RaftPartition partition = raft.partition(request.partitionId());
    if (partition == null || partition.role() != RaftRole.LEADER) {
      return CompletableFuture.completedFuture(MembershipAnswer.notLeader());
    }
    ConfigChange change =
        switch (request.kind()) {
          case MembershipRequest.ADD_LEARNER ->
              ConfigChange.addLearner(new Member(request.memberId(), request.priority()));
          case MembershipRequest.PROMOTE -> ConfigChange.promote(request.memberId());
          case MembershipRequest.REMOVE -> ConfigChange.remove(request.memberId());
          case MembershipRequest.SET_PRIORITY ->
              ConfigChange.setPriority(request.memberId(), request.priority());
          case MembershipRequest.QUERY -> null;
          default ->
              throw new IllegalArgumentException("unknown membership request " + request.kind());
        };
    CompletableFuture<String> status =
        change == null
            ? CompletableFuture.completedFuture("QUERIED")
            : partition.changeMembership(change).thenApply(result -> result.status().name());
    return status.thenCompose(
        done -> partition.membershipView(request.memberId()).thenApply(view -> answer(done, view)));
  }

  private static MembershipAnswer answer(String status, RaftPartition.MembershipView view) {
    if (!view.leading()) {
      return MembershipAnswer.notLeader();
    }
    Membership membership = view.membership();
    Map<Integer, Integer> priorities = new TreeMap<>();
    membership.voters().forEach(member -> priorities.put(member.id(), member.priority()));
    membership.learners().forEach(member -> priorities.put(member.id(), member.priority()));
    return new MembershipAnswer(
        status,
        ids(membership.voters()),
        ids(membership.learners()),
        view.pending(),
        view.peerMatchIndex(),
        view.commitIndex(),
        priorities);
  }

  private static List<Integer> ids(List<Member> members) {
    return members.stream().map(Member::id).toList();
  }
}
