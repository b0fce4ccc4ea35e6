package io.tern.engine.cluster;

import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.CreationIntent;
import io.tern.engine.workflow.ValueTypes.DecisionEvaluationIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentIntent;
import io.tern.engine.workflow.ValueTypes.IncidentIntent;
import io.tern.engine.workflow.ValueTypes.JobBatchIntent;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.MessageIntent;
import io.tern.engine.workflow.ValueTypes.MigrationIntent;
import io.tern.engine.workflow.ValueTypes.ModificationIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.ResourceDeletionIntent;
import io.tern.engine.workflow.ValueTypes.SignalIntent;
import io.tern.engine.workflow.ValueTypes.VariableDocumentIntent;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.SignalValue;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Locale;
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
  /** A value type and intent in one number: value types and intents are both below 2^16. */
  private static final Set<Integer> ANSWERED =
      Set.of(
          pair(ValueTypes.DEPLOYMENT, DeploymentIntent.CREATE),
          pair(ValueTypes.RESOURCE_DELETION, ResourceDeletionIntent.DELETE),
          pair(ValueTypes.DECISION_EVALUATION, DecisionEvaluationIntent.EVALUATE),
          pair(ValueTypes.PROCESS_INSTANCE_CREATION, CreationIntent.CREATE),
          pair(ValueTypes.PROCESS_INSTANCE_CREATION, CreationIntent.CREATE_WITH_AWAITING_RESULT),
          pair(ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.CANCEL),
          pair(ValueTypes.PROCESS_INSTANCE_MODIFICATION, ModificationIntent.MODIFY),
          pair(ValueTypes.PROCESS_INSTANCE_MIGRATION, MigrationIntent.MIGRATE),
          pair(ValueTypes.VARIABLE_DOCUMENT, VariableDocumentIntent.UPDATE),
          pair(ValueTypes.INCIDENT, IncidentIntent.RESOLVE),
          pair(ValueTypes.JOB_BATCH, JobBatchIntent.ACTIVATE),
          pair(ValueTypes.JOB, JobIntent.COMPLETE),
          pair(ValueTypes.JOB, JobIntent.FAIL),
          pair(ValueTypes.JOB, JobIntent.THROW_ERROR),
          pair(ValueTypes.JOB, JobIntent.UPDATE_RETRIES),
          pair(ValueTypes.JOB, JobIntent.UPDATE_TIMEOUT),
          pair(ValueTypes.MESSAGE, MessageIntent.PUBLISH),
          pair(ValueTypes.SIGNAL, SignalIntent.BROADCAST));

  private static final int SIGNAL_BROADCAST = pair(ValueTypes.SIGNAL, SignalIntent.BROADCAST);
  private static final int RESOURCE_DELETE =
      pair(ValueTypes.RESOURCE_DELETION, ResourceDeletionIntent.DELETE);

  /** Sent by a gateway without waiting: a pushed job no worker could take goes back. */
  private static final Set<Integer> UNANSWERED = Set.of(pair(ValueTypes.JOB, JobIntent.YIELD));

  private ForwardableCommands() {}

  /**
   * Whether a caller that is not a broker may send this command; {@code wantsAnswer} false writes
   * it without backpressure, which only a broker (and a gateway's JOB YIELD) may do.
   */
  public static boolean allowed(int valueType, int intent, boolean wantsAnswer) {
    int pair = pair(valueType, intent);
    return wantsAnswer ? ANSWERED.contains(pair) : UNANSWERED.contains(pair);
  }

  /**
   * Whether {@code value} is a client's command rather than a partition's copy. A signal broadcast
   * and a resource deletion are copied to every partition under the client command's own value type
   * and intent, told apart by the partition of origin their value names: a copy skips the checks
   * its origin made, so a caller that is not a broker may send the client form only. A value that
   * does not decode is no client's either.
   */
  public static boolean isClientForm(int valueType, int intent, byte[] value) {
    int pair = pair(valueType, intent);
    try {
      if (pair == SIGNAL_BROADCAST) {
        return new SignalValue().<SignalValue>readFrom(new UnsafeBuffer(value)).originPartitionId
            < 0;
      }
      if (pair == RESOURCE_DELETE) {
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

  /**
   * Every forwardable pair as "valueType/intent", for the test that compares it with the gateway.
   */
  static Set<String> all() {
    Set<String> all = new java.util.TreeSet<>();
    for (int pair : ANSWERED) {
      all.add((pair >>> 16) + "/" + (pair & 0xFFFF));
    }
    for (int pair : UNANSWERED) {
      all.add((pair >>> 16) + "/" + (pair & 0xFFFF));
    }
    return all;
  }

  /**
   * A command's name for an error message, e.g. "JOB TIME_OUT (13/8)": the names of {@link
   * ValueTypes}' constants where they can be found, the numbers always.
   */
  public static String describe(int valueType, int intent) {
    String type = null;
    String intentName = null;
    for (Field field : ValueTypes.class.getFields()) {
      if (field.getType() == int.class && Modifier.isStatic(field.getModifiers())) {
        try {
          if (field.getInt(null) == valueType) {
            type = field.getName();
          }
        } catch (IllegalAccessException e) {
          // public constants: cannot happen; the number stands alone then
        }
      }
    }
    if (type != null) {
      StringBuilder intents = new StringBuilder();
      for (String word : type.split("_")) {
        intents.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
      }
      intents.append("Intent");
      for (Class<?> nested : ValueTypes.class.getClasses()) {
        if (nested.getSimpleName().contentEquals(intents)) {
          for (Field field : nested.getFields()) {
            try {
              if (field.getType() == int.class && field.getInt(null) == intent) {
                intentName = field.getName();
              }
            } catch (IllegalAccessException e) {
              // as above
            }
          }
        }
      }
    }
    return (type == null ? "value type" : type)
        + " "
        + (intentName == null ? "intent" : intentName)
        + " ("
        + valueType
        + "/"
        + intent
        + ")";
  }

  private static int pair(int valueType, int intent) {
    if (valueType < 0 || valueType > 0xFFFF || intent < 0 || intent > 0xFFFF) {
      return -1; // never in the sets: an unknown command is not forwardable
    }
    return valueType << 16 | intent;
  }
}
