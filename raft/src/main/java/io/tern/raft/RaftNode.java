package io.tern.raft;

import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.AppendResponse;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftMessage.SnapshotResponse;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.RaftMessage.VoteRequest;
import io.tern.raft.RaftMessage.VoteResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * The Raft core of one member of one group, as a pure state machine (etcd-raft's design): no
 * threads, no clock, no network. The driver calls {@link #tick()}, {@link #step(RaftMessage)},
 * {@link #propose(long, byte[])} and {@link #onPersisted(long)}, then collects what to do with
 * {@link #ready()}. Randomness (election timeouts) comes from the injected seeded {@link Random}.
 *
 * <p>Durability rules the driver must keep (see {@link Ready}): a new hard state is durable before
 * messages are sent; {@link #onPersisted(long)} is called only for entries that the flush mode
 * counts as persisted. A follower acknowledges entries only once they are persisted, and the leader
 * counts itself toward the commit quorum only with its persisted index; with a safe flush mode this
 * means no acknowledged entry is lost in any crash.
 */
public final class RaftNode {
  public static final int NO_LEADER = -1;

  private final RaftConfig config;
  private final int selfId;

  /** In force where neither the log nor a snapshot records a configuration. */
  private final Membership bootstrapMembership;

  /** The configuration at each index of the log; the newest is in force (see MembershipLog). */
  private final MembershipLog memberships;

  /** The configuration in force, as this member sees it. */
  private MemberView view;

  /**
   * True while this member could not serve soon if it won (its state machine is far behind): then
   * it campaigns after every member that can. Timing only; votes never look at it.
   */
  private BooleanSupplier electionDeferred = () -> false;

  private final RaftLog log;
  private final SnapshotStore snapshots;
  private final Random random;
  private final List<RaftMessage> outbox = new ArrayList<>();

  private RaftRole role = RaftRole.FOLLOWER;
  private long term;
  private int votedFor;
  private boolean hardStateDirty;
  private int leaderId = NO_LEADER;
  private long commitIndex;
  private long persistedIndex;
  private int electionElapsed;
  private int heartbeatElapsed;
  private int randomizedElectionTimeout;

  // Candidate state.
  private final Map<Integer, Boolean> votes = new HashMap<>();
  private boolean transferElection;

  // Leader state.
  private final Replicas progress;
  private int transferee = NO_LEADER;
  private int transferElapsed;

  // Follower state: how far our log is known to match the current leader's (appends of this term
  // that succeeded), and the highest index we acknowledged to it. We acknowledge min(persisted,
  // matched): only entries that match the leader and are persisted.
  private long matchedLeaderIndex;
  private long acknowledgedIndex;

  // Follower state while receiving a snapshot: which one, and the next chunk it expects.
  private SnapshotMeta receivingSnapshot;
  private int expectedChunk;

  /** Installed since the last ready(); the driver must load it into the state machine. */
  private SnapshotMeta installedSnapshot;

  /**
   * @param group the bootstrap configuration, all voters: the one in force where neither the
   *     snapshot nor the log records one. The same on every member of a group, also on one added
   *     later (which need not be in it: it starts as a non-voter and learns the configuration from
   *     the leader's snapshot or log).
   * @param persistedIndex how far the log is known to be durable at start (its last index after a
   *     restart: what survived is what was flushed)
   * @param commitIndex at least the snapshot's index; entries up to it are known committed
   */
  public RaftNode(
      RaftConfig config,
      int selfId,
      List<Member> group,
      RaftLog log,
      SnapshotStore snapshots,
      HardState hardState,
      long persistedIndex,
      long commitIndex,
      Random random) {
    this.config = config;
    this.log = log;
    this.snapshots = snapshots;
    this.random = random;
    this.selfId = selfId;
    this.progress = new Replicas(config.maxInflightAppends());
    this.bootstrapMembership = Membership.ofVoters(group);
    this.memberships = MembershipLog.recover(bootstrapMembership, log, snapshots.latest());
    this.view = new MemberView(memberships.current(), selfId);
    this.term = hardState.term();
    this.votedFor = hardState.votedFor();
    this.persistedIndex = Math.min(persistedIndex, log.lastIndex());
    this.commitIndex = Math.min(commitIndex, log.lastIndex());
    resetElectionTimer();
  }

  // ---------------------------------------------------------------- inputs

  /** Advances logical time by one tick. */
  public void tick() {
    if (role == RaftRole.LEADER) {
      tickLeader();
    } else {
      tickElection();
    }
  }

  private void tickElection() {
    electionElapsed++;
    if (electionElapsed < randomizedElectionTimeout + deferralTicks()) {
      return;
    }
    resetElectionTimer();
    // A whole timeout without hearing from the leader: it no longer holds a lease on our vote.
    leaderId = NO_LEADER;
    if (view.selfVoter) { // learners and removed members never campaign
      startElection(config.preVote(), false);
    }
  }

  private void tickLeader() {
    heartbeatElapsed++;
    electionElapsed++;
    if (transferee != NO_LEADER && ++transferElapsed >= config.electionTimeoutTicks()) {
      transferee = NO_LEADER; // the transfer did not finish in time; keep leading
    }
    if (electionElapsed >= config.electionTimeoutTicks()) {
      electionElapsed = 0;
      if (config.checkQuorum() && !hasActiveQuorum()) {
        becomeFollower(term, NO_LEADER);
        return;
      }
    }
    if (heartbeatElapsed >= config.heartbeatTicks()) {
      heartbeatElapsed = 0;
      for (int peer : view.peers) {
        heartbeat(peer);
      }
      if (progress.departing() != NO_LEADER) {
        heartbeat(progress.departing());
      }
    }
  }

  private void heartbeat(int peer) {
    progress.get(peer).onHeartbeatTick();
    if (!sendAppend(peer)) {
      sendHeartbeat(peer);
    }
  }

  /**
   * While {@code deferred} answers true, this member gives up its election priority: it times out
   * in a slot after every other member's (plain Raft: one election timeout later), so that a member
   * that can serve at once wins first. For a state machine still replaying a long log after a
   * restart, which as leader would hold up processing until it caught up. Only when it campaigns
   * changes, never how anyone votes: safety and liveness (it still campaigns, only later) are
   * Raft's. Read on every tick, so the deferral ends as soon as the member has caught up.
   */
  public void deferElectionWhile(BooleanSupplier deferred) {
    this.electionDeferred = deferred;
  }

  /** Extra ticks before a deferred member campaigns: past the last priority slot. */
  private int deferralTicks() {
    if (!electionDeferred.getAsBoolean()) {
      return 0;
    }
    int timeout = config.electionTimeoutTicks();
    if (config.priorityElection() && view.distinctPriorities) {
      // The lowest priority times out in slot peers.length at the latest: campaign one slot later.
      int slot = Math.max(1, timeout / 4);
      return (view.voterPeers.length + 1 - view.priorityRank) * slot;
    }
    return timeout; // plain Raft: after [T, 2T), where every other member times out
  }

  /** Feeds one message from a peer. */
  public void step(RaftMessage message) {
    // Messages from members outside our configuration count too: a leader of a newer
    // configuration than ours (we are joining, or lag behind a change), or a candidate whose
    // configuration lists us. A vote from a non-voter is not counted, and answers from members
    // the leader does not replicate to are dropped (see the handlers).
    if (message.to() != selfId) {
      return;
    }
    if (message.term() > term) {
      if (message instanceof VoteRequest request && !request.transfer() && inLeaderLease()) {
        return; // a leader is alive; do not let a disruptive candidate raise our term
      }
      boolean preVoteTraffic =
          (message instanceof VoteRequest voteRequest && voteRequest.preVote())
              || (message instanceof VoteResponse vote && vote.preVote() && vote.granted());
      if (!preVoteTraffic) {
        int newLeader =
            message instanceof AppendRequest || message instanceof SnapshotChunk
                ? message.from()
                : NO_LEADER;
        becomeFollower(message.term(), newLeader);
      }
    } else if (message.term() < term) {
      if (message instanceof AppendRequest || message instanceof SnapshotChunk) {
        // Tell the stale leader about the new term so that it steps down.
        send(new AppendResponse(selfId, message.from(), term, false, 0, 0));
      } else if (message instanceof VoteRequest request && request.preVote()) {
        send(new VoteResponse(selfId, message.from(), term, false, true));
      }
      return;
    }
    if (message instanceof AppendRequest request) {
      onAppendRequest(request);
    } else if (message instanceof AppendResponse response) {
      onAppendResponse(response);
    } else if (message instanceof VoteRequest request) {
      onVoteRequest(request);
    } else if (message instanceof VoteResponse response) {
      onVoteResponse(response);
    } else if (message instanceof TimeoutNow) {
      onTimeoutNow();
    } else if (message instanceof SnapshotChunk chunk) {
      onSnapshotChunk(chunk);
    } else if (message instanceof SnapshotResponse response) {
      onSnapshotResponse(response);
    }
  }

  /**
   * Proposes an application entry. Only a leader that is not transferring leadership accepts.
   *
   * @return the entry's index, or -1 when not accepted (not leader, or transferring)
   */
  public long propose(long asqn, byte[] data) {
    if (role != RaftRole.LEADER || transferee != NO_LEADER) {
      return -1;
    }
    long index = log.lastIndex() + 1;
    log.append(new RaftEntry(index, term, RaftEntry.Type.APPLICATION, asqn, data));
    broadcastAppend();
    maybeCommit();
    return index;
  }

  /**
   * Proposes a change of the group's configuration (see {@link ConfigChange} and docs/raft.md,
   * "Membership changes"). Accepted only by a leader that is not transferring leadership, has
   * committed an entry of its term, and has no earlier change still uncommitted; a promotion only
   * once the learner holds every committed entry. Removing the leader itself starts a leadership
   * transfer to the most caught-up voter instead, to be retried with the new leader. An accepted
   * change is in force on the leader at once: a removed member stops receiving entries, a new
   * learner starts receiving them (from a snapshot if the log it needs is compacted).
   */
  public ConfigChange.Result proposeConfigChange(ConfigChange change) {
    ConfigChange.Status refusal = configChangeRefusal(change);
    if (refusal != null) {
      return new ConfigChange.Result(refusal, -1);
    }
    Membership next = view.membership.apply(change);
    long index = log.lastIndex() + 1;
    appendToLog(RaftEntry.config(index, term, next));
    broadcastAppend();
    maybeCommit();
    return new ConfigChange.Result(ConfigChange.Status.ACCEPTED, index);
  }

  private ConfigChange.Status configChangeRefusal(ConfigChange change) {
    if (role != RaftRole.LEADER) {
      return ConfigChange.Status.NOT_LEADER;
    }
    if (transferee != NO_LEADER) {
      return ConfigChange.Status.TRANSFERRING_LEADERSHIP;
    }
    if (memberships.lastChangeIndex() > commitIndex) {
      return ConfigChange.Status.CHANGE_IN_FLIGHT;
    }
    if (log.term(commitIndex) != term) {
      return ConfigChange.Status.LEADER_NOT_READY;
    }
    int id = change.member().id();
    try {
      view.membership.apply(change);
    } catch (IllegalArgumentException invalid) {
      return ConfigChange.Status.INVALID;
    }
    if (change.kind() == ConfigChange.Kind.PROMOTE && progress.get(id).matchIndex < commitIndex) {
      return ConfigChange.Status.LEARNER_BEHIND;
    }
    if (change.kind() == ConfigChange.Kind.REMOVE && id == selfId) {
      // A leader outside its own configuration would have to lead without counting itself; hand
      // leadership on first instead, and let the next leader remove this member.
      transferLeadership(mostCaughtUpVoter());
      return ConfigChange.Status.TRANSFERRING_LEADERSHIP;
    }
    return null;
  }

  private int mostCaughtUpVoter() {
    int best = NO_LEADER;
    for (int peer : view.voterPeers) {
      if (best == NO_LEADER || progress.get(peer).matchIndex > progress.get(best).matchIndex) {
        best = peer;
      }
    }
    return best;
  }

  /** Appends to the log; a configuration entry is in force from here on (Raft 4.1). */
  private void appendToLog(RaftEntry entry) {
    log.append(entry);
    if (entry.type() == RaftEntry.Type.CONFIG) {
      memberships.appended(entry.index(), entry.membership());
      onMembershipChanged();
    }
  }

  /**
   * The configuration in force changed (appended, truncated away or installed with a snapshot). A
   * leader starts replicating to new members and forgets removed ones; commit counting, elections
   * and check-quorum use the new voters from now on.
   */
  private void onMembershipChanged() {
    int rankBefore = view.priorityRank;
    view = new MemberView(memberships.current(), selfId);
    if (role != RaftRole.LEADER) {
      if (view.priorityRank != rankBefore) {
        // A new priority takes effect in this election timeout already, not one later: the
        // member that became primary is the first to campaign if the leader goes now.
        randomizeElectionTimeout();
      }
      if (!view.selfVoter && role != RaftRole.FOLLOWER) {
        becomeFollower(term, NO_LEADER); // a candidate whose vote-granting configuration is gone
      }
      return;
    }
    if (!view.selfVoter) {
      throw new IllegalStateException(
          "raft: leader " + selfId + " is not a voter of its configuration " + view.membership);
    }
    progress.onMembershipChanged(
        view.membership, view.peers, memberships.lastChangeIndex(), log.lastIndex() + 1);
    if (transferee != NO_LEADER && !view.isVoter(transferee)) {
      transferee = NO_LEADER;
    }
  }

  /** The driver reports that the log is durable (per its flush mode) up to {@code index}. */
  public void onPersisted(long index) {
    long persisted = Math.min(index, log.lastIndex());
    if (persisted <= persistedIndex) {
      return;
    }
    persistedIndex = persisted;
    if (role == RaftRole.LEADER) {
      maybeCommit();
    } else if (leaderId != NO_LEADER
        && Math.min(persistedIndex, matchedLeaderIndex) > acknowledgedIndex) {
      acknowledge(leaderId);
    }
  }

  /**
   * Starts moving leadership to {@code target}: catch it up, then tell it to campaign at once.
   *
   * @return false if this member is not the leader or {@code target} is not a peer
   */
  public boolean transferLeadership(int target) {
    if (role != RaftRole.LEADER || target == selfId || !view.isVoter(target)) {
      return false;
    }
    transferee = target;
    transferElapsed = 0;
    if (progress.get(target).matchIndex == log.lastIndex()) {
      send(new TimeoutNow(selfId, target, term));
    } else {
      sendAppend(target);
    }
    return true;
  }

  /**
   * The state machine made a snapshot of everything up to {@code snapshotIndex} (committed, and
   * stored in the {@link SnapshotStore}); entries up to {@code compactUpTo} may go. Keeping a tail
   * below the snapshot index lets followers that are slightly behind catch up from the log.
   */
  public void onSnapshotTaken(long snapshotIndex, long compactUpTo) {
    if (snapshotIndex > commitIndex || compactUpTo > snapshotIndex) {
      throw new IllegalArgumentException(
          "raft: snapshot at "
              + snapshotIndex
              + " (compacting up to "
              + compactUpTo
              + ") must not be beyond the commit index "
              + commitIndex);
    }
    long snapshotTerm = log.term(snapshotIndex);
    if (snapshotTerm < 1) {
      throw new IllegalArgumentException(
          "raft: snapshot index " + snapshotIndex + " is no longer in the log");
    }
    log.compact(snapshotIndex, snapshotTerm, compactUpTo);
    memberships.compactedTo(snapshotIndex);
  }

  /**
   * The configuration in force at {@code index}, for a snapshot taken there: from the latest
   * snapshot's index on (what the log has not compacted).
   */
  public Membership membershipAt(long index) {
    return memberships.at(index);
  }

  /** The configuration in force on this member: the newest in its log, committed or not. */
  public Membership membership() {
    return view.membership;
  }

  /** Whether the configuration in force is not committed yet (no other change is accepted). */
  public boolean configChangePending() {
    return memberships.lastChangeIndex() > commitIndex;
  }

  /** Collects what the driver must do now; see {@link Ready}. */
  public Ready ready() {
    HardState hardState = hardStateDirty ? new HardState(term, votedFor) : null;
    hardStateDirty = false;
    List<RaftMessage> messages = outbox.isEmpty() ? List.of() : List.copyOf(outbox);
    outbox.clear();
    long persistUpTo = log.lastIndex() > persistedIndex ? log.lastIndex() : -1;
    SnapshotMeta snapshot = installedSnapshot;
    installedSnapshot = null;
    return new Ready(
        hardState,
        messages,
        persistUpTo,
        commitIndex,
        term,
        role,
        leaderId,
        snapshot,
        view.membership,
        configChangePending());
  }

  // ---------------------------------------------------------------- elections

  private void startElection(boolean preVote, boolean transfer) {
    votes.clear();
    transferElection = transfer;
    long electionTerm = term + 1;
    if (preVote) {
      role = RaftRole.PRE_CANDIDATE;
      leaderId = NO_LEADER;
    } else {
      role = RaftRole.CANDIDATE;
      term = electionTerm;
      votedFor = selfId;
      leaderId = NO_LEADER;
      hardStateDirty = true;
    }
    votes.put(selfId, true);
    if (hasQuorum(votes)) {
      onElectionWon(preVote);
      return;
    }
    for (int peer : view.voterPeers) {
      send(
          new VoteRequest(
              selfId, peer, electionTerm, log.lastIndex(), log.lastTerm(), preVote, transfer));
    }
  }

  private void onElectionWon(boolean preVote) {
    if (preVote) {
      startElection(false, transferElection);
    } else {
      becomeLeader();
    }
  }

  private void onVoteRequest(VoteRequest request) {
    boolean logOk =
        request.lastTerm() > log.lastTerm()
            || (request.lastTerm() == log.lastTerm() && request.lastIndex() >= log.lastIndex());
    boolean canVote =
        request.preVote()
            ? request.term() > term || votedFor == HardState.NO_VOTE || votedFor == request.from()
            : votedFor == request.from()
                || (votedFor == HardState.NO_VOTE && leaderId == NO_LEADER);
    boolean granted = logOk && canVote;
    if (granted && !request.preVote()) {
      votedFor = request.from();
      hardStateDirty = true;
      electionElapsed = 0;
    }
    long responseTerm = request.preVote() ? request.term() : term;
    send(
        new VoteResponse(
            selfId, request.from(), granted ? responseTerm : term, granted, request.preVote()));
  }

  private void onVoteResponse(VoteResponse response) {
    boolean expected =
        response.preVote()
            ? role == RaftRole.PRE_CANDIDATE
            : role == RaftRole.CANDIDATE && response.term() == term;
    if (!expected) {
      return;
    }
    if (!view.isVoter(response.from())) {
      return; // only our configuration's voters elect us
    }
    votes.putIfAbsent(response.from(), response.granted());
    if (hasQuorum(votes)) {
      onElectionWon(response.preVote());
    } else if (hasQuorumAgainst(votes)) {
      becomeFollower(term, NO_LEADER);
    }
  }

  private void onTimeoutNow() {
    if (role == RaftRole.FOLLOWER && view.selfVoter) {
      startElection(false, true);
    }
  }

  /** A recent leader is alive; with check-quorum, ignore requests to vote in a newer term. */
  private boolean inLeaderLease() {
    return config.checkQuorum()
        && leaderId != NO_LEADER
        && electionElapsed < config.electionTimeoutTicks();
  }

  private void becomeFollower(long newTerm, int newLeader) {
    if (newTerm > term) {
      term = newTerm;
      votedFor = HardState.NO_VOTE;
      hardStateDirty = true;
    }
    role = RaftRole.FOLLOWER;
    leaderId = newLeader;
    transferee = NO_LEADER;
    progress.clear();
    matchedLeaderIndex = 0;
    acknowledgedIndex = 0;
    resetElectionTimer();
  }

  private void becomeLeader() {
    if (receivingSnapshot != null) {
      receivingSnapshot = null; // a leader receives no snapshots
      snapshots.abortReceive();
    }
    if (!view.selfVoter) {
      throw new IllegalStateException(
          "raft: " + selfId + " won an election outside its voters " + view.membership);
    }
    role = RaftRole.LEADER;
    leaderId = selfId;
    transferee = NO_LEADER;
    heartbeatElapsed = 0;
    electionElapsed = 0;
    progress.reset(view.peers, log.lastIndex() + 1);
    // A no-op of the new term lets the leader commit entries of earlier terms (Raft 5.4.2).
    appendToLog(RaftEntry.noop(log.lastIndex() + 1, term));
    broadcastAppend();
    maybeCommit();
  }

  /**
   * Plain Raft randomizes the timeout over [T, 2T). With priority election the timeout is staggered
   * by rank instead: the primary times out in [T, T + T/4), the next priority a quarter timeout
   * later, and so on, so a member campaigns only after every higher-priority member had a slot of
   * its own to win (Zeebe's rule), and failover still takes well under two timeouts when the
   * primary dies. Members of equal priority share a slot and are separated by its jitter.
   */
  private void resetElectionTimer() {
    electionElapsed = 0;
    randomizeElectionTimeout();
  }

  private void randomizeElectionTimeout() {
    int timeout = config.electionTimeoutTicks();
    if (config.priorityElection() && view.distinctPriorities) {
      int slot = Math.max(1, timeout / 4);
      randomizedElectionTimeout = timeout + view.priorityRank * slot + random.nextInt(slot);
    } else {
      randomizedElectionTimeout = timeout + random.nextInt(timeout);
    }
  }

  // ---------------------------------------------------------------- replication

  private void onAppendRequest(AppendRequest request) {
    if (role != RaftRole.FOLLOWER) {
      becomeFollower(term, request.from());
    }
    leaderId = request.from();
    electionElapsed = 0;
    if (request.prevIndex() < commitIndex) {
      // Everything up to our commit index matches any leader's log (leader completeness).
      abandonSnapshotReceive(request);
      matchedLeaderIndex = Math.max(matchedLeaderIndex, commitIndex);
      acknowledge(request.from());
      return;
    }
    if (log.term(request.prevIndex()) != request.prevTerm()) {
      send(
          new AppendResponse(
              selfId, request.from(), term, false, request.prevIndex(), rejectHint(request)));
      return;
    }
    abandonSnapshotReceive(request);
    for (RaftEntry entry : request.entries()) {
      if (entry.index() <= log.lastIndex()) {
        if (log.term(entry.index()) == entry.term()) {
          continue;
        }
        if (entry.index() <= commitIndex) {
          throw new IllegalStateException(
              "Raft safety violated: leader "
                  + request.from()
                  + " conflicts with committed entry "
                  + entry.index()
                  + " on member "
                  + selfId);
        }
        log.truncateAfter(entry.index() - 1);
        persistedIndex = Math.min(persistedIndex, entry.index() - 1);
        acknowledgedIndex = Math.min(acknowledgedIndex, entry.index() - 1);
        if (memberships.truncatedAfter(entry.index() - 1)) {
          onMembershipChanged(); // the configuration entry we dropped is no longer in force
        }
      }
      appendToLog(entry);
    }
    long lastNew = request.lastIndex();
    long newCommit = Math.min(request.commitIndex(), lastNew);
    if (newCommit > commitIndex) {
      commitIndex = newCommit;
    }
    matchedLeaderIndex = Math.max(matchedLeaderIndex, lastNew);
    if (persistedIndex >= lastNew || request.entries().isEmpty()) {
      acknowledge(request.from());
    }
    // else: onPersisted() acknowledges once the entries are durable
  }

  /**
   * An append with entries that matches our log means the leader replicates its log to us, so a
   * snapshot we were receiving is no longer coming (a new leader that has the entries, or a leader
   * that took a newer snapshot and found we need none). Without this the partial snapshot would
   * hold its disk space until the next transfer. Heartbeats, which a leader also sends while it
   * streams a snapshot, do not count.
   */
  private void abandonSnapshotReceive(AppendRequest request) {
    if (receivingSnapshot != null && !request.entries().isEmpty()) {
      receivingSnapshot = null;
      snapshots.abortReceive();
    }
  }

  private void acknowledge(int leader) {
    long index = Math.min(persistedIndex, matchedLeaderIndex);
    acknowledgedIndex = Math.max(acknowledgedIndex, index);
    send(new AppendResponse(selfId, leader, term, true, index, 0));
  }

  /**
   * Where the leader should retry: at most our last index, and skipping back over entries whose
   * term is newer than the leader's prevTerm (they cannot match), never below the commit index.
   */
  private long rejectHint(AppendRequest request) {
    long hint = Math.min(request.prevIndex(), log.lastIndex());
    while (hint > commitIndex && log.term(hint) > request.prevTerm()) {
      hint--;
    }
    return hint;
  }

  private void onAppendResponse(AppendResponse response) {
    if (role != RaftRole.LEADER) {
      return;
    }
    Progress pr = progress.get(response.from());
    if (pr == null) {
      return; // from a member we no longer replicate to (removed)
    }
    pr.recentActive = true;
    if (response.success()) {
      if (pr.acknowledge(response.index())) {
        maybeCommit();
        if (progress.departedOnAcknowledgement(response.from())) {
          return;
        }
      }
      if (response.from() == transferee && pr.matchIndex == log.lastIndex()) {
        send(new TimeoutNow(selfId, transferee, term));
      }
    } else if (!pr.reject(response.index(), response.hint())) {
      return;
    }
    while (pr.canSend() && sendAppend(response.from())) {
      // keep the pipeline full
    }
  }

  private void broadcastAppend() {
    for (int peer : view.peers) {
      sendAppend(peer);
    }
    if (progress.departing() != NO_LEADER) {
      sendAppend(progress.departing());
    }
  }

  /** Sends entries from the follower's next index if the pipeline allows; false if none sent. */
  private boolean sendAppend(int peer) {
    Progress pr = progress.get(peer);
    if (pr.state == Progress.State.SNAPSHOT) {
      return sendSnapshotChunk(peer, pr);
    }
    if (!pr.canSend()) {
      return false;
    }
    long prevIndex = pr.nextIndex - 1;
    long prevTerm = log.term(prevIndex);
    if (prevTerm < 0 && prevIndex > log.lastIndex()) {
      // The follower acknowledged entries we no longer have: an unsafe flush mode lost them
      // here. Probe from our own log's end.
      pr.becomeProbe();
      return false;
    }
    if (prevTerm < 0) {
      // Compacted away: the follower needs the snapshot.
      SnapshotMeta latest = snapshots.latest();
      if (latest == null) {
        throw new IllegalStateException(
            "raft: entry " + prevIndex + " was compacted but there is no snapshot to send");
      }
      pr.becomeSnapshot(latest);
      return sendSnapshotChunk(peer, pr);
    }
    if (pr.state == Progress.State.PROBE) {
      // Far behind the latest snapshot (a replica that joins empty, one back from a long outage):
      // installing the state beats sending it every entry to apply, which for a large state held
      // in few entries is the whole log the compaction tail and whole-segment deletion keep.
      SnapshotMeta latest = snapshots.latest();
      if (latest != null && latest.index() - prevIndex > config.preferSnapshotThresholdEntries()) {
        pr.becomeSnapshot(latest);
        return sendSnapshotChunk(peer, pr);
      }
    }
    boolean hasEntries = pr.nextIndex <= log.lastIndex();
    if (!hasEntries && pr.state == Progress.State.REPLICATE) {
      return false;
    }
    List<RaftEntry> entries =
        hasEntries ? log.entries(pr.nextIndex, config.maxAppendBatchBytes()) : List.of();
    send(
        new AppendRequest(
            selfId,
            peer,
            term,
            prevIndex,
            prevTerm,
            entries,
            Math.min(commitIndex, prevIndex + entries.size())));
    pr.sent(prevIndex + entries.size());
    return true;
  }

  private boolean sendSnapshotChunk(int peer, Progress pr) {
    if (!pr.canSend()) {
      return false;
    }
    SnapshotMeta meta = pr.snapshot;
    SnapshotStore.Chunk chunk = snapshots.readChunk(meta, pr.nextChunk);
    if (chunk == null) {
      // A newer snapshot replaced it: probe again, which leads to the newer one if still needed.
      pr.becomeProbe();
      return false;
    }
    send(
        new SnapshotChunk(
            selfId,
            peer,
            term,
            meta.index(),
            meta.term(),
            meta.checksum(),
            pr.nextChunk,
            meta.chunkCount(),
            chunk.fileName(),
            chunk.fileOffset(),
            chunk.data(),
            chunk.crc32c(),
            meta.membership()));
    pr.chunkSent();
    return true;
  }

  private void onSnapshotResponse(SnapshotResponse response) {
    if (role != RaftRole.LEADER) {
      return;
    }
    Progress pr = progress.get(response.from());
    if (pr == null) {
      return; // from a member we no longer replicate to (removed)
    }
    pr.recentActive = true;
    if (pr.state != Progress.State.SNAPSHOT || pr.snapshot.index() != response.snapshotIndex()) {
      return; // an answer about a snapshot we are no longer sending
    }
    if (response.installed()) {
      pr.snapshotInstalled(response.snapshotIndex());
      maybeCommit();
      if (progress.departedOnAcknowledgement(response.from())) {
        return;
      }
      if (response.from() == transferee && pr.matchIndex == log.lastIndex()) {
        send(new TimeoutNow(selfId, transferee, term));
      }
    } else {
      pr.chunksAcknowledged(response.nextChunkIndex());
    }
    while (pr.canSend() && sendAppend(response.from())) {
      // keep the window full
    }
  }

  private void onSnapshotChunk(SnapshotChunk chunk) {
    if (role != RaftRole.FOLLOWER) {
      becomeFollower(term, chunk.from());
    }
    leaderId = chunk.from();
    electionElapsed = 0;
    if (chunk.snapshotIndex() <= commitIndex
        || log.term(chunk.snapshotIndex()) == chunk.snapshotTerm()) {
      // Our log already holds the snapshot's last entry, so it matches the leader's log up to
      // there (log matching), and that entry is committed (snapshots hold only committed
      // entries). Keep the log: entries after the snapshot may be committed too. Resetting it
      // would lose them; a member restarted with commitIndex 0 gets here from a stale chunk.
      commitIndex = Math.max(commitIndex, chunk.snapshotIndex());
      // Confirm once durable; until then the leader's retry brings us back here.
      if (persistedIndex >= chunk.snapshotIndex()) {
        matchedLeaderIndex = Math.max(matchedLeaderIndex, chunk.snapshotIndex());
        respondSnapshot(chunk, chunk.chunkCount(), true);
      }
      return;
    }
    SnapshotMeta meta =
        new SnapshotMeta(
            chunk.snapshotIndex(),
            chunk.snapshotTerm(),
            chunk.snapshotChecksum(),
            chunk.chunkCount(),
            chunk.membership());
    if (!meta.equals(receivingSnapshot)) {
      if (chunk.chunkIndex() != 0) {
        respondSnapshot(chunk, 0, false); // start over: we hold nothing of this snapshot
        return;
      }
      snapshots.beginReceive(meta);
      receivingSnapshot = meta;
      expectedChunk = 0;
    }
    if (chunk.chunkIndex() != expectedChunk
        || !snapshots.writeChunk(
            meta,
            expectedChunk,
            new SnapshotStore.Chunk(
                chunk.fileName(), chunk.fileOffset(), chunk.data(), chunk.crc32c()))) {
      respondSnapshot(chunk, expectedChunk, false); // a gap, a duplicate or a damaged chunk
      return;
    }
    expectedChunk++;
    if (!chunk.last()) {
      respondSnapshot(chunk, expectedChunk, false);
      return;
    }
    receivingSnapshot = null;
    if (!snapshots.completeReceive(meta)) {
      respondSnapshot(chunk, 0, false); // failed verification; the leader starts over
      return;
    }
    installSnapshot(meta);
    respondSnapshot(chunk, chunk.chunkCount(), true);
  }

  /** The snapshot replaces the whole log: entries after it did not match the leader's. */
  private void installSnapshot(SnapshotMeta meta) {
    log.reset(meta.index(), meta.term());
    memberships.reset(
        meta.index(), meta.membership() != null ? meta.membership() : bootstrapMembership);
    onMembershipChanged();
    commitIndex = meta.index();
    persistedIndex = meta.index();
    matchedLeaderIndex = meta.index();
    acknowledgedIndex = meta.index();
    installedSnapshot = meta;
  }

  private void respondSnapshot(SnapshotChunk chunk, int nextChunkIndex, boolean installed) {
    send(
        new SnapshotResponse(
            selfId, chunk.from(), term, chunk.snapshotIndex(), nextChunkIndex, installed));
  }

  /** An empty append at the follower's match index: proves leadership without a log check. */
  private void sendHeartbeat(int peer) {
    Progress pr = progress.get(peer);
    long prevIndex = pr.matchIndex;
    long prevTerm = log.term(prevIndex);
    if (prevTerm < 0) {
      // The follower's match was compacted away. While a snapshot streams to it, its chunk
      // answers keep it in touch (and an answer to anything else would hide lost chunks from
      // onHeartbeatTick). But a follower probing for a snapshot the store withholds (a damaged
      // file) would hear nothing and campaign: send it an append at the snapshot, whose term is
      // always known (also after a restart), which it rejects, learning who leads.
      SnapshotMeta latest = snapshots.latest();
      if (pr.state != Progress.State.PROBE || latest == null) {
        return;
      }
      prevIndex = latest.index();
      prevTerm = latest.term();
    }
    send(
        new AppendRequest(
            selfId, peer, term, prevIndex, prevTerm, List.of(), Math.min(commitIndex, prevIndex)));
  }

  private void maybeCommit() {
    // Voters only: a learner's copy does not count (it may not have caught up when promoted, and
    // it does not vote, so it does not help a future leader hold the entry).
    long[] matched = view.matchedScratch;
    matched[0] = persistedIndex;
    int[] voters = view.voterPeers;
    for (int i = 0; i < voters.length; i++) {
      matched[i + 1] = progress.get(voters[i]).matchIndex;
    }
    Arrays.sort(matched);
    long quorumIndex = matched[matched.length - view.quorum()];
    // Only entries of the current term commit by counting replicas (Raft 5.4.2).
    if (quorumIndex > commitIndex && log.term(quorumIndex) == term) {
      commitIndex = quorumIndex;
    }
  }

  private boolean hasActiveQuorum() {
    int active = 1;
    for (int peer : view.peers) {
      Progress pr = progress.get(peer);
      if (pr.recentActive && view.isVoter(peer)) {
        active++;
      }
      pr.recentActive = false;
    }
    return active >= view.quorum();
  }

  private boolean hasQuorum(Map<Integer, Boolean> ballots) {
    return ballots.values().stream().filter(b -> b).count() >= view.quorum();
  }

  private boolean hasQuorumAgainst(Map<Integer, Boolean> ballots) {
    return ballots.values().stream().filter(b -> !b).count() >= view.quorum();
  }

  private void send(RaftMessage message) {
    outbox.add(message);
  }

  // ---------------------------------------------------------------- queries

  public RaftRole role() {
    return role;
  }

  public long term() {
    return term;
  }

  public int leaderId() {
    return leaderId;
  }

  public long commitIndex() {
    return commitIndex;
  }

  public long persistedIndex() {
    return persistedIndex;
  }

  public int id() {
    return selfId;
  }

  public long lastIndex() {
    return log.lastIndex();
  }

  /** The other members of the configuration in force, voters and learners, by id. */
  public int[] peers() {
    return view.peers.clone();
  }

  /** As leader: how far {@code peer}'s log is known to match ours; -1 when not leading. */
  public long matchIndex(int peer) {
    Progress pr = role == RaftRole.LEADER ? progress.get(peer) : null;
    return pr == null ? -1 : pr.matchIndex;
  }

  /**
   * What this member knows of replication, for diagnosing a stall: its own log and commit, and as
   * leader each follower's progress (probe, replicate or snapshot with the chunk window), as
   * follower the snapshot it is receiving.
   */
  public String describeReplication() {
    StringBuilder text =
        new StringBuilder()
            .append(role)
            .append(" term=")
            .append(term)
            .append(" commit=")
            .append(commitIndex)
            .append(" persisted=")
            .append(persistedIndex)
            .append(" log=[")
            .append(log.firstIndex())
            .append("..")
            .append(log.lastIndex())
            .append(']');
    if (role == RaftRole.LEADER) {
      progress
          .byMember()
          .forEach((peer, pr) -> text.append(" peer ").append(peer).append(": ").append(pr));
    } else if (receivingSnapshot != null) {
      text.append(" receiving snapshot ")
          .append(receivingSnapshot.index())
          .append('@')
          .append(receivingSnapshot.term())
          .append(" expecting chunk ")
          .append(expectedChunk)
          .append('/')
          .append(receivingSnapshot.chunkCount());
    }
    return text.toString();
  }

  @Override
  public String toString() {
    return "RaftNode{"
        + selfId
        + " "
        + role
        + " term="
        + term
        + " last="
        + log.lastIndex()
        + " commit="
        + commitIndex
        + " persisted="
        + persistedIndex
        + "}";
  }
}
