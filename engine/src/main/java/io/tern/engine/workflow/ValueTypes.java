package io.tern.engine.workflow;

/**
 * The workflow engine's value types and intents: the codes in its records. Codes are stored in the
 * log, so they never change meaning; new ones are added. Commands are what is asked, events what
 * happened (Zeebe's names).
 */
public final class ValueTypes {
  public static final int DEPLOYMENT = 10;
  public static final int PROCESS_INSTANCE = 11;
  public static final int PROCESS_INSTANCE_CREATION = 12;
  public static final int JOB = 13;
  public static final int JOB_BATCH = 14;
  public static final int VARIABLE = 15;
  public static final int INCIDENT = 16;
  public static final int TIMER = 17;
  public static final int PROCESS_EVENT = 18;
  public static final int VARIABLE_DOCUMENT = 19;
  public static final int MESSAGE = 20;

  /** The message partition's side of a subscription. */
  public static final int MESSAGE_SUBSCRIPTION = 21;

  /** The process instance partition's side of a subscription. */
  public static final int PROCESS_MESSAGE_SUBSCRIPTION = 22;

  /** The answer to a creation that awaits the instance's end. */
  public static final int PROCESS_INSTANCE_RESULT = 23;

  /** On the deployment partition: which partitions still need a deployment's copy. */
  public static final int DEPLOYMENT_DISTRIBUTION = 24;

  /** A message started a process instance at a message start event. */
  public static final int MESSAGE_START_EVENT_SUBSCRIPTION = 25;

  /** A decision evaluated for the gateway's EvaluateDecision. */
  public static final int DECISION_EVALUATION = 30;

  /** A signal broadcast to every partition: its subscriptions there are triggered. */
  public static final int SIGNAL = 31;

  /** An element instance, or a signal start event, waiting for a signal. */
  public static final int SIGNAL_SUBSCRIPTION = 32;

  /** A deployed process deleted (DeleteResource), on every partition. */
  public static final int RESOURCE_DELETION = 33;

  /** A process instance modified (ModifyProcessInstance): elements activated and terminated. */
  public static final int PROCESS_INSTANCE_MODIFICATION = 34;

  /** A process instance moved to another process definition (MigrateProcessInstance). */
  public static final int PROCESS_INSTANCE_MIGRATION = 35;

  /** A completed activity that a compensation throw event can compensate. */
  public static final int COMPENSATION_SUBSCRIPTION = 36;

  private ValueTypes() {}

  /** {@link #DEPLOYMENT}. */
  public static final class DeploymentIntent {
    public static final int CREATE = 0;
    public static final int CREATED = 1;

    /** From the deployment partition: take this deployment as it is (same keys, versions). */
    public static final int DISTRIBUTE = 2;

    public static final int DISTRIBUTED = 3;

    /** On the deployment partition: every partition has the deployment. */
    public static final int FULLY_DISTRIBUTED = 4;

    private DeploymentIntent() {}
  }

  /** {@link #PROCESS_INSTANCE_CREATION}. */
  public static final class CreationIntent {
    public static final int CREATE = 0;
    public static final int CREATED = 1;

    /** Create, and answer once the instance completes (or is terminated). */
    public static final int CREATE_WITH_AWAITING_RESULT = 2;

    private CreationIntent() {}
  }

  /** {@link #PROCESS_INSTANCE}: the lifecycle of each element instance. */
  public static final class ProcessInstanceIntent {
    public static final int ACTIVATE_ELEMENT = 0;
    public static final int COMPLETE_ELEMENT = 1;

    /** Cancels a whole process instance (key: the process instance key). */
    public static final int CANCEL = 2;

    public static final int TERMINATE_ELEMENT = 3;
    public static final int ELEMENT_ACTIVATING = 10;
    public static final int ELEMENT_ACTIVATED = 11;
    public static final int ELEMENT_COMPLETING = 12;
    public static final int ELEMENT_COMPLETED = 13;
    public static final int ELEMENT_TERMINATING = 14;
    public static final int ELEMENT_TERMINATED = 15;
    public static final int SEQUENCE_FLOW_TAKEN = 16;

    /** The element instance now runs as an element of another process definition. */
    public static final int ELEMENT_MIGRATED = 17;

    private ProcessInstanceIntent() {}
  }

