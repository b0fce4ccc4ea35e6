package io.tern.engine.workflow.feel;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.feel.FeelEngine;
import org.camunda.feel.api.EvaluationResult;
import org.camunda.feel.api.FeelEngineApi;
import org.camunda.feel.api.FeelEngineBuilder;
import org.camunda.feel.syntaxtree.Exp;

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
 *
 * <p>Other engines built on the FEEL engine (the DMN engine) are metered with {@link #meter} and
 * {@link #withBudget}: one budget for all the expressions one call evaluates.
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

  /** How {@link #evaluate}'s refusals name the budget. */
  static final String ONE_FEEL_EVALUATION = "one FEEL evaluation";

  /** An evaluation that ran out of budget. */
  public static final class ExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Exp expression;

    ExceededException(String message, Exp expression) {
      super(message, null, false, false); // thrown through deep stacks: no trace to fill
      this.expression = expression;
    }

    /**
     * The syntax tree of the outermost expression being evaluated when the budget ran out (the
     * {@code expression()} of its {@code ParsedExpression}), or null: lets a caller that evaluated
     * several expressions name the one that was stopped.
     */
    public Exp expression() {
      return expression;
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
    meter(api);
    return api;
  }

  /**
   * Makes {@code api}'s evaluations metered within {@link #evaluate} and {@link #withBudget} (and
   * unmetered elsewhere), keeping its value mapper and functions. For engines built by others, like
   * the FEEL engine inside the DMN engine ({@code DmnEngine.feelEngine()}).
   */
  public static void meter(FeelEngineApi api) {
    try {
      FeelEngine engine = (FeelEngine) API_ENGINE.get(api);
      if (!(ENGINE_INTERPRETER.get(engine) instanceof MeteredInterpreter)) {
        ENGINE_INTERPRETER.set(engine, new MeteredInterpreter(engine.valueMapper()));
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("the FEEL engine's interpreter cannot be replaced", e);
    }
  }

  /**
   * Evaluates {@code expression} (without its leading '=') with at most {@code maxSteps} steps.
   *
   * @throws ExceededException if it needs more (the message says what ran out)
   */
  public static EvaluationResult evaluate(
      FeelEngineApi engine, String expression, Map<String, Object> variables, long maxSteps) {
    return withBudget(
        maxSteps, ONE_FEEL_EVALUATION, () -> engine.evaluateExpression(expression, variables));
  }

  /**
   * Runs {@code evaluation} with at most {@code maxSteps} steps for every FEEL expression that
   * metered engines (see {@link #meter}) evaluate in it, together.
   *
   * @param budget what the budget is for, as refusals name it ("one decision evaluation")
   * @throws ExceededException if they need more, whatever the engine made of it
   */
  public static <T> T withBudget(long maxSteps, String budget, Supplier<T> evaluation) {
    Meter meter = new Meter(maxSteps, budget);
    Meter outer = MeteredInterpreter.CURRENT.get();
    MeteredInterpreter.CURRENT.set(meter);
    T result;
    try {
      result = evaluation.get();
    } catch (RuntimeException e) {
      if (meter.exceeded == null) {
        throw e;
      }
      result = null; // the budget's exception, or one it caused: the budget decides below
    } finally {
      MeteredInterpreter.CURRENT.set(outer);
    }
    if (meter.exceeded != null) {
      // The engine may have turned the exception into a failure or a null: the budget decides.
      throw new ExceededException(meter.exceeded, meter.exceededIn);
    }
    return result;
  }

  /** What one evaluation has left. Used by one thread. */
  static final class Meter {
    private final long maxSteps;
    private final String budget;
    private long steps;
    private int depth;
    private Exp outermost;
    private String exceeded;
    private Exp exceededIn;

    Meter(long maxSteps, String budget) {
      this.maxSteps = maxSteps;
      this.budget = budget;
    }

    void charge(long count, String what) {
      if (exceeded != null) {
        // unwinding: stop anything the engine caught
        throw new ExceededException(exceeded, exceededIn);
      }
      steps += count;
      if (steps > maxSteps || steps < 0) {
        exceed(
            "it needs more than "
                + maxSteps
                + " evaluation steps, the budget of "
                + budget
                + " ("
                + what
                + ")");
      }
    }

    /** {@code expression} is evaluated; at depth 0 it is an outermost one, as the engine got it. */
    void enter(Exp expression) {
      if (depth == 0) {
        outermost = expression;
      }
      if (++depth > MAX_DEPTH) {
        exceed("it nests deeper than " + MAX_DEPTH + " levels while it is evaluated");
      }
    }

    private void exceed(String why) {
      exceeded = why;
      exceededIn = outermost;
      throw new ExceededException(exceeded, exceededIn);
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
