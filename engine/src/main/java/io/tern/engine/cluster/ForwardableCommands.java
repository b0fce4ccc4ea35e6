package io.tern.engine.cluster;

import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageCorrelationIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.SignalValue;
import java.util.HashSet;
import java.util.Set;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The commands a gateway may forward to a partition over the command API: exactly the client
 * commands the gateway (io.tern.engine.gateway) and its job streams produce. Anything else is an
 * internal command (between partitions, deployment distribution, acknowledgements, timers, job
 * time-outs), which a partition accepts only from a broker ({@link BrokerIdentity}).
 *
 * <p>A gateway waits for the answer of every client command, so that each one passes the
 * partition's backpressure; only the job it could not hand to a worker (JOB YIELD) is sent without
 * waiting. A caller that is not a broker may therefore skip the answer of that one command only.
 * ForwardableCommandsTest reads the gateway's sources, so that a new client command cannot be
 * forgotten here.
 */
public final class ForwardableCommands {
  private static final Set<Intent> ANSWERED =
      Set.of(
          DeploymentIntent.CREATE,
          ResourceDeletionIntent.DELETE,
          DecisionEvaluationIntent.EVALUATE,
          CreationIntent.CREATE,
          CreationIntent.CREATE_WITH_AWAITING_RESULT,
          ProcessInstanceIntent.CANCEL,
          ModificationIntent.MODIFY,
          MigrationIntent.MIGRATE,
          VariableDocumentIntent.UPDATE,
          IncidentIntent.RESOLVE,
          JobBatchIntent.ACTIVATE,
          JobIntent.COMPLETE,
          JobIntent.FAIL,
          JobIntent.THROW_ERROR,
          JobIntent.UPDATE_RETRIES,
          JobIntent.UPDATE_TIMEOUT,
          MessageIntent.PUBLISH,
          SignalIntent.BROADCAST,
          MessageCorrelationIntent.CORRELATE,
          UserTaskIntent.ASSIGN,
          UserTaskIntent.CLAIM,
          UserTaskIntent.UPDATE,
          UserTaskIntent.COMPLETE);

  /** Sent by a gateway without waiting: a pushed job no worker could take goes back. */
  private static final Set<Intent> UNANSWERED = Set.of(JobIntent.YIELD);

  private ForwardableCommands() {}

  /**
   * Whether a caller that is not a broker may send this command; {@code wantsAnswer} false writes
   * it without backpressure, which only a broker (and a gateway's JOB YIELD) may do. An unknown
   * command ({@code intent} null: codes that name no intent here) is never forwardable.
   */
  public static boolean allowed(Intent intent, boolean wantsAnswer) {
    return intent != null && (wantsAnswer ? ANSWERED : UNANSWERED).contains(intent);
  }

  /**
   * Whether {@code value} is a client's command rather than a partition's copy. A signal broadcast
   * and a resource deletion are copied to every partition under the client command's own value type
   * and intent, told apart by the partition of origin their value names: a copy skips the checks
   * its origin made, so a caller that is not a broker may send the client form only. A value that
   * does not decode is no client's either.
   */
  public static boolean isClientForm(Intent intent, byte[] value) {
    try {
      if (intent == SignalIntent.BROADCAST) {
        return new SignalValue().<SignalValue>readFrom(new UnsafeBuffer(value)).originPartitionId
            < 0;
      }
      if (intent == ResourceDeletionIntent.DELETE) {
        return new ResourceDeletionValue()
                .<ResourceDeletionValue>readFrom(new UnsafeBuffer(value))
                .originPartitionId
            < 0;
      }
    } catch (RuntimeException e) {
      return false;
    }
    return true;
  }

  /** Every forwardable command, for the test that compares them with the gateway's. */
  static Set<Intent> all() {
    Set<Intent> all = new HashSet<>(ANSWERED);
    all.addAll(UNANSWERED);
    return all;
  }

  /**
   * A command's name for an error message, e.g. "JOB TIME_OUT (13/8)": the names of {@link
   * ValueType} and its intent where these codes have them, the numbers always.
   */
  public static String describe(int valueType, int intent) {
    ValueType type = ValueType.ofCode(valueType);
    Intent known = Intents.of(valueType, intent);
    return (type == null ? "value type" : type.name())
        + " "
        + (known == null ? "intent" : known.name())
        + " ("
        + valueType
        + "/"
        + intent
        + ")";
  }
}