  /** {@link #JOB}. */
  public static final class JobIntent {
    public static final int CREATED = 1;
    public static final int COMPLETE = 2;
    public static final int COMPLETED = 3;
    public static final int FAIL = 4;
    public static final int FAILED = 5;
    public static final int UPDATE_RETRIES = 6;
    public static final int RETRIES_UPDATED = 7;
    public static final int TIME_OUT = 8;
    public static final int TIMED_OUT = 9;
    public static final int RECUR_AFTER_BACKOFF = 10;
    public static final int RECURRED_AFTER_BACKOFF = 11;

    /** The job's element was terminated. */
    public static final int CANCELED = 12;

    public static final int THROW_ERROR = 13;
    public static final int ERROR_THROWN = 14;
    public static final int UPDATE_TIMEOUT = 15;
    public static final int TIMEOUT_UPDATED = 16;

    /** A job pushed to a stream that was gone is given back, to be activated again. */
    public static final int YIELD = 17;

    public static final int YIELDED = 18;

    /** Its element instance was migrated: the job names the target definition and element. */
    public static final int MIGRATED = 19;

    private JobIntent() {}
  }

  /** {@link #VARIABLE}. */
  public static final class VariableIntent {
    public static final int CREATED = 0;
    public static final int UPDATED = 1;

    private VariableIntent() {}
  }

  /** {@link #INCIDENT}. */
  public static final class IncidentIntent {
    public static final int CREATED = 0;
    public static final int RESOLVE = 1;
    public static final int RESOLVED = 2;

    /** Its element instance was migrated: the incident names the target definition and element. */
    public static final int MIGRATED = 3;

    private IncidentIntent() {}
  }

  /** {@link #TIMER}. */
  public static final class TimerIntent {
    public static final int CREATED = 0;

    /** Written when the timer is due; the timer's element is triggered. */
    public static final int TRIGGER = 1;

    public static final int TRIGGERED = 2;

    /** Its element was left before it fired. */
    public static final int CANCELED = 3;

    /** Its element instance was migrated; the due date stays. */
    public static final int MIGRATED = 4;

    private TimerIntent() {}
  }

  /** {@link #PROCESS_EVENT}. */
  public static final class ProcessEventIntent {
    /** A boundary event was triggered (activated at once, or once its activity is terminated). */
    public static final int TRIGGERED = 0;

    private ProcessEventIntent() {}
  }

  /** {@link #VARIABLE_DOCUMENT}. */
  public static final class VariableDocumentIntent {
    public static final int UPDATE = 0;
    public static final int UPDATED = 1;

    private VariableDocumentIntent() {}
  }

  /** {@link #MESSAGE}. */
  public static final class MessageIntent {
    public static final int PUBLISH = 0;
    public static final int PUBLISHED = 1;
    public static final int EXPIRE = 2;
    public static final int EXPIRED = 3;

    private MessageIntent() {}
  }

  /** {@link #MESSAGE_START_EVENT_SUBSCRIPTION}. */
  public static final class MessageStartEventSubscriptionIntent {
    /** The message starts an instance (the record's processInstanceKey) at elementId. */
    public static final int CORRELATED = 0;

    private MessageStartEventSubscriptionIntent() {}
  }

  /**
   * {@link #MESSAGE_SUBSCRIPTION}, on the message's partition. Commands come from the process
   * instance's partition; each is answered there with a command of {@link
   * ProcessMessageSubscriptionIntent}.
   */
  public static final class MessageSubscriptionIntent {
    public static final int CREATE = 0;
    public static final int CREATED = 1;

    /** A message was sent to the process instance's partition to correlate. */
    public static final int CORRELATING = 2;

    /** The process instance's partition took the message. */
    public static final int CORRELATE = 3;

    public static final int CORRELATED = 4;

    /** The process instance's partition did not take the message. */
    public static final int REJECT = 5;

    public static final int REJECTED = 6;
    public static final int DELETE = 7;
    public static final int DELETED = 8;

    /** Its process instance was migrated: the copy takes the new process id, event and the like. */
    public static final int MIGRATE = 9;

    public static final int MIGRATED = 10;

    private MessageSubscriptionIntent() {}
  }

  /** {@link #PROCESS_MESSAGE_SUBSCRIPTION}, on the process instance's partition. */
  public static final class ProcessMessageSubscriptionIntent {
    /** Opening: the message partition is asked to create its side. */
    public static final int CREATING = 0;

    /** The message partition's acknowledgement. */
    public static final int CREATE = 1;

    public static final int CREATED = 2;

