package io.tern.engine.workflow.feel;

import java.lang.reflect.Field;
import java.util.Map;
import org.camunda.feel.FeelEngine;
import org.camunda.feel.api.EvaluationResult;
import org.camunda.feel.api.FeelEngineApi;
import org.camunda.feel.api.FeelEngineBuilder;

/**
 * A budget for one FEEL evaluation, counted in steps, so that an expression like {@code count(for x
 * in 1..300000000 return x)} is stopped before it holds the partition's processor for minutes or
 * fills its heap. The FEEL engine has no such limit of its own; engines made here count with a
 * {@link MeteredInterpreter}.
 *
 * <p>Steps, not time: the same expression over the same variables takes the same steps on every
 * broker, fast or slow, loaded or not, so a command whose expression exceeds the budget is refused
 * (or raises an incident) the same way by a new leader that processes it again after a crash. A
 * time budget would make that outcome depend on the machine.
 *
 * <p>What is counted: each expression node evaluated (a loop's body once per item), each item of a
 * range or of the combinations of a multi-iterator {@code for}, {@code some} or {@code every}
 * before the engine builds it, each item of a list and each 16 characters of a string that a
 * function or an addition makes. What is not: values built by sharing, like a context holding the
 * previous one twice, which stay small in memory until something prints them; the processor's catch
 * of {@link OutOfMemoryError} rejects such a command.
 */
public final class FeelBudget {
  /**
   * Far above any expression of a real model (a loop over 10,000 items takes some 100,000). A
   * constant, not a setting: message and signal start event names are evaluated again whenever a
   * deployed process is read back (replay, the process cache), and must pass again there; one
   * budget for every broker and every version keeps that true.
   */
  public static final long DEFAULT_MAX_STEPS = 1_000_000;

  /** How deep evaluation may nest (expressions in expressions, function calls in calls). */
  static final int MAX_DEPTH = 200;

  /** A string is charged one step per this many characters. */
  static final int CHARS_PER_STEP = 16;

  /** An evaluation that ran out of budget. */
  public static final class ExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ExceededException(String message) {
      super(message, null, false, false); // thrown through deep stacks: no trace to fill
    }
  }

  private static final Field API_ENGINE = field(FeelEngineApi.class, "engine");
  private static final Field ENGINE_INTERPRETER = field(FeelEngine.class, "interpreter");

  private FeelBudget() {}

  /**
   * A FEEL engine (as {@code FeelEngineBuilder.forJava().build()}) whose evaluations in {@link
   * #evaluate} are metered.
   */
  public static FeelEngineApi newEngine() {
    FeelEngineApi api = FeelEngineBuilder.forJava().build();
    try {
      FeelEngine engine = (FeelEngine) API_ENGINE.get(api);
      ENGINE_INTERPRETER.set(engine, new MeteredInterpreter(engine.valueMapper()));
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("the FEEL engine's interpreter cannot be replaced", e);
    }
    return api;
  }

  /**
   * Evaluates {@code expression} (without its leading '=') with at most {@code maxSteps} steps.
   *
   * @throws ExceededException if it needs more (the message says what ran out)
   */
  public static EvaluationResult evaluate(
      FeelEngineApi engine, String expression, Map<String, Object> variables, long maxSteps) {
    Meter meter = new Meter(maxSteps);
    Meter outer = MeteredInterpreter.CURRENT.get();
    MeteredInterpreter.CURRENT.set(meter);
    EvaluationResult result;
    try {
      result = engine.evaluateExpression(expression, variables);
    } finally {
      MeteredInterpreter.CURRENT.set(outer);
    }
    if (meter.exceeded != null) {
      // The engine may have turned the exception into a failure or a null: the budget decides.
      throw new ExceededException(meter.exceeded);
    }
    return result;
  }

  /** What one evaluation has left. Used by one thread. */
  static final class Meter {
    private final long maxSteps;
    private long steps;
    private int depth;
    private String exceeded;

    Meter(long maxSteps) {
      this.maxSteps = maxSteps;
    }

    void charge(long count, String what) {
      if (exceeded != null) {
        throw new ExceededException(exceeded); // unwinding: stop anything the engine caught
      }
      steps += count;
      if (steps > maxSteps || steps < 0) {
        exceeded =
            "it needs more than "
                + maxSteps
                + " evaluation steps, the budget of one FEEL evaluation ("
                + what
                + ")";
        throw new ExceededException(exceeded);
      }
    }

    void enter() {
      if (++depth > MAX_DEPTH) {
        exceeded = "it nests deeper than " + MAX_DEPTH + " levels while it is evaluated";
        throw new ExceededException(exceeded);
      }
    }

    void exit() {
      depth--;
    }
  }

  private static Field field(Class<?> type, String name) {
    try {
      Field field = type.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException | RuntimeException e) {
      // A new FEEL version moved it: fail at start, loudly, rather than evaluate without budget.
      throw new ExceptionInInitializerError(
          "FEEL engine " + type.getName() + " has no field '" + name + "' to meter: " + e);
    }
  }
}