    /** A message from the message partition. */
    public static final int CORRELATE = 3;

    public static final int CORRELATED = 4;

    /** Closing: the message partition is asked to delete its side. */
    public static final int DELETING = 5;

    /** The message partition's acknowledgement. */
    public static final int DELETE = 6;

    public static final int DELETED = 7;

    /**
     * Its element instance was migrated: the subscription triggers the target's event. If the
     * message partition's copy must follow (another process id, or the event interrupts otherwise),
     * it is asked to.
     */
    public static final int MIGRATED = 8;

    /** The message partition's acknowledgement of a migration. */
    public static final int MIGRATE = 9;

    public static final int MIGRATION_ACKNOWLEDGED = 10;

    private ProcessMessageSubscriptionIntent() {}
  }

  /** {@link #PROCESS_INSTANCE_RESULT}: its value is a ProcessInstanceCreationValue. */
  public static final class ResultIntent {
    public static final int COMPLETED = 0;

    /** The instance was canceled: there is no result. */
    public static final int TERMINATED = 1;

    private ResultIntent() {}
  }

  /** {@link #DEPLOYMENT_DISTRIBUTION}. */
  public static final class DeploymentDistributionIntent {
    /** From a partition that took the deployment's copy. */
    public static final int COMPLETE = 0;

    public static final int COMPLETED = 1;

    private DeploymentDistributionIntent() {}
  }

  /** {@link #DECISION_EVALUATION}. */
  public static final class DecisionEvaluationIntent {
    public static final int EVALUATE = 0;
    public static final int EVALUATED = 1;

    /** The decision failed to evaluate: the answer says which and why. */
    public static final int FAILED = 2;

    private DecisionEvaluationIntent() {}
  }

  /** {@link #SIGNAL}. */
  public static final class SignalIntent {
    /** From the gateway, a signal throw event, or (as a copy) another partition. */
    public static final int BROADCAST = 0;

    public static final int BROADCASTED = 1;

    /** On the origin partition: another partition took its copy. */
    public static final int ACKNOWLEDGE = 2;

    public static final int ACKNOWLEDGED = 3;

    private SignalIntent() {}
  }

  /** {@link #SIGNAL_SUBSCRIPTION}. */
  public static final class SignalSubscriptionIntent {
    public static final int CREATED = 0;
    public static final int DELETED = 1;

    /** A signal came: the subscription's event is triggered (a start event starts an instance). */
    public static final int TRIGGERED = 2;

    private SignalSubscriptionIntent() {}
  }

  /** {@link #RESOURCE_DELETION}. */
  public static final class ResourceDeletionIntent {
    /** From the gateway (on partition 1), or as a copy to another partition. */
    public static final int DELETE = 0;

    public static final int DELETED = 1;

    /** On partition 1: another partition took the deletion's copy. */
    public static final int ACKNOWLEDGE = 2;

    public static final int ACKNOWLEDGED = 3;

    private ResourceDeletionIntent() {}
  }

  /** {@link #PROCESS_INSTANCE_MODIFICATION}. */
  public static final class ModificationIntent {
    public static final int MODIFY = 0;

    public static final int MODIFIED = 1;

    private ModificationIntent() {}
  }

  /** {@link #PROCESS_INSTANCE_MIGRATION}. */
  public static final class MigrationIntent {
    public static final int MIGRATE = 0;
    public static final int MIGRATED = 1;

    private MigrationIntent() {}
  }

  /** {@link #COMPENSATION_SUBSCRIPTION}. */
  public static final class CompensationIntent {
    /** The activity completed: it can be compensated. */
    public static final int CREATED = 0;

    /** A throw event compensates it: its handler runs (and what completed inside it is next). */
    public static final int TRIGGERED = 1;

    /**
     * Its handler completed (or, for a subprocess holding compensable activities without a handler
     * of its own, the last of them was compensated).
     */
    public static final int COMPLETED = 2;

    /** Its process instance ended: it can no longer be compensated. */
    public static final int DELETED = 3;

    /**
     * Its process instance was migrated: it names the target definition, the activity its activity
     * is mapped to and that activity's compensation handler; its keys stay.
     */
    public static final int MIGRATED = 4;

    private CompensationIntent() {}
  }

  /** {@link #JOB_BATCH}. */
  public static final class JobBatchIntent {
    public static final int ACTIVATE = 0;
    public static final int ACTIVATED = 1;

    private JobBatchIntent() {}
  }
}
